import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Left-aligned columns separated by two spaces; the first row is the heading. The one table
/// renderer of every command.
///
/// A cell is one line: its control characters — line breaks of every kind (`\r`, `\n`, `\r\n`, the
/// Unicode line and paragraph separators, NEL), tabs, and bidirectional controls — are written as
/// visible escapes (`\n`, `\u{2028}`), so that a note that came from another device through sync
/// cannot break a row in two, forge a row, or move the columns after it.
enum Table {
    /// The rows, each column as wide as its widest cell.
    static func render(_ rows: [[String]]) -> String {
        guard let first = rows.first else { return "" }
        let rows = rows.map { $0.map(cell) }
        let widths = first.indices.map { column in
            rows.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        return rows.map { line($0, widths: widths) }.joined()
    }

    /// One row with the given column widths (for tables written a row at a time), ending in a
    /// newline, without trailing spaces.
    static func line(_ cells: [String], widths: [Int]) -> String {
        var line = ""
        for (column, cell) in cells.map(cell).enumerated() {
            line += cell
            if column < cells.count - 1 {
                let width = column < widths.count ? widths[column] : cell.count
                line += String(repeating: " ", count: max(0, width - cell.count) + 2)
            }
        }
        while line.utf8.last == UInt8(ascii: " ") { line.removeLast() }
        return line + "\n"
    }

    /// A cell's text on one line: every control character escaped (text without one as it is).
    static func cell(_ text: String) -> String {
        text.escapingControlCharacters()
    }
}

/// Comma-separated values (RFC 4180): the one CSV writer of every command.
///
/// Its cells come from people and other devices (a note synced from a phone), and CSV is opened by
/// spreadsheets, so a cell is made safe for both: a field with a comma, a quote or a line break of
/// any kind (`\r`, `\n`, `\r\n` — one Swift `Character` —, vertical tab, form feed, NEL, U+2028,
/// U+2029) is quoted, by its Unicode scalars, so that no row can be split or forged; and a text cell
/// that begins with `=`, `+`, `-`, `@`, a tab or a carriage return, which a spreadsheet would run as a
/// formula (`=HYPERLINK(…)`), gets a leading `'` (OWASP, CSV Injection). A column declared numeric
/// keeps a plain number as it is (`-5`, `-0.25`): it is a number, not a formula.
enum CSV {
    /// One record, ending in a newline.
    /// - Parameters:
    ///   - fields: The cells, in order.
    ///   - numericColumns: The columns whose plain numbers (`-12`, `3.5`) are written as they are.
    static func row(_ fields: [String], numericColumns: Set<Int> = []) -> String {
        fields.enumerated().map { column, field in
            let text = numericColumns.contains(column) && isPlainNumber(field) ? field : neutralized(field)
            guard needsQuotes(text) else { return text }
            return "\"" + text.replacing("\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\n"
    }

    /// The first characters a spreadsheet reads as the start of a formula.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// The scalars that end a line for some reader of CSV (RFC 4180's CR and LF, and what Unicode and
    /// Python's `splitlines` also break at).
    static let lineBreaks: Set<Unicode.Scalar> = ["\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]

    /// `field` with a `'` before it when it would start a formula.
    static func neutralized(_ field: String) -> String {
        guard let first = field.unicodeScalars.first, formulaStarts.contains(first) else { return field }
        return "'" + field
    }

    /// Whether a field must be quoted: a comma, a quote or a line break, looked for scalar by scalar.
    private static func needsQuotes(_ field: String) -> Bool {
        field.unicodeScalars.contains { $0 == "," || $0 == "\"" || lineBreaks.contains($0) }
    }

    /// Whether `field` is a decimal number and nothing else: an optional `-`, digits, and an optional
    /// fraction.
    private static func isPlainNumber(_ field: String) -> Bool {
        let digits = field.hasPrefix("-") ? field.utf8.dropFirst() : field.utf8[...]
        let parts = digits.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return false }
        return parts.allSatisfy {
            !$0.isEmpty && $0.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
    }
}
