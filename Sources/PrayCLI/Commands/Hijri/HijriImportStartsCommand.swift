import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit hijri import-starts`: announced month starts from a file a mosque or community distributes.
enum HijriImportStartsCommand: Command {
    static let name = "import-starts"
    static let abstract = "Add the announced month starts of a file (one 'YYYY-MM YYYY-MM-DD [source]' a line)."
    static let discussion = """
        The file's months replace the saved starts of the same months; the others stay. Lines are
        'YYYY-MM YYYY-MM-DD [who announced it]'; blank lines and lines starting with '#' are skipped. The
        whole file is checked first, as 'hijri set-start' checks one month: on any error, which names the
        line, nothing is imported. Use '-' to read standard input. An example with comments is
        docs/hijri-starts-example.txt in PrayKit's source; 'hijri export-starts' writes the saved starts.
        A recorded fast the new starts move out of Ramadan or onto an Eid is a warning, as with
        'hijri set-start'.
        """
    static let examples = ["praykit hijri import-starts starts.txt", "curl -s URL | praykit hijri import-starts -"]
    static let file = Argument<String>(
        "file", help: "The starts file, or - for standard input.", completion: .file)
    static let arguments: [any ArgumentDefinition] = [file]

    /// The largest file read: far more than a century of months.
    static let maximumBytes = 1024 * 1024

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        // A file that cannot be read or does not hold good starts is a failure (exit 1), as for
        // 'import' and 'timetable import'; only the command line itself is a usage error.
        let data = try InputFile.read(arguments[file], limit: maximumBytes + 1, context: context)
        let path = arguments[file] == "-" ? "standard input" : arguments[file]
        guard data.count <= maximumBytes else { throw CLIError.runtime("\(path) is larger than 1 MiB") }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CLIError.runtime("\(path) is not UTF-8 text")
        }
        let entries: [HijriMonthStarts.Entry]
        do {
            entries = try HijriMonthStarts.entries(parsingFile: text)
        } catch {
            throw CLIError.runtime("\(path) \(error.message); nothing was imported")
        }
        guard !entries.isEmpty else { throw CLIError.runtime("\(path) has no months; nothing was imported") }
        let saved = try context.preferences()
        var starts = saved.hijriMonthStarts
        for entry in entries { starts[entry.month] = entry.start }
        let problems = HijriStartsStore.problems(
            starts, changed: entries.map(\.month), saved: saved, context: context)
        // Months read in order: the line that first does not fit with those before it.
        let lines = lineNumbers(text)
        if let last = problems.max(by: { (lines[$0.month] ?? 0) < (lines[$1.month] ?? 0) }) {
            let line = lines[last.month].map { "line \($0): " } ?? ""
            throw CLIError.runtime("\(path) \(line)\(last.problem); nothing was imported")
        }
        try HijriStartsStore.save(starts, context: context)
        try context.output.write("Imported \(entries.count) month start\(entries.count == 1 ? "" : "s").\n")
        HijriStartsStore.warnMovedFasts(saved: saved, starts: starts, context: context)
    }

    /// The line of each month in the file.
    static func lineNumbers(_ text: String) -> [HijriMonthStarts.Month: Int] {
        var numbers: [HijriMonthStarts.Month: Int] = [:]
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let first = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
            if let month = try? HijriMonthStarts.Month(parsing: first), numbers[month] == nil {
                numbers[month] = index + 1
            }
        }
        return numbers
    }
}
