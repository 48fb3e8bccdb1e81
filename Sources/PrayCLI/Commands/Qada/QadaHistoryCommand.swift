import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit qada history`: every opening and make-up, with its id.
enum QadaHistoryCommand: Command {
    static let name = "history"
    static let abstract = "List every opening and make-up with its id, oldest recorded first."
    static let discussion = """
        JSON: {"entries": [{"id", "kind": "opening" | "made-up", "prayer", "count", "date": YYYY-MM-DD,
        "source": "set" | "estimate" | null, "recordedAt": ISO 8601 UTC with milliseconds, "note": text |
        null}]}. An opening's date is the first day the log counts after it; a make-up's, the day the
        prayers were made up. 'praykit qada remove ID' removes an entry.
        """
    static let examples = ["praykit qada history", "praykit qada history --format json"]
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let entries = try context.dependency.qada().entries()
        if arguments[format] == .json {
            return try context.output.write(
                JSON.object([("entries", .array(entries.map(QadaCommand.json)))]).rendered() + "\n")
        }
        guard !entries.isEmpty else {
            return try context.output.write(
                "No entries. Start with 'praykit qada set' or 'praykit qada estimate'.\n")
        }
        let notes = entries.contains { $0.note != nil }
        let rows =
            [["ID", "Kind", "Prayer", "Count", "Date", "Source", "Recorded"] + (notes ? ["Note"] : [])]
            + entries.map { entry in
                [
                    entry.id, entry.kind.rawValue, entry.prayer.rawValue, "\(entry.count)", entry.date.description,
                    entry.source ?? "", PrayerLogEntry.timestamp(entry.recordedAt),
                ] + (notes ? [entry.note ?? ""] : [])
            }
        try context.output.write(Table.render(rows))
    }
}
