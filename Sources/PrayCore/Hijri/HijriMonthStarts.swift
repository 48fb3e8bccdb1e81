#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The first days of Hijri months as a country or mosque announced them, over the calendar's: the
/// `hijri-starts` preference (`1448-09=2027-02-09,1448-10=2027-03-10`) and the file a community can
/// distribute (`1448-09 2027-02-09 Announced by …`, one month a line, `#` comments).
///
/// ```swift
/// var starts = HijriMonthStarts()
/// starts[try HijriMonthStarts.Month(parsing: "1448-09")] = try CivilDate(parsing: "2027-02-09")
/// let hijri = dependency.hijriService().following(starts)   // 2027-02-09 is 1 Ramadan 1448
/// ```
///
/// Within a month that has an override the days count from the announced start, and the month ends
/// the day before the next month's start (announced or the calendar's); the day offset for local
/// sighting does not apply to it.
public struct HijriMonthStarts: Hashable, Sendable, CustomStringConvertible {
    /// A Hijri year and month: `1448-09`.
    public struct Month: Hashable, Comparable, Sendable, CustomStringConvertible {
        /// The Hijri year (1…9666: the last month PrayKit has is 9666-04, which begins in December 9999).
        public let year: Int
        /// The month, 1…12.
        public let month: Int

        /// Creates a month after checking it.
        /// - Throws: ``ValidationError`` for a year outside 1…9999 or a month outside 1…12, or a month
        ///   whose first day (in the tabular calendar) falls after 9999-12-31, the last civil day
        ///   PrayKit has.
        public init(year: Int, month: Int) throws(ValidationError) {
            guard (1...9999).contains(year), (1...12).contains(month) else {
                throw ValidationError(
                    field: "month",
                    message: "a Hijri month must be a year 1…9999 and a month 01…12, got \(year)-\(month)")
            }
            guard HijriMonthStarts.tabularStartDay(year: year, month: month) <= CivilDate.last.daysSince1970 else {
                throw ValidationError(
                    field: "month",
                    message: "Hijri month \(year)-\(month < 10 ? "0" : "")\(month) begins after 9999-12-31, "
                        + "outside the years PrayKit converts")
            }
            self.year = year
            self.month = month
        }

        /// Parses `YYYY-MM`.
        /// - Throws: ``ValidationError`` for text of another shape.
        public init(parsing text: String) throws(ValidationError) {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, (1...4).contains(parts[0].count), parts[1].count == 2,
                parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                let year = Int(parts[0]), let month = Int(parts[1])
            else {
                throw ValidationError(field: "month", message: "a Hijri month must look like YYYY-MM, got '\(text)'")
            }
            try self.init(year: year, month: month)
        }

        private init(unchecked year: Int, _ month: Int) {
            self.year = year
            self.month = month
        }

        /// The month after this one.
        public var next: Month { month == 12 ? Month(unchecked: year + 1, 1) : Month(unchecked: year, month + 1) }
        /// The month before this one.
        public var previous: Month { month == 1 ? Month(unchecked: year - 1, 12) : Month(unchecked: year, month - 1) }
        /// The month's English name: `Ramadan`.
        public var name: String { HijriMonth(rawValue: month)?.name ?? "\(month)" }
        /// `1448-09`.
        public var description: String {
            String(year) + "-" + (month < 10 ? "0" : "") + String(month)
        }

        /// Earlier months first.
        public static func < (lhs: Month, rhs: Month) -> Bool { (lhs.year, lhs.month) < (rhs.year, rhs.month) }
    }

    /// One line of an override file: a month, its announced start and where the announcement came from.
    public struct Entry: Hashable, Sendable {
        /// The month.
        public var month: Month
        /// Its first day.
        public var start: CivilDate
        /// Who announced it, as the file says; empty when the line says nothing.
        public var source: String

        /// Creates an entry.
        public init(month: Month, start: CivilDate, source: String = "") {
            self.month = month
            self.start = start
            self.source = source
        }
    }

    /// The announced first day of each overridden month.
    public private(set) var starts: [Month: CivilDate]

    /// No overrides.
    public init() { starts = [:] }

