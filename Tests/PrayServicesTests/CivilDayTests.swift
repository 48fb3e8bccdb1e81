import Foundation
import PrayCore
import PrayServices
import Testing

/// A civil day's times belong to that day in its zone — across DST changes, at offsets such as
/// +13:45 and −11, and beside the date line.
@Suite struct CivilDayTests {
    struct Place: CustomTestStringConvertible, Sendable {
        let zone: String
        let latitude: Double
        let longitude: Double
        let days: [String]
        var testDescription: String { zone }
    }

    static let places: [Place] = [
        Place(zone: "Europe/London", latitude: 51.5074, longitude: -0.1278, days: ["2026-03-29", "2026-10-25"]),
        Place(zone: "America/New_York", latitude: 40.7128, longitude: -74.0060, days: ["2026-03-08", "2026-11-01"]),
        Place(zone: "Australia/Sydney", latitude: -33.8688, longitude: 151.2093, days: ["2026-04-05", "2026-10-04"]),
        Place(zone: "Asia/Tehran", latitude: 35.6892, longitude: 51.3890, days: ["2021-03-22", "2021-09-22"]),
        Place(zone: "Pacific/Chatham", latitude: -43.9535, longitude: -176.5597, days: ["2026-04-05", "2026-09-27"]),
        Place(zone: "Pacific/Kiritimati", latitude: 1.8721, longitude: -157.4278, days: ["2026-01-01", "2026-06-21"]),
        Place(zone: "Pacific/Pago_Pago", latitude: -14.2756, longitude: -170.7020, days: ["2026-01-01", "2026-06-21"]),
        Place(zone: "Pacific/Fiji", latitude: -16.8, longitude: 179.9, days: ["2026-01-01", "2026-07-01"]),
        Place(zone: "Pacific/Tongatapu", latitude: -21.1394, longitude: -175.2049, days: ["2026-03-01"]),
    ]

    @Test(arguments: places)
    func timesFallOnTheirCivilDay(_ place: Place) throws {
        let zone = try #require(TimeZone(identifier: place.zone))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let service = PrayerServiceAstronomical(log: .silent)
        for text in place.days {
            // Given the change day and the days either side
            let day = try CivilDate(parsing: text)
            let request = PrayerAPI.Request(
                coordinates: try Coordinates(latitude: place.latitude, longitude: place.longitude), timeZone: zone,
                date: day.adding(days: -1), days: 3, parameters: CalculationParameters(method: .muslimWorldLeague)
            )
            // When
            let schedules = try service.schedules(for: request)
            // Then every daytime event is on its own civil day
            for schedule in schedules {
                for prayer in [Prayer.fajr, .sunrise, .dhuhr, .asr, .sunset, .maghrib, .isha] {
                    let time = try #require(schedule[prayer], "\(place.zone) \(schedule.date) \(prayer)")
                    let local = calendar.dateComponents([.year, .month, .day], from: time.date)
                    #expect(
                        local.year == schedule.date.year && local.month == schedule.date.month
                            && local.day == schedule.date.day,
                        "\(place.zone) \(schedule.date) \(prayer) falls on \(local)"
                    )
                }
            }
            // and consecutive solar noons are a day apart, whatever the clocks did.
            let noons = schedules.compactMap { $0[.dhuhr]?.date.timeIntervalSince1970 }
            for (earlier, later) in zip(noons, noons.dropFirst()) {
                #expect(abs(later - earlier - 86400) <= 90, "\(place.zone) \(text): noons \(later - earlier) s apart")
            }
        }
    }

    @Test func solarEventsDoNotDependOnTheZoneRepresentation() throws {
        // Given London on its spring-forward day, by name and as a fixed UTC+1 offset
        let service = PrayerServiceAstronomical(log: .silent)
        var parameters = CalculationParameters(method: .muslimWorldLeague)
        parameters.rounding = .none
        let place = try Coordinates(latitude: 51.5074, longitude: -0.1278)
        let day = try CivilDate(parsing: "2026-03-29")
        let named = PrayerAPI.Request(
            coordinates: place, timeZone: TimeZone(identifier: "Europe/London")!, date: day, parameters: parameters
        )
        let fixed = PrayerAPI.Request(
            coordinates: place, timeZone: TimeZone(secondsFromGMT: 3600)!, date: day, parameters: parameters
        )
        // When
        let byName = try #require(try service.schedules(for: named).first)
        let byOffset = try #require(try service.schedules(for: fixed).first)
        // Then the instants agree to the millisecond
        for prayer in Prayer.allCases {
            let first = try #require(byName[prayer]?.date.timeIntervalSince1970)
            let second = try #require(byOffset[prayer]?.date.timeIntervalSince1970)
            #expect(abs(first - second) < 0.001, "\(prayer)")
        }
    }

    @Test func aDayTheZoneSkippedHasNoTimesAndItsNeighboursAreWhole() throws {
        // Given Apia, which skipped 2011-12-30 when it moved across the date line
        let service = PrayerServiceAstronomical(log: .silent)
        let request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: -13.83, longitude: -171.76),
            timeZone: TimeZone(identifier: "Pacific/Apia")!, date: try CivilDate(parsing: "2011-12-29"), days: 3,
            parameters: CalculationParameters(method: .muslimWorldLeague)
        )
        // When
        let schedules = try service.schedules(for: request)
        // Then
        #expect(schedules.map(\.date.description) == ["2011-12-29", "2011-12-30", "2011-12-31"])
        #expect(schedules[1].times.isEmpty)
        #expect(schedules[1].unavailability(of: .dhuhr) == .dayNotInZone)
        #expect(schedules[0][.midnight] != nil && schedules[2][.midnight] != nil)
        let noons = [schedules[0], schedules[2]].compactMap { $0[.dhuhr]?.date.timeIntervalSince1970 }
        #expect(abs(noons[1] - noons[0] - 86400) < 90)
    }
}
