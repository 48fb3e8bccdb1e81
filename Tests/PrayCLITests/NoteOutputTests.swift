import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayCLI

/// Notes arrive from other devices through sync: in CSV (`log list|export --format csv`, `fast list`)
/// and in tables (`log list`, `fast list`, `qada history`) they can neither break a row, forge one,
/// nor run as a spreadsheet formula.
@Suite struct NoteOutputTests {
    /// Reads RFC 4180 records: fields split at commas outside quotes, records at CRLF or LF outside
    /// quotes, `""` a quote.
    static func records(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if scalars.first == "\"" {
                        field.unicodeScalars.append("\"")
                        scalars = scalars.dropFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"": quoted = true
            case ",":
                record.append(field)
                field = ""
            case "\n", "\r":
                if scalar == "\r", scalars.first == "\n" { scalars = scalars.dropFirst() }
                record.append(field)
                records.append(record)
                (record, field) = ([], "")
            default: field.unicodeScalars.append(scalar)
            }
        }
        if !field.isEmpty || !record.isEmpty { records.append(record + [field]) }
        return records
    }

    static let breaks = [
        "a\r\nb", "a\r\n2026-12-02,forged", "a\rb", "a\nb", "a\u{2028}b", "a\u{2029}b", "a\u{85}b", "a\u{0B}b",
        "a\u{0C}b",
    ]

    @Test func everyLineBreakIsQuoted() {
        for note in Self.breaks {
            let row = CSV.row(["2026-12-01", note])
            // One record of two fields, the note quoted, read back as written
            #expect(row == "2026-12-01,\"\(note)\"\n", "\(note.debugDescription)")
            #expect(Self.records(row) == [["2026-12-01", note]], "\(note.debugDescription)")
        }
    }

    @Test func formulasAreNeutralizedAndNumbersInNumericColumnsAreNot() {
        for formula in ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx"] {
            let field = Self.records(CSV.row([formula])).first?.first ?? ""
            #expect(field == "'" + formula, "\(formula.debugDescription)")
        }
        // A plain negative number in a numeric column stays a number; in a text column it is text
        #expect(CSV.row(["-5", "-0.25", "-5"], numericColumns: [0, 1]) == "-5,-0.25,'-5\n")
        // A numeric column's formula is still neutralized
        #expect(CSV.row(["-1+2"], numericColumns: [0]) == "'-1+2\n")
        #expect(CSV.row(["plain", "12", "a,b"]) == "plain,12,\"a,b\"\n")
    }

    @Test func aTableCellIsOneLine() {
        let table = Table.render([
            ["Date", "Note"], ["2026-12-01", "first\r\nsecond"], ["2026-12-02", "a\u{2028}b\nc"],
        ])
        // Then: three lines, the breaks written out, the columns aligned on the escaped text
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 3, "\(table.debugDescription)")
        #expect(lines[1] == "2026-12-01  first\\r\\nsecond")
        #expect(lines[2] == "2026-12-02  a\\u{2028}b\\nc")
    }

    /// A log of one entry whose note came from another device.
    static func log(note: String) throws -> PrayerLogStoreFake {
        let log = PrayerLogStoreFake()
        log.record([
            try PrayerLogEntry(
                date: CivilDate(year: 2026, month: 11, day: 29), prayer: .fajr, status: .prayed,
                recordedAt: CLI.now, note: note)
        ])
        return log
    }

    @Test func logListAndExportKeepOneRowPerEntry() async throws {
        // Given: a synced note with a CRLF, a forged row and a formula
        let note = "at home\r\n2026-11-29,isha,missed,2026-11-29T20:00:00.000Z,=HYPERLINK(\"http://evil\")"
        let dependency = CLI.dependency(log: try Self.log(note: note))
        // When
        let csv = await CLI.run(
            ["log", "list", "--from", "2026-11-29", "--to", "2026-11-29", "--format", "csv"], dependency: dependency)
        let export = await CLI.run(["log", "export", "--format", "csv"], dependency: dependency)
        let table = await CLI.run(
            ["log", "list", "--from", "2026-11-29", "--to", "2026-11-29"], dependency: dependency)
        // Then: a header and one record; the note's line break is inside its quotes, not a row
        for result in [csv, export] {
            #expect(result.status == 0, "\(result.stderr)")
            let records = Self.records(result.stdout)
            #expect(records.count == 2, "\(result.stdout.debugDescription)")
            #expect(records.last?.count == 5 && records.last?.first == "2026-11-29")
        }
        // And the table has a heading and one row, the break written out
        #expect(table.stdout.split(separator: "\n").count == 2, "\(table.stdout.debugDescription)")
        #expect(table.stdout.contains("at home\\r\\n2026-11-29,isha"))
    }

    @Test func aFormulaNoteIsExportedAsText() async throws {
        let dependency = CLI.dependency(log: try Self.log(note: "=HYPERLINK(\"http://evil\",\"click\")"))
        let export = await CLI.run(["log", "export", "--format", "csv"], dependency: dependency)
        #expect(Self.records(export.stdout).last?.last == "'=HYPERLINK(\"http://evil\",\"click\")")
    }
}
