#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads a mosque's timetable from CSV, the format `praykit timetable import` takes.
///
/// UTF-8 (a byte-order mark is accepted), one header row naming the columns, then one row per day.
/// `date` (YYYY-MM-DD) is required; any of `fajr`, `sunrise`, `dhuhr`, `asr`, `maghrib`, `isha`
/// (adhan times), `fajr_iqama`, `dhuhr_iqama`, `asr_iqama`, `maghrib_iqama`, `isha_iqama`, and
/// `jumuah` (one or more times separated by spaces) may follow, in any order. Times are `HH:MM`, 24-hour,
/// local; an empty cell leaves that time to the calculation. Column names are case-insensitive. An isha
/// (or its iqama) before 06:00 is after midnight, on the next civil day, as in a northern summer.
///
/// ```
/// date,fajr,sunrise,dhuhr,asr,maghrib,isha,fajr_iqama,jumuah
/// 2026-12-04,06:05,07:50,11:55,13:35,15:52,17:35,06:30,12:30 13:30
/// ```
///
/// Anything wrong is an error naming the line, and no day is returned: a day out of order (fajr after
/// sunrise, an iqama before its adhan), Jumu'ah times on a day other than a Friday or more than three
/// of them, a day given twice, a missing `date` column, an unknown column
/// (with the closest known name), columns separated by semicolons or tabs, a bad time or date, bytes
/// that are not UTF-8, or a file without days.
public enum MosqueTimetableCSV {
    /// The adhan columns, in the order a day's times must keep.
    public static let adhanColumns: [Prayer] = [.fajr, .sunrise, .dhuhr, .asr, .maghrib, .isha]
    /// The prayers with an iqama column (`fajr_iqama`, …).
    public static let iqamaColumns: [Prayer] = Prayer.obligatory
    /// Every column name, `date` first.
    public static var columnNames: [String] {
        ["date"] + adhanColumns.map(\.rawValue) + iqamaColumns.map { "\($0.rawValue)_iqama" } + ["jumuah"]
    }

    /// The most days one file may give: 100 years.
    public static let maximumDays = 36_525

