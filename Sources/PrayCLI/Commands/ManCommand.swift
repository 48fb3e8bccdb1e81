import Foundation
import PrayCore

/// `praykit man`: the manual page (roff), as `praykit help --man`.
struct ManCommand: Command {
    static let name = "man"
    static let abstract = "Print the manual page (roff): praykit man | man -l -"
    static let examples = ["praykit man > ~/.local/share/man/man1/praykit.1"]

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {}

    func run(_ context: CommandContext) async throws(CLIError) {
        let today = LocalClock(timeZone: TimeZone(secondsFromGMT: 0) ?? .current).components(context.now).day
        try context.output.write(ManPage.render(date: today))
    }
}
