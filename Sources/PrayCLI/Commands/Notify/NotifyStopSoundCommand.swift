import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `praykit notify stop-sound`: silences the sound the running daemon plays (the daemon runs on).
enum NotifyStopSoundCommand: Command {
    static let name = "stop-sound"
    static let abstract = "Stop the sound the running reminder daemon plays; the daemon runs on."
    static let discussion = """
        Sends SIGUSR1 to the daemon that 'praykit notify' runs with this database (its process id is
        kept beside the database, in praykit.notify-pid). It stops the adhan or reminder sound playing
        and waits for the next event. Nothing happens when nothing plays.
        """
    static let examples = ["praykit notify stop-sound"]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        guard let pid = context.dependency.reminderState().runningDaemon() else {
            throw CLIError.runtime("no reminder daemon is running ('praykit notify' starts one)")
        }
        guard kill(pid, SIGUSR1) == 0 else {
            throw CLIError.runtime(
                "cannot signal the reminder daemon (pid \(pid)): \(String(cString: strerror(errno)))")
        }
        try context.output.write("Asked the reminder daemon (pid \(pid)) to stop its sound.\n")
    }
}
