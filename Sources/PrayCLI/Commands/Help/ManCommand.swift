import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit man`: the manual page (roff), as `praykit help --man`.
enum ManCommand: Command {
    static let name = "man"
    static let abstract = "Print the manual page (roff): praykit man | man -l -"
    static let examples = ["praykit man > ~/.local/share/man/man1/praykit.1"]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        try context.output.write(
            ManPage.render(date: try CivilDate(containing: context.now, in: TimeZoneName.utc)))
    }
}
