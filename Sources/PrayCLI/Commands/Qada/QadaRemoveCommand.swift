import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit qada remove ID`: removes an opening or a make-up.
enum QadaRemoveCommand: Command {
    static let name = "remove"
    static let abstract = "Remove an opening or a make-up by its id (see 'praykit qada history')."
    static let examples = [
        "praykit qada remove opening/fajr", "praykit qada remove made-up/4f1c0a9e2b7d4c6e8a1f3b5d7c9e0a2b",
    ]
    static let id = Argument<String>("id", help: "opening/<prayer> or made-up/<32 hex digits>, as history lists it.")
    static let arguments: [any ArgumentDefinition] = [id]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let id = arguments[id]
        do throws(ValidationError) {
            try QadaEntry.validateID(id)
        } catch {
            throw CLIError.usage(error.message)
        }
        guard let removed = try context.dependency.qada().remove(id: id) else {
            throw CLIError.runtime("no qada entry has the id '\(id)' (see 'praykit qada history')")
        }
        let what =
            removed.kind == .opening
            ? "the opening of \(removed.prayer) (\(removed.count) before \(removed.date))"
            : "\(removed.count) \(removed.prayer) made up on \(removed.date)"
        try context.output.write("Removed \(what).\n")
    }
}
