import Foundation
import PrayCore
import PrayMocks
import Synchronization
import Testing

/// The `async` views of the stores and look-ups: called from the main actor, each runs the synchronous
/// method on the service's work queue — a Dispatch queue, not the caller's actor — and answers what it
/// does.
@Suite(.tags(.concurrency)) struct AsyncViewTests {
    /// The methods that ran, each with whether it ran on ``WorkQueue/shared``.
    final class Places: Sendable {
        private let notes = Mutex<[String]>([])

        /// Notes `name`, and where it runs.
        func note(_ name: String) {
            let place = WorkQueue.shared.isCurrent ? "shared queue" : "elsewhere"
            notes.withLock { $0.append("\(name) on the \(place)") }
        }

        /// What was noted, in order.
        var all: [String] { notes.withLock { $0 } }
    }

    @MainActor @Test func theLookupsRunOnTheSharedQueueAndAnswerWhatTheServiceDoes() async throws {
        // Given: mocks that note where they run
        let ran = Places()
        let places = PlaceServiceMock()
        let makkah = try Place.mock()
        places.onSearch { query in
            ran.note("search")
            return PlaceAPI.SearchResult(
                query: query.text,
                matches: [PlaceAPI.Match(place: makkah, kind: .exact, matchedName: "makkah", score: 1)],
                isAmbiguous: false)
        }
        places.onNearest { _, limit in
            ran.note("nearest \(limit)")
            return [PlaceAPI.Nearby(place: makkah, distanceKilometers: 0.5)]
        }
        places.onPlace { id in
            ran.note("place")
            return id == makkah.geonameID ? makkah : nil
        }
        places.onCountry { code in
            ran.note("country")
            return PlaceAPI.Country(code: code, name: "Saudi Arabia")
        }
        places.onCountryCodes { _ in
            ran.note("countryCodes")
            return ["SA"]
        }
        let zones = TimeZoneServiceMock()
        zones.onTimeZone { _ in
            ran.note("timeZone")
            return TimeZoneLookup(identifier: "Asia/Riyadh", source: .boundaries)
        }
        let hijri = HijriServiceMock()
        hijri.onDays { _ in
            ran.note("days")
            return [.mock()]
        }
        hijri.onMonth { _, _, _, _ in
            ran.note("month")
            return [.mock()]
        }
        // When
        let found = try await places.async.search("Makkah")
        let near = try await places.async.nearest(to: .mockMakkah)
        let place = try await places.async.place(geonameID: makkah.geonameID)
        let country = try await places.async.country(code: "SA")
        let codes = try await places.async.countryCodes(inTimeZone: "Asia/Riyadh")
        let zone = try await zones.async.timeZone(latitude: 21.4225, longitude: 39.8262)
        let days = try await hijri.async.days(for: HijriAPI.Request(date: .mockDate))
        let month = try await hijri.async.month(.jumadaAlAkhirah, of: 1448, calendar: .ummAlQura, offset: 0)
        // Then: each ran on the shared queue, with the arguments given, and answered as the mock did
        #expect(
            ran.all
                == [
                    "search", "nearest 1", "place", "country", "countryCodes", "timeZone", "days", "month",
                ].map { "\($0) on the shared queue" })
        #expect(found.best == makkah)
        #expect(places.searchCalls == [PlaceAPI.Query("Makkah")])
        #expect(near?.place == makkah)
        #expect(place == makkah)
        #expect(country?.code == "SA")
        #expect(codes == ["SA"])
        #expect(zone.identifier == "Asia/Riyadh")
        #expect(zones.timeZoneCalls == [try Coordinates(latitude: 21.4225, longitude: 39.8262)])
        #expect(days == [.mock()])
        #expect(month == [.mock()])
    }

    @MainActor @Test func theStoresRunOnTheSharedQueueUnlessTheyHaveTheirOwn() async throws {
        // Given: store mocks that note where they run
        let ran = Places()
        let preferences = PreferencesStoreMock()
        preferences.onPreferences {
            ran.note("preferences")
            return Preferences()
        }
        preferences.onUpdate {
            ran.note("update")
            return Preferences()
        }
        let log = PrayerLogStoreMock()
        log.onStatistics { today in
            ran.note("statistics")
            return PrayerLogStatistics(entries: [], today: today)
        }
        let backup = BackupServiceMock()
        backup.onExportData {
            ran.note("exportData")
            return UserData(preferences: Preferences(), prayerLog: [])
        }
        // When
        _ = try await preferences.async.preferences()
        let updated = try await preferences.async.update { try $0.set("isna", for: .method) }
        _ = try await log.async.statistics(today: .mockDate)
        _ = try await backup.async.exportData()
        // Then
        #expect(
            ran.all == ["preferences", "update", "statistics", "exportData"].map { "\($0) on the shared queue" })
        #expect(updated[.method] == "north-america")
    }

    @MainActor @Test func theFakesKeepWhatTheAsyncViewsWrite() async throws {
        // Given
        let backup = BackupServiceFake()
        // When
        try await backup.preferences.async.update { try $0.set("mwl", for: .method) }
        let entry = try await backup.prayerLog.async.record(.prayed, for: .fajr, on: .mockDate)
        let exported = try await backup.async.exportData()
        // Then
        #expect(backup.prayerLog.allEntries == [entry])
        #expect(exported.preferences[.method] == "muslim-world-league")
        #expect(exported.prayerLog == [entry])
        try await backup.async.importData(UserData(preferences: Preferences(), prayerLog: []))
        #expect(try await backup.prayerLog.async.entries(from: .mockDate, through: .mockDate).isEmpty)
    }

    @Test func workRunsOnItsQueueAndItsErrorsReachTheCaller() async throws {
        // Given
        let queue = WorkQueue(label: "org.praykit.test")
        // When / Then
        #expect(!queue.isCurrent)
        #expect(try await queue.run { queue.isCurrent && !WorkQueue.shared.isCurrent })
        await #expect(throws: ValidationError(field: "test", message: "thrown on the queue")) {
            try await queue.run { throw ValidationError(field: "test", message: "thrown on the queue") }
        }
    }

    @MainActor @Test func aMockLeftUnsetBehindAnAsyncViewBlamesTheTestThatCalledIt() async {
        // Given: mocks with no answers, reached through their async views (the work runs on the queue)
        let log = PrayerLogStoreMock()
        let qada = QadaStoreMock()
        let sync = SyncServiceMock()
        // Then: each unset call is this test's issue — withKnownIssue catches it — and not one of a
        // test «unknown» that nothing can catch
        await withKnownIssue {
            _ = try await log.async.entries(from: .mockDate, through: .mockDate)
        }
        await withKnownIssue {
            _ = try await qada.async.entries()
        }
        await withKnownIssue {
            _ = try await sync.async.currentStatus()
        }
    }
}
