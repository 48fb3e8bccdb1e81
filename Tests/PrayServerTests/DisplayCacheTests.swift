import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayServer

/// The screen's model from the cache (issue 40): a screen asks every minute, and the model is made
/// again only when its day or something it is made of changed — never answered stale.
@Suite struct DisplayCacheTests {
    @Test func aScreenAskingEveryMinuteForADayMakesTheModelOnceADayAndOnceAChange() throws {
        // Given London's screen, and a screen's way of asking: every minute, with the tag it holds
        let clock = PrayClockFake(now: DisplayRoutesTests.now)
        let preferences = PreferencesStoreFake(Preferences())
        let routes = try DisplayRoutesTests().routes(
            preferences: preferences, store: MosqueTimetableStoreFake([]), clock: clock)
        var tag: String?
        var statuses: [Int: Int] = [:]
        var bodies = Set<Data>()
        func ask() {
            let response = routes.respond(
                to: ServerAPI.Request(target: "/display.json", headers: tag.map { ["If-None-Match": $0] } ?? [:]))
            statuses[response.status, default: 0] += 1
            if response.status == 200 {
                tag = response.headers["ETag"]
                bodies.insert(response.body)
            }
        }
        // When it asks 1,440 times over a day from 11:00, the iqama changed once at 18:00
        for minute in 0..<1_440 {
            if minute == 7 * 60 { try preferences.update { try $0.set("asr=+10", for: .iqama) } }
            ask()
            clock.advance(by: 60)
        }
        // Then the model was made three times: at first, after the change, and after midnight (a new
        // first day), and every other request was a hit, almost all of them a 304.
        let counts = routes.cacheCounts
        #expect(counts.misses == 3, "\(counts)")
        #expect(counts.hits == 1_437)
        #expect(statuses[200] == 3 && statuses[304] == 1_437, "\(statuses)")
        #expect(bodies.count == 3)
        // and a model from the cache is the one made afresh: a second screen's routes on the same
        // stores, asked now, give the same bytes.
        let fresh = try DisplayRoutesTests().routes(
            preferences: preferences, store: MosqueTimetableStoreFake([]), clock: clock)
        let cached = routes.respond(to: ServerAPI.Request(target: "/display.json"))
        #expect(cached.body == fresh.respond(to: ServerAPI.Request(target: "/display.json")).body)
    }

    @Test func aChangeOfTheMosquesTimetableIsNeverAnsweredFromTheCache() throws {
        // Given a screen that chose a mosque whose timetable gives today's fajr
        let clock = PrayClockFake(now: DisplayRoutesTests.now)
        let day = try CivilDate(parsing: "2027-10-29")
        func timetable(fajr: Int) throws -> MosqueTimetable {
            MosqueTimetable(
                name: "East London Mosque", coordinates: try Coordinates(latitude: 51.5176, longitude: -0.0654),
                timeZone: "Europe/London", days: [MosqueDay(date: day, adhan: [.fajr: fajr], iqama: [:], jumuah: [])])
        }
        let store = MosqueTimetableStoreFake([try timetable(fajr: 330)])
        var saved = Preferences()
        try saved.set("East London Mosque", for: .mosque)
        let routes = try DisplayRoutesTests().routes(
            preferences: PreferencesStoreFake(saved), store: store, clock: clock)
        let before = routes.respond(to: ServerAPI.Request(target: "/display.json"))
        // When the same day's fajr is imported again with another time (the days' count unchanged)
        store.replace(try timetable(fajr: 335))
        let after = routes.respond(to: ServerAPI.Request(target: "/display.json"))
        // Then the model was made again and says so
        #expect(routes.cacheCounts.misses == 2)
        #expect(before.headers["ETag"] != after.headers["ETag"])
        #expect(String(decoding: after.body, as: UTF8.self).contains("T05:35:00+01:00"))
    }

    @Test func aModelIsMadeOfWhatWasReadForItsKeyAndNothingReadLater() throws {
        // Given a screen that chose a mosque whose timetable gives the day's fajr at 05:30, and what its
        // model is made of, read
        let day = try CivilDate(parsing: "2027-10-29")
        func timetable(fajr: Int) throws -> MosqueTimetable {
            MosqueTimetable(
                name: "East London Mosque", coordinates: try Coordinates(latitude: 51.5176, longitude: -0.0654),
                timeZone: "Europe/London", days: [MosqueDay(date: day, adhan: [.fajr: fajr], iqama: [:], jumuah: [])])
        }
        let store = MosqueTimetableStoreFake([try timetable(fajr: 330)])
        var saved = Preferences()
        try saved.set("East London Mosque", for: .mosque)
        let prayers = PrayerServiceAstronomical(log: .silent)
        let source = DisplayModelSource(
            screen: try DisplayRoutesTests.screen(), calculator: prayers,
            hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent), mosques: store,
            preferences: PreferencesStoreFake(saved), clock: PrayClockFake(now: DisplayRoutesTests.now), log: .silent)
        let inputs = try source.inputs(from: day)
        // When sync changes the timetable before the model is made (another thread's write)
        store.replace(try timetable(fajr: 335))
        // Then the model is the one its key names, 05:30, and the next read makes another key and model
        let body = String(decoding: try source.body(inputs), as: UTF8.self)
        #expect(body.contains("T05:30:00+01:00") && !body.contains("T05:35:00+01:00"))
        let again = try source.inputs(from: day)
        #expect(again.key != inputs.key)
        #expect(String(decoding: try source.body(again), as: UTF8.self).contains("T05:35:00+01:00"))
    }
}
