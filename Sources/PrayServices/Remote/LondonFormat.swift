import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The London Unified Prayer Timetable: `GET {base}/api/times/?format=json&key=…&year=YYYY&24hours=true`,
/// a year of London wall-clock times with the congregation (jamat) times.
enum LondonFormat {
    /// The zone the timetable's clock times are in.
    static let zone = TimeZone(identifier: "Europe/London")

    /// The URL of a year; it carries the key, so it is never logged unredacted.
    static func url(base: URL, year: Int, key: String?) -> URL? {
        var components = URLComponents(url: base.appendingPathComponent("api/times/"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "format", value: "json"), URLQueryItem(name: "key", value: key ?? ""),
            URLQueryItem(name: "year", value: String(year)), URLQueryItem(name: "24hours", value: "true"),
        ]
        return components?.url
    }

    private struct Response: Decodable {
        let times: [String: [String: String]]
    }

    /// The published fields and the prayers they give.
    private static let fields = [
        "fajr": "fajr", "sunrise": "sunrise", "dhuhr": "dhuhr", "asr": "asr", "asr_2": "asr2", "magrib": "maghrib",
        "isha": "isha",
    ]
    private static let congregationFields = [
        "fajr_jamat": "fajr", "dhuhr_jamat": "dhuhr", "asr_jamat": "asr", "magrib_jamat": "maghrib",
        "isha_jamat": "isha",
    ]

    /// The days of `year` in a response.
    /// - Throws: ``RemoteTimetableError`` for anything malformed, missing or out of place.
    static func days(from body: Data, year: Int) throws(RemoteTimetableError) -> [PublishedDay] {
        guard let zone else { throw RemoteTimetableError("the Europe/London time zone is missing") }
        let response: Response
        do {
            response = try JSONDecoder().decode(Response.self, from: body)
        } catch {
            throw RemoteTimetableError("the London timetable's response is not the JSON expected (\(error))")
        }
        var days: [PublishedDay] = []
        for (key, fieldsOfDay) in response.times {
            guard let date = try? CivilDate(parsing: key), date.year == year else {
                throw RemoteTimetableError("the London timetable has a day '\(key)' outside \(year)")
            }
            func instant(_ field: String) throws(RemoteTimetableError) -> Double? {
                guard let text = fieldsOfDay[field], !text.isEmpty else { return nil }
                let parts = text.split(separator: ":").compactMap { Int($0) }
                guard parts.count == 2, (0...23).contains(parts[0]), (0...59).contains(parts[1]) else {
                    throw RemoteTimetableError("the London timetable's \(field) for \(key) is not HH:MM: '\(text)'")
                }
                let local = Double(date.daysSince1970 * 86400 + parts[0] * 3600 + parts[1] * 60)
                return local - Double(zone.offset(at: Date(timeIntervalSince1970: local - 3600)))
            }
            var day = PublishedDay(day: date.daysSince1970, times: [:], congregation: [:])
            for (field, name) in fields { day.times[name] = try instant(field) }
            for (field, name) in congregationFields { day.congregation[name] = try instant(field) }
            try day.validate(in: zone, label: "the London timetable")
            days.append(day)
        }
        let expected = CivilDate.isLeap(year) ? 366 : 365
        guard days.count == expected else {
            throw RemoteTimetableError("the London timetable gives \(days.count) days for \(year), not \(expected)")
        }
        return days.sorted { $0.day < $1.day }
    }
}
