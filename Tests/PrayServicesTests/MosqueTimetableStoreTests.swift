import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// The SQLite store of mosque timetables: the round trip, two mosques by name, replace and remove.
@Suite struct MosqueTimetableStoreTests {
    private static let london = Coordinates.mockLondon

    private func timetable(_ name: String, _ csv: String) throws -> MosqueTimetable {
        MosqueTimetable(
            name: name, coordinates: Self.london, timeZone: "Europe/London",
            days: try MosqueTimetableCSV.days(from: Data(csv.utf8)))
    }

    @Test func aTimetableRoundTripsAndTwoMosquesAreKeptByName() throws {
        // Given
        let test = try TestDatabase()
        let store = MosqueTimetableStoreSQLite(database: test.database, log: .silent)
        let east = try timetable(
            "East London Mosque",
            "date,fajr,sunrise,dhuhr,asr,maghrib,isha,fajr_iqama,dhuhr_iqama,jumuah\n"
                + "2026-12-01,05:50,07:45,12:05,13:50,16:00,18:15,06:30,12:30,\n"
                + "2026-12-04,05:52,07:47,12:06,13:50,16:01,18:16,,,12:15 13:30\n")
        let west = try timetable("مسجد", "date,isha\n2027-01-01,18:00\n")
        // When
        try store.replace(east)
        try store.replace(west)
        // Then
        let all = try #require(
            try store.timetable(
                named: "East London Mosque", from: CivilDate(parsing: "2026-01-01"),
                through: CivilDate(parsing: "2027-12-31")))
        #expect(all == east)
        let one = try store.timetable(
            named: "East London Mosque", from: CivilDate(parsing: "2026-12-02"),
            through: CivilDate(parsing: "2026-12-04"))
        #expect(one?.days.map(\.date.description) == ["2026-12-04"])
        #expect(try store.mosques().map(\.name) == ["East London Mosque", "مسجد"])
        let summary = try #require(try store.mosques().first)
        #expect(summary.first.description == "2026-12-01" && summary.last.description == "2026-12-04")
        #expect(summary.days == 2 && summary.coordinates == Self.london && summary.timeZone == "Europe/London")
        #expect(try store.timetable(named: "Nowhere", from: summary.first, through: summary.last) == nil)
    }

    @Test func importingAMosqueAgainReplacesAllItsDays() throws {
        let test = try TestDatabase()
        let store = MosqueTimetableStoreSQLite(database: test.database, log: .silent)
        try store.replace(try timetable("East", "date,fajr\n2026-12-01,05:50\n2026-12-02,05:51\n"))
        try store.replace(try timetable("West", "date,fajr\n2026-12-01,06:00\n"))
        // When
        try store.replace(try timetable("East", "date,fajr\n2026-12-03,05:52\n"))
        // Then: only the new days of East; West untouched
        let kept = try store.mosques()
        #expect(kept.map(\.name) == ["East", "West"])
        #expect(kept[0].days == 1 && kept[0].first.description == "2026-12-03")
        #expect(kept[1].days == 1)
    }

    @Test func removeForgetsOneMosqueAndItsDays() throws {
        let test = try TestDatabase()
        let store = MosqueTimetableStoreSQLite(database: test.database, log: .silent)
        try store.replace(try timetable("East", "date,fajr\n2026-12-01,05:50\n"))
        try store.replace(try timetable("West", "date,fajr\n2026-12-01,06:00\n"))
        #expect(try store.remove(named: "East"))
        #expect(try !store.remove(named: "East"))
        #expect(try store.mosques().map(\.name) == ["West"])
        let orphans = try test.database.read { try $0.integer("SELECT count(*) FROM mosque_day WHERE mosque = 'East'") }
        #expect(orphans == 0)
    }

    @Test func readingBeforeTheDatabaseExistsCreatesNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-mosque-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = SQLiteDatabase(path: folder.appendingPathComponent("praykit.sqlite").path, log: .silent)
        let store = MosqueTimetableStoreSQLite(database: database, log: .silent)
        #expect(try store.mosques().isEmpty)
        #expect(try !store.remove(named: "East"))
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
}