    /// Reads the days of `data`.
    /// - Throws: ``ValidationError`` (`csv`) whose message starts with `line N:`.
    public static func days(from data: Data) throws(ValidationError) -> [MosqueDay] {
        var bytes = data
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let line = invalidLine(bytes)
            throw error(line, "the file is not UTF-8 text; save it as UTF-8 (CSV UTF-8) and import it again")
        }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        guard let headerIndex = lines.firstIndex(where: { !$0.allSatisfy(\.isWhitespace) }) else {
            throw error(1, "the file is empty: it needs a header row naming the columns, then one row per day")
        }
        let columns = try header(lines[headerIndex], line: headerIndex + 1)
        var days: [MosqueDay] = []
        var seen: [CivilDate: Int] = [:]
        for index in lines.indices.dropFirst(headerIndex + 1) where !lines[index].allSatisfy(\.isWhitespace) {
            let line = index + 1
            let day = try row(lines[index], columns: columns, line: line)
            if let first = seen[day.date] {
                throw error(line, "\(day.date) is given twice (first on line \(first))")
            }
            seen[day.date] = line
            days.append(day)
            guard days.count <= maximumDays else { throw error(line, "more than \(maximumDays) days") }
        }
        guard !days.isEmpty else { throw error(headerIndex + 1, "the file has a header but no days") }
        return days.sorted { $0.date < $1.date }
    }

    // MARK: - Helpers

    private static func error(_ line: Int, _ message: String) -> ValidationError {
        ValidationError(field: "csv", message: "line \(line): \(message)")
    }

    /// The line of the first byte that is not valid UTF-8 (1-based).
    private static func invalidLine(_ bytes: Data) -> Int {
        var line = 1
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == 0x0A {
            if String(validating: bytes[start..<index], as: UTF8.self) == nil { return line }
            line += 1
            start = bytes.index(after: index)
        }
        return line
    }

    private static func cells(_ line: Substring) -> [String] {
        line.split(separator: ",", omittingEmptySubsequences: false).map {
            var cell = $0.trimmingWhitespace()
            if cell.count >= 2, cell.hasPrefix("\""), cell.hasSuffix("\"") {
                cell = String(cell.dropFirst().dropLast())
            }
            return cell.trimmingWhitespace()
        }
    }

    private static func header(_ text: Substring, line: Int) throws(ValidationError) -> [String] {
        let names = cells(text).map { $0.lowercased() }
        let known = columnNames
        // A spreadsheet in a locale whose decimal mark is a comma saves "CSV" with semicolons (or tabs):
        // the whole header is then one cell.
        if names.count == 1,
            let separator = [(";", "semicolons"), ("\t", "tabs")].first(where: { text.contains($0.0) })
        {
            throw error(
                line,
                "the columns are separated by \(separator.1), not commas; save the file as CSV with commas "
                    + "(in LibreOffice: Save As, Text CSV, field delimiter ',') and import it again")
        }
        for name in names where !known.contains(name) {
            throw error(
                line,
                "unknown column \(Self.quoted(name))" + (name.isEmpty ? " (an empty column name)" : "")
                    + (NameSuggestion.closest(to: name, among: known).map { " (did you mean '\($0)'?)" } ?? "")
                    + "; the columns are \(known.joined(separator: ", "))")
        }
        for name in Set(names) where names.filter({ $0 == name }).count > 1 {
            throw error(line, "the column \(Self.quoted(name)) is named twice")
        }
        guard names.contains("date") else {
            throw error(line, "the header has no 'date' column (YYYY-MM-DD); the first row must name the columns")
        }
        return names
    }

    private static func row(_ text: Substring, columns: [String], line: Int) throws(ValidationError) -> MosqueDay {
        let values = cells(text)
        guard values.count == columns.count else {
            throw error(line, "\(values.count) cells, but the header names \(columns.count) columns")
        }
        var date: CivilDate?
        var day = MosqueDay(date: CivilDate(daysSince1970: 0))
        for (name, value) in zip(columns, values) {
            if name == "date" {
                do {
                    date = try CivilDate(parsing: value)
                } catch {
                    // A day that does not exist (2027-02-29) says so; anything else is not a date.
                    let written = value.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) != nil
                    throw Self.error(
                        line,
                        written
                            ? "\(Self.quoted(value)) is not a day: \(error.message)"
                            : "the date \(Self.quoted(value)) is not a day written YYYY-MM-DD")
                }
            } else if value.isEmpty {
                continue
            } else if name == "jumuah" {
                var times: [Int] = []
                for item in value.split(separator: " ") { times.append(try clock(String(item), name, line)) }
                day.jumuah = times.sorted()
            } else if name.hasSuffix("_iqama"), let prayer = Prayer(rawValue: String(name.dropLast(6))) {
                day.iqama[prayer] = afterMidnight(try clock(value, name, line), prayer)
            } else if let prayer = Prayer(rawValue: name) {
                day.adhan[prayer] = afterMidnight(try clock(value, name, line), prayer)
            }
        }
        guard let date else { throw error(line, "no date") }
        day.date = date
        // What a person types, checked as a mosque's settings are: a Jumu'ah on another day is a slip
        // (a day's row above or below), and a mosque gives at most three.
        if !day.jumuah.isEmpty, date.isoWeekday != 5 {
            throw error(
                line,
                "\(date) is a \(date.weekdayName), not a Friday: only a Friday's row gives Jumu'ah times "
                    + "(leave the jumuah of the other days empty)")
        }
        if day.jumuah.count > SyncMosqueSettingsValue.maximumJumuah {
            throw error(
                line,
                "\(day.jumuah.count) Jumu'ah times; a mosque gives at most \(SyncMosqueSettingsValue.maximumJumuah)")
        }
        try checkOrder(day, line: line)
        return day
    }

    private static func clock(_ text: String, _ column: String, _ line: Int) throws(ValidationError) -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else {
            throw error(line, "\(column) \(Self.quoted(text)) is not a time written HH:MM (24-hour, 00:00 to 23:59)")
        }
        return hour * 60 + minute
    }

    /// An isha written before 06:00 (``MosqueDay/ishaAfterMidnight``) is after midnight, on the next
    /// civil day: 00:40 is 1480 minutes after the day's own midnight.
    private static func afterMidnight(_ minutes: Int, _ prayer: Prayer) -> Int {
        prayer == .isha && minutes < MosqueDay.ishaAfterMidnight ? minutes + 1440 : minutes
    }

    /// The day's own check (``MosqueDay/validate()``), its message after the line number.
    private static func checkOrder(_ day: MosqueDay, line: Int) throws(ValidationError) {
        do {
            try day.validate()
        } catch {
            throw self.error(line, error.message)
        }
    }

    /// A cell of the file as an error quotes it: at most 40 characters (a cell of megabytes is not
    /// repeated), its control characters written out, between quotes.
    static func quoted(_ text: String) -> String {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "'" + shown.escapingControlCharacters() + "'"
    }
}
