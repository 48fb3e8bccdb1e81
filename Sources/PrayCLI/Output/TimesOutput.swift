import Foundation
import PrayCore

/// Renders a prayer-times response as a table, JSON (the contract of DESIGN §6) or CSV.
struct TimesOutput {
    let request: PrayerAPI.Request
    let response: PrayerAPI.Response
    let zoneSource: CommandValues.ZoneSource
    /// The Hijri date of each day, in the order of the schedules (empty when unknown).
    let hijri: [HijriDay]
    /// Whether tables show `5:20 am` rather than `05:20`.
    var clock12Hour = false

    private var clock: LocalClock { LocalClock(timeZone: request.timeZone) }
    private var parameters: CalculationParameters { request.parameters }
    private var withSeconds: Bool { parameters.rounding == .none }

    /// When a published timetable's days were fetched.
    private var fetchedAt: Date? {
        switch response.source {
        case .calculated: nil
        case .remote(_, let fetchedAt), .cache(_, let fetchedAt): fetchedAt
        }
    }

    /// The JSON field order of a day: the contract's order.
    static let jsonPrayers: [Prayer] = [
        .fajr, .sunrise, .dhuhr, .asr, .sunset, .maghrib, .isha, .imsak, .midnight, .firstThird, .lastThird,
    ]

    /// The table's columns, in the order the times happen.
    static let tablePrayers: [Prayer] = [
        .imsak, .fajr, .sunrise, .dhuhr, .asr, .sunset, .maghrib, .isha, .firstThird, .midnight, .lastThird,
    ]

    // MARK: - JSON

    func json() -> String {
        let document = JSON.object([
            ("location", location),
            ("parameters", Self.parameters(parameters)),
            ("source", .string(response.source.description)),
            ("sourceFetchedAt", .string(fetchedAt.map(PrayerLogEntry.timestamp))),
            ("days", .array(response.schedules.map(day))),
        ])
        return document.rendered() + "\n"
    }

    private var location: JSON {
        .object([
            ("latitude", .number(request.coordinates.latitude)),
            ("longitude", .number(request.coordinates.longitude)),
            ("elevation", .number(request.coordinates.elevation)),
            ("timeZone", .string(request.timeZone.identifier)),
            ("timeZoneSource", .string(zoneSource.rawValue)),
        ])
    }

    /// The parameters block, shared with `praykit methods --format json`.
    static func parameters(_ parameters: CalculationParameters) -> JSON {
        func adjustments(_ table: PrayerAdjustments) -> JSON {
            .object(Prayer.allCases.compactMap { prayer in table.minutes[prayer].map { (prayer.rawValue, .int($0)) } })
        }
        var imsak: [(String, JSON)] = []
        switch parameters.imsak {
        case .minutesBeforeFajr(let minutes): imsak = [("minutesBeforeFajr", .int(minutes))]
        case .angle(let angle): imsak = [("angle", .number(angle))]
        }
        return .object([
            ("method", .string(parameters.method.rawValue)),
            ("fajrAngle", .number(parameters.fajrAngle)),
            ("ishaAngle", parameters.ishaInterval == nil ? .number(parameters.ishaAngle) : .null),
            ("ishaInterval", parameters.ishaInterval.map { .int($0) } ?? .null),
            ("maghribAngle", .number(parameters.maghribAngle)),
            ("maghribInterval", parameters.maghribInterval.map { .int($0) } ?? .null),
            ("madhab", .string(parameters.madhab?.rawValue)),
            ("asrShadowFactor", .number(parameters.asrShadowFactor)),
            ("highLatitudeRule", .string(parameters.highLatitudeRule.rawValue)),
            ("polarResolution", .string(parameters.polarResolution.rawValue)),
            ("shafaq", .string(parameters.seasonalTwilight?.rawValue)),
            ("rounding", .string(parameters.rounding.rawValue)),
            ("night", .string(parameters.night.rawValue)),
            ("imsak", .object(imsak)),
            ("methodAdjustments", adjustments(parameters.methodAdjustments)),
            ("adjustments", adjustments(parameters.adjustments)),
        ])
    }

    private func hijriDate(of schedule: PrayerSchedule) -> String? {
        hijri.first { $0.gregorian == schedule.date }?.hijri.description
    }

    private func day(_ schedule: PrayerSchedule) -> JSON {
        var members: [(String, JSON)] = [("date", .string(schedule.date.description))]
        members.append(("hijri", .string(hijriDate(of: schedule))))
        for prayer in Self.jsonPrayers {
            members.append((prayer.rawValue, .string(schedule[prayer].map { clock.iso8601($0.date) })))
        }
        let unavailable = Self.jsonPrayers.compactMap { prayer in
            schedule.unavailability(of: prayer).map { (prayer.rawValue, JSON.string($0.description)) }
        }
        if !unavailable.isEmpty { members.append(("unavailable", .object(unavailable))) }
        let rules = Self.jsonPrayers.compactMap { prayer in
            Self.note(schedule[prayer]).map { (prayer.rawValue, JSON.string($0)) }
        }
        if !rules.isEmpty { members.append(("rules", .object(rules))) }
        if let basis = schedule.polarBasis { members.append(("polarBasis", .string(basis.description))) }
        let congregation = Self.jsonPrayers.compactMap { prayer in
            schedule.congregationTimes[prayer].map { (prayer.rawValue, JSON.string(clock.iso8601($0))) }
        }
        if !congregation.isEmpty { members.append(("congregation", .object(congregation))) }
        return .object(members)
    }

