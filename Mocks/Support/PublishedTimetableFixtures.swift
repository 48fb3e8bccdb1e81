import Foundation
import PrayCore
import PrayServices

/// Responses of the published timetable APIs, built from PrayKit's own calculation, for tests that
/// serve them from ``TestHTTPServer``.
public enum PublishedTimetableFixtures {
    /// An AlAdhan `/v1/calendar/{year}/{month}` response for the place, zone and method.
    /// - Throws: What the calculation throws.
    public static func aladhanMonth(
        year: Int, month: Int, coordinates: Coordinates, timeZone: TimeZone,
        method: CalculationMethod = .muslimWorldLeague
    ) throws -> Data {
        let first = try CivilDate(year: year, month: month, day: 1)
        let request = PrayerAPI.Request(
            coordinates: coordinates, timeZone: timeZone, date: first, days: CivilDate.daysIn(month: month, year: year),
            parameters: CalculationParameters(method: method)
        )
        let schedules = try PrayerServiceAstronomical(log: .silent).schedules(for: request)
        let names: [(String, Prayer)] = [
            ("Fajr", .fajr), ("Sunrise", .sunrise), ("Dhuhr", .dhuhr), ("Asr", .asr), ("Sunset", .sunset),
            ("Maghrib", .maghrib), ("Isha", .isha), ("Imsak", .imsak), ("Midnight", .midnight),
        ]
        let days = schedules.map { schedule -> [String: Any] in
            var timings: [String: String] = [:]
            for (key, prayer) in names {
                if let time = schedule[prayer] { timings[key] = iso8601(time.date, in: timeZone) }
            }
            let date = schedule.date
            let dayText =
                "\(date.day < 10 ? "0" : "")\(date.day)-\(date.month < 10 ? "0" : "")\(date.month)-\(date.year)"
            return [
                "timings": timings, "date": ["gregorian": ["date": dayText]],
                "meta": ["timezone": timeZone.identifier, "method": ["id": 3]],
            ]
        }
        return try JSONSerialization.data(withJSONObject: ["code": 200, "status": "OK", "data": days])
    }

    /// A London Unified Prayer Timetable `/api/times/` response for a year, with congregation times
    /// 15 minutes after each prayer.
    /// - Throws: What the calculation throws.
    public static func londonYear(_ year: Int) throws -> Data {
        let zone = TimeZone(identifier: "Europe/London") ?? .gmt
        let request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 51.5074, longitude: -0.1278), timeZone: zone,
            date: try CivilDate(year: year, month: 1, day: 1), days: CivilDate.isLeap(year) ? 366 : 365,
            parameters: CalculationParameters(method: .moonsightingCommittee)
        )
        var hanafi = request
        hanafi.parameters.madhab = .hanafi
        let service = PrayerServiceAstronomical(log: .silent)
        let schedules = try service.schedules(for: request)
        let hanafiAsr = try service.schedules(for: hanafi).map { $0[.asr]?.date }
        var times: [String: [String: String]] = [:]
        for (index, schedule) in schedules.enumerated() {
            func clock(_ date: Date?, plus minutes: Double = 0) -> String {
                guard let date else { return "" }
                let local = date.timeIntervalSince1970 + minutes * 60 + Double(zone.secondsFromGMT(for: date))
                let seconds = Int(local) % 86400
                return String(format: "%02d:%02d", seconds / 3600, seconds / 60 % 60)
            }
            times[schedule.date.description] = [
                "date": schedule.date.description,
                "fajr": clock(schedule[.fajr]?.date), "fajr_jamat": clock(schedule[.fajr]?.date, plus: 15),
                "sunrise": clock(schedule[.sunrise]?.date),
                "dhuhr": clock(schedule[.dhuhr]?.date), "dhuhr_jamat": clock(schedule[.dhuhr]?.date, plus: 15),
                "asr": clock(schedule[.asr]?.date), "asr_2": clock(hanafiAsr[index]),
                "asr_jamat": clock(schedule[.asr]?.date, plus: 15),
                "magrib": clock(schedule[.maghrib]?.date), "magrib_jamat": clock(schedule[.maghrib]?.date, plus: 5),
                "isha": clock(schedule[.isha]?.date), "isha_jamat": clock(schedule[.isha]?.date, plus: 15),
            ]
        }
        return try JSONSerialization.data(withJSONObject: ["city": "london", "times": times])
    }

    /// `2026-11-29T05:21:00+03:00`.
    public static func iso8601(_ date: Date, in zone: TimeZone) -> String {
        let offset = zone.secondsFromGMT(for: date)
        let local = Int(date.timeIntervalSince1970.rounded()) + offset
        let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
        let seconds = local - days * 86400
        let sign = offset < 0 ? "-" : "+"
        let clock = String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
        let zoneText = String(format: "%02d:%02d", abs(offset) / 3600, abs(offset) / 60 % 60)
        return "\(CivilDate(daysSince1970: days))T\(clock)\(sign)\(zoneText)"
    }
}