    /// Parses the preference value, `1448-09=2027-02-09,1448-10=2027-03-10` (empty: none).
    /// - Throws: ``ValidationError`` naming the item that is not `YYYY-MM=YYYY-MM-DD`, or a month given twice.
    public init(parsing text: String) throws(ValidationError) {
        starts = [:]
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw ValidationError(
                    field: Preferences.Key.hijriStarts.rawValue,
                    message: "hijri-starts must be items like 1448-09=2027-02-09, got '\(item)'")
            }
            let month: Month
            let start: CivilDate
            do {
                month = try Month(parsing: parts[0].trimmingWhitespace())
                start = try CivilDate(parsing: parts[1].trimmingWhitespace())
            } catch {
                throw ValidationError(
                    field: Preferences.Key.hijriStarts.rawValue, message: "hijri-starts: \(error.message)")
            }
            guard starts[month] == nil else {
                throw ValidationError(
                    field: Preferences.Key.hijriStarts.rawValue, message: "hijri-starts gives \(month) twice")
            }
            starts[month] = start
        }
    }

    /// The announced first day of `month`, if it has one; setting `nil` removes it.
    public subscript(month: Month) -> CivilDate? {
        get { starts[month] }
        set { starts[month] = newValue }
    }

    /// Whether no month has an override.
    public var isEmpty: Bool { starts.isEmpty }

    /// The overrides, earliest month first.
    public var sorted: [(month: Month, start: CivilDate)] {
        starts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The preference value: `1448-09=2027-02-09,1448-10=2027-03-10`, earliest month first.
    public var description: String {
        sorted.map { "\($0.month)=\($0.start)" }.joined(separator: ",")
    }
}

// MARK: - Plausibility

extension HijriMonthStarts {
    /// How far an announced start may be from the tabular calendar's first day of the month, days:
    /// calendars and sightings differ by one or two, never by a week.
    public static let plausibleDistance = 5

    /// The first day of `month` in the arithmetical (tabular, civil epoch) Islamic calendar: the
    /// rough date any calendar or sighting puts it near.
    /// (``Month/next`` of the last month, 9666-04, lies past 9999-12-31: its start is given as that day.)
    public static func tabularStart(of month: Month) -> CivilDate {
        let day = tabularStartDay(year: month.year, month: month.month)
        return CivilDate(daysSince1970: min(max(day, CivilDate.first.daysSince1970), CivilDate.last.daysSince1970))
    }

    /// The days from 1970-01-01 of ``tabularStart(of:)``, for any Hijri year and month: a day number
    /// that may lie past the civil days PrayKit has.
    static func tabularStartDay(year: Int, month: Int) -> Int {
        // 1 Muharram 1 AH is Julian day 1948439.5, 492,148 days before 1970-01-01.
        (29 * (month - 1) + (month - 1 + 1) / 2) + (year - 1) * 354 + (3 + 11 * year) / 30 - 492_148
    }

    /// Checks that `start` can be the first day of `month` in some calendar: within
    /// ``plausibleDistance`` days of ``tabularStart(of:)``. What a sync server can check without the
    /// person's calendar; `praykit hijri set-start` checks against it more closely.
    /// - Throws: ``ValidationError`` (`start`) naming the month and the day.
    public static func checkPlausible(_ start: CivilDate, for month: Month) throws(ValidationError) {
        let distance = abs(start.daysSince1970 - tabularStartDay(year: month.year, month: month.month))
        guard distance <= plausibleDistance else {
            throw ValidationError(
                field: "start",
                message: "\(start) cannot be the first day of \(month.name) \(month.year): "
                    + "it is \(distance) days from where any calendar puts it")
        }
    }
}

// MARK: - The file

extension HijriMonthStarts {
    /// Reads an override file: one month a line, `YYYY-MM YYYY-MM-DD [source text]`, blank lines and
    /// lines starting with `#` ignored.
    /// - Throws: ``ValidationError`` naming the first bad line (`line 3: …`), or a month given twice.
    public static func entries(parsingFile text: String) throws(ValidationError) -> [Entry] {
        var entries: [Entry] = []
        var seen: [Month: Int] = [:]
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, rawLine) in lines.enumerated() {
            let number = index + 1
            let line = rawLine.trimmingWhitespaceAndNewlines()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(maxSplits: 2, whereSeparator: { $0 == " " || $0 == "\t" })
            func fail(_ message: String) -> ValidationError {
                ValidationError(field: "line \(number)", message: "line \(number): \(message)")
            }
            guard fields.count >= 2 else { throw fail("expected 'YYYY-MM YYYY-MM-DD [source]', got '\(line)'") }
            let month: Month
            let start: CivilDate
            do {
                month = try Month(parsing: String(fields[0]))
                start = try CivilDate(parsing: String(fields[1]))
            } catch {
                throw fail(error.message)
            }
            if let first = seen[month] { throw fail("\(month) is already given on line \(first)") }
            seen[month] = number
            let source = fields.count > 2 ? String(fields[2]).trimmingWhitespace() : ""
            entries.append(Entry(month: month, start: start, source: source))
        }
        return entries
    }

    /// The overrides as an override file, with a header saying what the file is.
    public var fileText: String {
        var lines = [
            "# PrayKit Hijri month starts: YYYY-MM (Hijri month) YYYY-MM-DD (its first day) [who announced it]",
            "# Import with: praykit hijri import-starts FILE",
        ]
        lines += sorted.map { "\($0.month) \($0.start)" }
        return lines.joined(separator: "\n") + "\n"
    }
}