    /// Why a time is not what its angle alone gives: a rule, a season, a polar resolution.
    static func note(_ time: PrayerTime?) -> String? {
        guard let time else { return nil }
        var notes: [String] = []
        switch time.derivation {
        case .highLatitudeRule, .seasonal: notes.append(time.derivation.description)
        default: break
        }
        if time.isPolarResolved { notes.append("polar resolution") }
        return notes.isEmpty ? nil : notes.joined(separator: ", ")
    }

    // MARK: - CSV

    func csv() -> String {
        var lines = [(["date"] + Self.jsonPrayers.map(\.rawValue)).joined(separator: ",")]
        for schedule in response.schedules {
            let times = Self.jsonPrayers.map { schedule[$0].map { clock.iso8601($0.date) } ?? "" }
            lines.append(([schedule.date.description] + times).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Table

    func table() -> String {
        var lines = header()
        lines.append("")
        let width = withSeconds ? 8 : 5
        let headings = ["Date", "Hijri"] + Self.tablePrayers.map(\.name)
        var rows = [headings]
        var usedMarks = Set<String>()
        for schedule in response.schedules {
            var row = [schedule.date.description, hijriDate(of: schedule) ?? "--"]
            for prayer in Self.tablePrayers {
                guard let time = schedule[prayer] else {
                    row.append("--")
                    usedMarks.insert("--")
                    continue
                }
                let mark = Self.mark(time)
                if !mark.isEmpty { usedMarks.insert(mark) }
                row.append(clock.time(time.date, withSeconds: withSeconds, twelveHour: clock12Hour) + mark)
            }
            rows.append(row)
        }
        let widths = headings.indices.map { column in
            max(column < 2 ? 10 : width + 1, rows.map { $0[column].count }.max() ?? 0)
        }
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                cell + String(repeating: " ", count: widths[column] - cell.count)
            }
            lines.append(cells.joined(separator: "  ").trimmingTrailingSpaces)
        }
        if response.schedules.contains(where: { !$0.congregationTimes.isEmpty }) {
            lines.append("")
            lines.append("Congregation (jamat):")
            let prayers = Prayer.obligatory
            var rows = [["Date"] + prayers.map(\.name)]
            for schedule in response.schedules {
                rows.append(
                    [schedule.date.description]
                        + prayers.map { prayer in
                            schedule.congregationTimes[prayer].map {
                                clock.time($0, withSeconds: false, twelveHour: clock12Hour)
                            } ?? "--"
                        })
            }
            lines.append(Table.render(rows).trimmingCharacters(in: .newlines))
        }
        let legend = [
            ("*", "high-latitude rule or Moonsighting Committee season"),
            ("~", "taken from the nearest latitude or day"),
            ("--", "unavailable this day (--format json says why)"),
        ].filter { usedMarks.contains($0.0) }
        if !legend.isEmpty {
            lines.append("")
            lines += legend.map { "\($0.0) \($0.1)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func header() -> [String] {
        let place = request.coordinates
        let offset = LocalClock.offset(
            request.timeZone.secondsFromGMT(
                for: response.schedules.first?[.dhuhr]?.date ?? Date(timeIntervalSince1970: 0)))
        var method = "\(parameters.method.displayName) (\(parameters.method.rawValue))"
        if parameters.method == .custom { method = "custom" }
        var settings: [String] = []
        if let angle = parameters.fajrAngle { settings.append("fajr \(angle.formattedCompactly)°") }
        if let minutes = parameters.ishaInterval {
            settings.append("isha \(minutes) min after maghrib")
        } else if let angle = parameters.ishaAngle {
            settings.append("isha \(angle.formattedCompactly)°")
        }
        if let angle = parameters.maghribAngle { settings.append("maghrib \(angle.formattedCompactly)°") }
        if let minutes = parameters.maghribInterval { settings.append("maghrib \(minutes) min after sunset") }
        settings.append(
            "Asr \(parameters.madhab?.rawValue ?? "factor \(parameters.asrShadowFactor.formattedCompactly)")")
        let adjustments = parameters.totalAdjustments
        if !adjustments.isEmpty { settings.append("adjustments \(adjustments)") }
        let rule = parameters.highLatitudeRule.resolved(latitude: place.latitude)
        var ruleText = parameters.highLatitudeRule == .recommended ? "recommended (\(rule))" : rule.rawValue
        if parameters.seasonalTwilight != nil { ruleText = "Moonsighting Committee seasons" }
        return [
            "Place: \(place.latitude.formattedCompactly), \(place.longitude.formattedCompactly), elevation \(place.elevation.formattedCompactly) m",
            "Time zone: \(request.timeZone.identifier) (UTC\(offset), from \(zoneSource.rawValue))",
            "Method: \(method); \(settings.joined(separator: ", "))",
            "High-latitude rule: \(ruleText); polar resolution: \(parameters.polarResolution)",
            "Source: \(response.source)"
                + (fetchedAt.map { ", fetched \(LocalClock(timeZone: request.timeZone).iso8601($0))" } ?? ""),
        ]
    }

    private static func mark(_ time: PrayerTime) -> String {
        if time.isPolarResolved { return "~" }
        switch time.derivation {
        case .highLatitudeRule, .seasonal: return "*"
        default: return ""
        }
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}
