import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The AlAdhan API's calendar endpoint: `GET {base}/v1/calendar/{year}/{month}` with the place and
/// the method's parameters, one month per response.
enum AlAdhanFormat {
    /// The URL of a month, without secrets (AlAdhan needs no key).
    static func url(base: URL, year: Int, month: Int, request: PrayerAPI.Request) -> URL? {
        let parameters = request.parameters
        let latitudeMethod: Int =
            switch parameters.highLatitudeRule.resolved(latitude: request.coordinates.latitude) {
            case .middleOfTheNight: 1
            case .seventhOfTheNight: 2
            case .twilightAngle, .recommended: 3
            case .none: 0
            }
        // Imsak, Fajr, Sunrise, Dhuhr, Asr, Maghrib, Sunset, Isha, Midnight: the user's own minutes
        // (AlAdhan applies each method's minutes itself).
        let tune = [Prayer.imsak, .fajr, .sunrise, .dhuhr, .asr, .maghrib, .sunset, .isha, .midnight]
            .map { String(parameters.adjustments[$0]) }.joined(separator: ",")
        var items = [
            URLQueryItem(name: "latitude", value: request.coordinates.latitude.formattedCompactly),
            URLQueryItem(name: "longitude", value: request.coordinates.longitude.formattedCompactly),
            URLQueryItem(name: "method", value: String(parameters.method.alAdhanID ?? 99)),
            URLQueryItem(name: "school", value: parameters.madhab == .hanafi ? "1" : "0"),
            URLQueryItem(name: "latitudeAdjustmentMethod", value: String(latitudeMethod)),
            URLQueryItem(name: "tune", value: tune),
            URLQueryItem(name: "timezonestring", value: request.timeZone.identifier),
            URLQueryItem(name: "iso8601", value: "true"),
        ]
        if parameters.method.alAdhanID == nil {
            let isha =
                parameters.ishaInterval.map { "\($0) min" } ?? parameters.ishaAngle.map(\.formattedCompactly) ?? "null"
            let maghrib =
                parameters.maghribAngle.map(\.formattedCompactly) ?? parameters.maghribInterval.map { "\($0) min" }
                ?? "null"
            let fajr = parameters.fajrAngle.map(\.formattedCompactly) ?? "null"
            items.append(URLQueryItem(name: "methodSettings", value: "\(fajr),\(maghrib),\(isha)"))
        }
        if let shafaq = parameters.seasonalTwilight {
            items.append(URLQueryItem(name: "shafaq", value: shafaq.rawValue))
        }
        var components = URLComponents(
            url: base.appendingPathComponent("v1/calendar/\(year)/\(month)"), resolvingAgainstBaseURL: false)
        components?.queryItems = items
        return components?.url
    }

    /// The response of one month.
    private struct Response: Decodable {
        struct Day: Decodable {
            struct Dates: Decodable {
                struct Gregorian: Decodable {
                    let date: String
                }
                let gregorian: Gregorian
            }
            let timings: [String: String]
            let date: Dates
        }
        let code: Int
        let data: [Day]
    }

    /// The days of `month` of `year` in a response.
    /// - Throws: ``RemoteTimetableError`` for anything malformed, missing or out of place.
    static func days(from body: Data, year: Int, month: Int, zone: TimeZone) throws(RemoteTimetableError)
        -> [PublishedDay]
    {
        let response: Response
        do {
            response = try JSONDecoder().decode(Response.self, from: body)
        } catch {
            throw RemoteTimetableError("AlAdhan's response is not the calendar JSON expected (\(error))")
        }
        guard response.code == 200 else { throw RemoteTimetableError("AlAdhan answered code \(response.code)") }
        let names = [
            "Imsak": "imsak", "Fajr": "fajr", "Sunrise": "sunrise", "Dhuhr": "dhuhr", "Asr": "asr", "Sunset": "sunset",
            "Maghrib": "maghrib", "Isha": "isha", "Midnight": "midnight", "Firstthird": "firstThird",
            "Lastthird": "lastThird",
        ]
        var days: [PublishedDay] = []
        for entry in response.data {
            let parts = entry.date.gregorian.date.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3, let date = try? CivilDate(year: parts[2], month: parts[1], day: parts[0]),
                date.year == year, date.month == month
            else {
                throw RemoteTimetableError(
                    "AlAdhan's response has a day '\(entry.date.gregorian.date)' outside \(year)-\(month)")
            }
            var times: [String: Double] = [:]
            for (key, name) in names {
                guard let text = entry.timings[key] else { continue }
                guard let instant = ISO8601Parser.date(text) else {
                    throw RemoteTimetableError("AlAdhan's \(key) time for \(date) is not an ISO 8601 time: '\(text)'")
                }
                times[name] = instant.timeIntervalSince1970
            }
            let day = PublishedDay(day: date.daysSince1970, times: times, congregation: [:])
            try day.validate(in: zone, label: "AlAdhan")
            days.append(day)
        }
        let expected = CivilDate.daysIn(month: month, year: year)
        guard Set(days.map(\.day)).count == expected, days.count == expected else {
            throw RemoteTimetableError(
                "AlAdhan's response has \(days.count) days for \(year)-\(month), not \(expected)")
        }
        return days
    }
}
