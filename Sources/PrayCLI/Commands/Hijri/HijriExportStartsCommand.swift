import PrayCore

/// `praykit hijri export-starts`: the announced month starts as a file to share.
enum HijriExportStartsCommand: Command {
    static let name = "export-starts"
    static let abstract = "Write the announced month starts as a file 'hijri import-starts' reads."
    static let discussion = """
        The file is text: one month a line, 'YYYY-MM YYYY-MM-DD [who announced it]' (the Hijri month, its
        first civil day, an optional note), with '#' comment lines. A mosque or community can publish it.
        """
    static let examples = ["praykit hijri export-starts > starts.txt"]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        try context.output.write(try context.preferences().hijriMonthStarts.fileText)
    }
}
