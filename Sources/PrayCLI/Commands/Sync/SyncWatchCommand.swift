import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit sync watch`: holds the server's event stream and prints each change as it arrives.
enum SyncWatchCommand: Command {
    static let name = "watch"
    static let abstract = "Stay connected to the sync server and print each change as it arrives."
    static let discussion = """
        Holds the server's event stream (live updates): when another device or a mosque you follow
        changes something, this device pulls it within about a second and prints a line. A stream that
        closes is opened again after a few seconds (a jittered wait, up to a minute). With --format
        json, one object a line: {"event":"connected"|"arrived"|"disconnected", …}, for scripts.
        'praykit notify' holds the same stream while it runs. Ctrl-C or SIGTERM ends it (exit 0).
        """
    static let examples = ["praykit sync watch", "praykit sync watch --format json"]
    static let format = Option<OutputFormat>.format([.plain, .json])
    static let options: [any OptionDefinition] = [format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let sync = context.dependency.syncService()
        guard try sync.currentStatus().phase != .off else {
            throw CLIError.usage("sync is off on this device: log in first ('praykit sync login --server URL')")
        }
        let json = arguments[format] == .json
        let signals = await WatchSignals.install(terminal: nil)
        defer { signals.stop() }
        let task = Task {
            for await event in sync.live() {
                let now = context.clock.now()
                try context.output.write(json ? Self.json(event, now: now) : Self.line(event, now: now, context))
                try context.output.flush()
            }
        }
        signals.state.stopping(task)
        do {
            try await task.value
        } catch let error as CLIError where error.kind == .closedOutput {
            context.output.discardAfterClosedReader()
        }
    }

    /// A line for people.
    static func line(_ event: SyncLiveEvent, now: Date, _ context: CommandContext) -> String {
        let clock = LocalClock(zone: context.zones.local)
        switch event {
        case .connected(let at):
            return "\(clock.time(at, withSeconds: true)) Live: changes arrive as they happen.\n"
        case .arrived(let report):
            let gone = report.gone.isEmpty ? "" : "; no longer updated: " + report.gone.joined(separator: ", ")
            return "\(clock.time(now, withSeconds: true)) Received \(SyncCommand.changes(report.pulled))\(gone).\n"
        case .disconnected(let reason, let retryIn):
            let next = retryIn.map { "; trying again in \(Int($0.rounded(.up))) s" } ?? "; waiting for a login"
            return "\(clock.time(now, withSeconds: true)) Not live: \(reason.escapingControlCharacters())\(next).\n"
        }
    }

    /// An object a line for scripts.
    static func json(_ event: SyncLiveEvent, now: Date) -> String {
        let object: JSON =
            switch event {
            case .connected(let at):
                .object([("event", .string("connected")), ("at", .string(SyncAPI.timestamp(at)))])
            case .arrived(let report):
                .object([
                    ("event", .string("arrived")), ("at", .string(SyncAPI.timestamp(now))),
                    ("received", .int(report.pulled)), ("sent", .int(report.pushed)),
                    ("gone", .array(report.gone.map { .string($0) })),
                ])
            case .disconnected(let reason, let retryIn):
                .object([
                    ("event", .string("disconnected")), ("at", .string(SyncAPI.timestamp(now))),
                    ("reason", .string(reason)), ("retryIn", JSON.number(retryIn?.rounded())),
                ])
            }
        return object.compactRendered() + "\n"
    }
}
