import Foundation

/// Left-aligned columns separated by two spaces; the first row is the heading. The one table
/// renderer of every command.
enum Table {
    /// The rows, each column as wide as its widest cell.
    static func render(_ rows: [[String]]) -> String {
        guard let first = rows.first else { return "" }
        let widths = first.indices.map { column in
            rows.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        return rows.map { line($0, widths: widths) }.joined()
    }

    /// One row with the given column widths (for tables written a row at a time), ending in a
    /// newline, without trailing spaces.
    static func line(_ cells: [String], widths: [Int]) -> String {
        var line = ""
        for (column, cell) in cells.enumerated() {
            line += cell
            if column < cells.count - 1 {
                let width = column < widths.count ? widths[column] : cell.count
                line += String(repeating: " ", count: max(0, width - cell.count) + 2)
            }
        }
        while line.utf8.last == UInt8(ascii: " ") { line.removeLast() }
        return line + "\n"
    }
}

/// Comma-separated values (RFC 4180): the one CSV writer of every command.
enum CSV {
    /// One record, fields quoted when they hold a comma, a quote or a line break, ending in a newline.
    static func row(_ fields: [String]) -> String {
        fields.map { field in
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\n"
    }
}
