import Foundation
import PrayCore
import PrayServices
import Testing

/// A schedule the engine built equals the one made again from its public parts, as a mosque's
/// timetable does when it replaces some times (`PrayerServiceMosque`): the engine's own initializer
/// keeps the nights and the rare parts exactly as the public one does.
@Suite struct ScheduleRebuildTests {
    @Test(arguments: ["1000-01-05", "1900-03-01", "1970-06-21", "2026-12-07", "2100-09-23", "3000-01-05"])
    func aScheduleMadeAgainFromItsPartsIsEqual(_ text: String) throws {
        let service = PrayerServiceAstronomical(log: .silent)
        // Given: days at London, in the polar day at Tromsø (times borrowed and missing), and with the
        // extra times asked for
        let date = try CivilDate(parsing: text)
        var requests = [
            PrayerAPI.Request(
                coordinates: try Coordinates(latitude: 51.5074, longitude: -0.1278),
                zone: try TimeZoneName(parsing: "Europe/London"), date: date, days: 3,
                parameters: CalculationParameters(method: .muslimWorldLeague)),
            PrayerAPI.Request(
                coordinates: try Coordinates(latitude: 69.6492, longitude: 18.9553),
                zone: try TimeZoneName(parsing: "Europe/Oslo"), date: date.adding(days: 170), days: 3,
                parameters: CalculationParameters(method: .muslimWorldLeague)),
        ]
        var extra = requests[0]
        extra.extraTimes = ExtraTimeSettings()
        requests.append(extra)
        for request in requests {
            // When: each schedule is made again from what it shows
            for schedule in try service.schedules(for: request) {
                let unavailable = Dictionary(
                    uniqueKeysWithValues: Prayer.allCases.compactMap { prayer in
                        schedule.unavailability(of: prayer).map { (prayer, $0) }
                    })
                let rebuilt = PrayerSchedule(
                    date: schedule.date, zone: schedule.zone, coordinates: schedule.coordinates,
                    times: schedule.times, unavailable: unavailable, sunsetToSunrise: schedule.sunsetToSunrise,
                    sunsetToFajr: schedule.sunsetToFajr, maghribToFajr: schedule.maghribToFajr,
                    polarBasis: schedule.polarBasis, extraTimes: schedule.extraTimes)
                // Then: the same value, the same hash
                #expect(rebuilt == schedule, "\(schedule.date) at \(schedule.coordinates)")
                #expect(rebuilt.hashValue == schedule.hashValue, "\(schedule.date) at \(schedule.coordinates)")
            }
        }
    }
}
