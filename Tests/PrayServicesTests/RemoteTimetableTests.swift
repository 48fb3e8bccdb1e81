import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Synchronization
import Testing

/// `PrayerServiceRemote` against a real HTTP server serving AlAdhan and London responses.
@Suite(.tags(.concurrency)) struct RemoteTimetableTests {
    let riyadh = TimeZone(identifier: "Asia/Riyadh")!
    let makkah = Coordinates.mockMakkah

    func request(_ date: String, days: Int = 3, method: CalculationMethod = .muslimWorldLeague) throws
        -> PrayerAPI.Request
    {
        PrayerAPI.Request(
            coordinates: makkah, timeZone: riyadh, date: try CivilDate(parsing: date), days: days,
            parameters: CalculationParameters(method: method)
        )
    }

    /// A server answering AlAdhan's calendar with PrayKit's own calculation, or with `override`.
    func aladhanServer(override: (@Sendable (TestHTTPServer.Request) -> TestHTTPServer.Reply?)? = nil) throws
        -> TestHTTPServer
    {
        let zone = riyadh
        let place = makkah
        return try TestHTTPServer { request in
            if let reply = override?(request) { return reply }
            let parts = request.path.split(separator: "?")[0].split(separator: "/")
            guard parts.count == 4, parts[0] == "v1", parts[1] == "calendar", let year = Int(parts[2]),
                let month = Int(parts[3]),
                let body = try? PublishedTimetableFixtures.aladhanMonth(
                    year: year, month: month, coordinates: place, timeZone: zone)
            else { return .respond(status: 404) }
            return .respond(status: 200, headers: ["Content-Type": "application/json"], body: body)
        }
    }

    func service(
        _ server: TestHTTPServer, _ test: TestDatabase, provider: RemoteTimetable.Provider = .aladhan,
        key: String? = nil, now: @escaping @Sendable () -> Date = { Date() }, log: LogManager = .silent
    ) -> PrayerServiceRemote {
        PrayerServiceRemote(
            timetable: RemoteTimetable(provider: provider, baseURL: server.url(), apiKey: key),
            network: NetworkTests.service(attempts: 2, maxBytes: 4 * 1024 * 1024), database: test.database,
            log: log,
            now: now
        )
    }

    @Test func fetchesAMonthAndServesIt() async throws {
        let server = try aladhanServer()
        defer { server.stop() }
        let test = try TestDatabase()
        let response = try await service(server, test).prayerTimes(for: try request("2026-11-29"))
        // The times are the ones published, for the days asked
        let expected = try PrayerServiceAstronomical(log: .silent).schedules(for: try request("2026-11-29"))
        #expect(response.schedules.map(\.date) == expected.map(\.date))
        for (published, calculated) in zip(response.schedules, expected) {
            for prayer in [Prayer.fajr, .sunrise, .dhuhr, .asr, .maghrib, .isha] {
                let difference = try #require(published[prayer]).date.timeIntervalSince(
                    try #require(calculated[prayer]).date)
                #expect(abs(difference) < 1, "\(published.date) \(prayer)")
                #expect(published[prayer]?.derivation == .published)
            }
        }
        guard case .remote(let provider, _) = response.source else { Issue.record("source \(response.source)"); return }
        #expect(provider == "aladhan")
        // and the request carried the method's parameters.
        let path = try #require(server.requests.first?.path)
        for part in [
            "/v1/calendar/2026/11?", "method=3", "school=0", "latitudeAdjustmentMethod=1", "iso8601=true",
            "latitude=21.4225",
        ] {
            #expect(path.contains(part), "\(part) in \(path)")
        }
    }

    @Test func aCachedMonthIsNotFetchedAgain() async throws {
        let server = try aladhanServer()
        defer { server.stop() }
        let test = try TestDatabase()
        let fetched = Date(timeIntervalSince1970: 1_795_953_600)
        let remote = service(server, test, now: { fetched })
        _ = try await remote.prayerTimes(for: try request("2026-11-01", days: 30))
        let again = try await remote.prayerTimes(for: try request("2026-11-10", days: 5))
        #expect(server.requests.count == 1)
        guard case .cache(_, let fetchedAt) = again.source else { Issue.record("source \(again.source)"); return }
        #expect(fetchedAt == fetched)
    }

    @Test func withTheServerDownTheCacheIsServedAndSaysWhen() async throws {
        // Given a month fetched long ago
        let server = try aladhanServer()
        defer { server.stop() }
        let test = try TestDatabase()
        let longAgo = Date(timeIntervalSince1970: 1_700_000_000)
        _ = try await service(server, test, now: { longAgo }).prayerTimes(for: try request("2026-11-01", days: 30))
        server.goAway()
        // When the server is gone and the cache is old
        let memory = LogServiceMemory()
        let remote = service(server, test, log: LogManager(services: [memory], minLevel: .notice))
        let response = try await remote.prayerTimes(for: try request("2026-11-29", days: 2))
        // Then the cached days are served, marked with their fetch time
        guard case .cache(_, let fetchedAt) = response.source else { Issue.record("source \(response.source)"); return }
        #expect(fetchedAt == longAgo)
        #expect(memory.events.contains { $0.message == "Timetable server unavailable, serving the cache" })
        // and days never fetched are a clear error.
        await #expect {
            try await remote.prayerTimes(for: try request("2027-01-01"))
        } throws: { error in
            guard let error = error as? PrayError else { return false }
            return error.kind == .unavailable && error.message.contains("no copy")
                && error.message.contains("cannot fetch")
        }
    }

    @Test(
        .tags(.server),
        arguments: [
            "not json", #"{"code": 200, "status": "OK", "data": []}"#, #"{"code": 500, "data": []}"#,
        ])
    func aBadResponseIsAnErrorAndIsNotStored(_ body: String) async throws {
        let server = try TestHTTPServer { _ in .respond(status: 200, body: Data(body.utf8)) }
        defer { server.stop() }
        let test = try TestDatabase()
        await #expect(throws: PrayError.self) {
            try await service(server, test).prayerTimes(for: try request("2026-11-29"))
        }
        let count = try test.database.exists ? test.backup.exportData().prayerLog.count : 0
        #expect(count == 0)
        // Nothing cached: with the server gone, the days are still unavailable.
        server.goAway()
        await #expect(throws: PrayError.self) {
            try await service(server, test).prayerTimes(for: try request("2026-11-29"))
        }
    }

    @Test(.tags(.server)) func timesOutOfOrderOrForAnotherDayAreRefused() async throws {
        let zone = riyadh
        let place = makkah
        for damage in ["swap", "shift"] {
            let server = try TestHTTPServer { _ in
                guard
                    let body = try? PublishedTimetableFixtures.aladhanMonth(
                        year: 2026, month: 11, coordinates: place, timeZone: zone),
                    var object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
                    var days = object["data"] as? [[String: Any]], var timings = days[5]["timings"] as? [String: String]
                else { return .respond(status: 500) }
                if damage == "swap" {
                    (timings["Fajr"], timings["Isha"]) = (timings["Isha"], timings["Fajr"])
                } else {
                    timings["Dhuhr"] = timings["Dhuhr"]?.replacingOccurrences(of: "2026-11-06", with: "2026-11-07")
                }
                days[5]["timings"] = timings
                object["data"] = days
                return .respond(status: 200, body: (try? JSONSerialization.data(withJSONObject: object)) ?? Data())
            }
            defer { server.stop() }
            await #expect(throws: PrayError.self, "\(damage)") {
                try await service(server, try TestDatabase()).prayerTimes(for: try request("2026-11-29"))
            }
        }
    }

    @Test func aRequestAcrossMonthsFetchesBoth() async throws {
        let server = try aladhanServer()
        defer { server.stop() }
        let response = try await service(server, try TestDatabase()).prayerTimes(
            for: try request("2026-11-29", days: 5))
        #expect(response.schedules.count == 5)
        #expect(
            Set(server.requests.map { String($0.path.split(separator: "?")[0]) }) == [
                "/v1/calendar/2026/11", "/v1/calendar/2026/12",
            ])
    }

    @Test(.tags(.server)) func londonKeepsTheCongregationTimesAndHidesTheKey() async throws {
        let year = try PublishedTimetableFixtures.londonYear(2026)
        let server = try TestHTTPServer { request in
            request.path.hasPrefix("/api/times/") && request.path.contains("year=2026")
                ? .respond(status: 200, body: year) : .respond(status: 403)
        }
        defer { server.stop() }
        let test = try TestDatabase()
        var london = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 51.5074, longitude: -0.1278),
            timeZone: TimeZone(identifier: "Europe/London")!,
            date: try CivilDate(parsing: "2026-06-21"), days: 2,
            parameters: CalculationParameters(method: .moonsightingCommittee)
        )
        let remote = service(server, test, provider: .london, key: "SECRET-KEY")
        let response = try await remote.prayerTimes(for: london)
        let day = try #require(response.schedules.first)
        let fajr = try #require(day[.fajr]).date
        let jamat = try #require(day.congregationTimes[.fajr])
        #expect(jamat.timeIntervalSince(fajr) == 15 * 60)
        #expect(day.unavailability(of: .sunset) == .notPublished)
        #expect(server.requests.first?.path.contains("key=SECRET-KEY") == true)
        // The Hanafi Asr is the published asr_2.
        london.parameters.madhab = .hanafi
        let hanafi = try #require(try await remote.prayerTimes(for: london).schedules.first)
        #expect(try #require(hanafi[.asr]).date > (try #require(day[.asr])).date)
        // A year that fails never shows the key.
        await #expect {
            try await remote.prayerTimes(
                for: PrayerAPI.Request(
                    coordinates: london.coordinates, timeZone: london.timeZone,
                    date: try CivilDate(parsing: "2027-01-01"),
                    parameters: london.parameters
                ))
        } throws: { error in !"\(error)".contains("SECRET-KEY") }
    }
}
