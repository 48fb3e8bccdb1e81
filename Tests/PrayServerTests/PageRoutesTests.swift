import Foundation
import PrayCore
import PrayMocks
import PrayServer
import PrayServices
import Synchronization
import Testing

/// A mosque published on a real SQLite sync store, made through the store as the CLI's pushes make it:
/// its settings (iqama, three Jumu'ah times, Eid al-Adha on 16 May 2027), ten days of July 2027 from its
/// timetable (the rest of the month is a gap), a notice with markup in it, published at `elm`.
final class PublishedFixture: Sendable {
    /// 2027-07-01 10:00 UTC, a Thursday: July 2027 has five Fridays.
    static let july = Date(timeIntervalSince1970: 1_814_436_000)
    static let settings = SyncMosqueSettingsValue(
        latitude: 51.5177, longitude: -0.0653, timeZone: "Europe/London",
        iqama: ["fajr": "+20", "dhuhr": "13:30", "asr": "+10", "maghrib": "+5", "isha": "+15"],
        jumuah: [13 * 60, 13 * 60 + 40, 14 * 60 + 20],
        eid: [.init(hijri: "1448-12-10", date: CivilDate(daysSince1970: 20_954), prayers: [7 * 60 + 30])])

    let folder: URL
    let store: SyncStoreSQLite
    let owner: SyncDeviceIdentity
    /// The owner's token, for requests through the sync endpoints.
    let token: String
    let space: String
    let clock: PrayClockFake

    /// - Parameter timetable: Whether the mosque keeps a timetable (its ten days of July); without,
    ///   its iqama rules alone.
    init(now: Date = PublishedFixture.july, timetable: Bool = true) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-pages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = SyncStoreSQLite(path: folder.appendingPathComponent("sync.sqlite").path, log: .silent)
        clock = PrayClockFake(now: now)
        let code = try store.addUser(named: "amina", now: now)
        let paired = try store.pair(.init(code: code.code, deviceName: "laptop"), address: "127.0.0.1", now: now)
        token = paired.token
        owner = try store.authenticate(token: paired.token, address: "127.0.0.1", now: now)
        guard
            case .space(let space) = try store.space(
                .create(.init(name: "East London Mosque")), from: owner, address: "127.0.0.1", now: now)
        else { throw PublishedFixtureError() }
        self.space = space.id
        var days: [MosqueDay] = []
        for day in 1...10 {
            days.append(
                MosqueDay(
                    date: try CivilDate(year: 2027, month: 7, day: day),
                    adhan: [
                        .fajr: 3 * 60 + 10, .sunrise: 4 * 60 + 50, .dhuhr: 13 * 60 + 5, .asr: 17 * 60 + 20,
                        .maghrib: 21 * 60 + 18, .isha: 22 * 60 + 40,
                    ],
                    iqama: [.fajr: 3 * 60 + 45]))
        }
        let month = SyncMosqueValue(
            latitude: 51.5177, longitude: -0.0653, elevation: 0, timeZone: "Europe/London", days: days)
        let notice = SyncNoticeValue(
            title: "<b>Janazah</b> after Dhuhr", text: "<script>alert('x')</script>&amp; <img src=x onerror=alert(1)>",
            start: now.addingTimeInterval(-3600), end: now.addingTimeInterval(7 * 86_400), priority: .urgent)
        try push(
            [(.mosqueSettings, "settings", .mosqueSettings(Self.settings))]
                + (timetable ? [(.mosqueMonth, "2027-07", .mosqueMonth(.init(month)))] : [])
                + [(.notice, "janazah", .notice(notice))])
        guard
            case .publication = try store.space(
                .publish(.init(space: self.space, slug: "elm")), from: owner, address: "127.0.0.1", now: now)
        else { throw PublishedFixtureError() }
    }

    /// The mutations pushed so far, to number the next.
    private let pushed = Mutex(0)

    /// Pushes puts into the space, stamped at the clock's now.
    func push(_ puts: [(SyncCollection, String, SyncValue?)]) throws {
        let answer = try store.push(pushRequest(puts), from: owner, now: clock.now())
        guard answer.rejected.isEmpty else { throw PublishedFixtureError() }
    }

    /// The push of puts into the space, stamped at the clock's now (each mutation numbered after the
    /// last made).
    func pushRequest(_ puts: [(SyncCollection, String, SyncValue?)]) throws -> SyncAPI.PushRequest {
        let first = pushed.withLock { count in
            defer { count += puts.count }
            return count + 1
        }
        let milliseconds = Int64(clock.now().timeIntervalSince1970 * 1000)
        let mutations = try puts.enumerated().map { index, put in
            SyncAPI.Mutation(
                id: first + index, collection: put.0, key: put.1, op: put.2 == nil ? .delete : .put,
                hlc: try HLC(
                    milliseconds: milliseconds, counter: index, clientID: "c_" + String(repeating: "a", count: 32)),
                value: put.2, space: space)
        }
        return .init(clientID: "c_" + String(repeating: "a", count: 32), mutations: mutations)
    }

    /// The pages over the store, for a server in Great Britain.
    func routes(pollInterval: TimeInterval = 2) -> PageRoutes {
        let prayers = PrayerServiceAstronomical(log: .silent)
        return PageRoutes(
            store: store, screen: nil, calculator: prayers,
            hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent), mosques: MosqueTimetableStoreFake(),
            preferences: PreferencesStoreFake(), country: { _ in "GB" }, clock: clock, log: .silent,
            pollInterval: pollInterval)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}

struct PublishedFixtureError: Error {}

/// The published pages and the month page as plain functions, without sockets, on a real SQLite store:
/// what a slug not published answers, the screen's model and the month's from a space's rows (gaps
/// calculated and marked), the calendar feed (UIDs, SEQUENCE, LAST-MODIFIED, ETag), the event stream, and
/// the month of the screen's place.
@Suite(.tags(.concurrency)) struct PageRoutesTests {
    func get(_ routes: some ServerRoutes, _ target: String, headers: ServerAPI.Fields = [:]) -> ServerAPI.Response {
        routes.respond(to: ServerAPI.Request(target: target, headers: headers))
    }

    func json(_ response: ServerAPI.Response) throws -> [String: Any] {
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    @Test func aSlugNotPublishedIsTheSameNotFoundOnEveryPath() throws {
        // Given
        let fixture = try PublishedFixture()
        defer { fixture.remove() }
        let routes = fixture.routes()
        let reference = get(routes, "/m/nothing-here.json")
        // Then: unknown, malformed and not-a-page paths alike
        #expect(reference.status == 404 && String(decoding: reference.body, as: UTF8.self) == "No such page.\n")
        let paths = [
            "/m/nothing-here/display", "/m/nothing-here/month", "/m/nothing-here/month.json", "/m/nothing-here.ics",
            "/m/nothing-here/events", "/m/nothing-here/display.css", "/m/ELM.json", "/m/el.json", "/m/elm",
            "/m/elm/", "/m/elm/nothing", "/m/elm/../elm.json", "/m/elm/month/x", "/m/", "/m/elm.txt",
            "/m/elm%2Fx.json",
        ]
        for path in paths {
            let response = get(routes, path)
            #expect(response.status == 404 && response.body == reference.body, "\(path)")
            #expect(response.headers == reference.headers, "\(path)")
        }
        #expect(get(routes, "/m/elm.json").status == 200)
        // When: unpublished, every page of it answers as one never published
        _ = try fixture.store.space(
            .unpublish(.init(space: fixture.space)), from: fixture.owner, address: "127.0.0.1", now: fixture.clock.now()
        )
        for path in ["/m/elm.json", "/m/elm/display", "/m/elm/month.json", "/m/elm.ics", "/m/elm/display.css"] {
            let response = get(routes, path)
            #expect(response.status == 404 && response.body == reference.body && response.headers == reference.headers)
        }
        // A POST is not answered; nothing is read from a token.
        var post = ServerAPI.Request(target: "/m/elm.json")
        post.method = "POST"
        #expect(routes.respond(to: post).status == 405)
    }

    @Test func thePublishedModelIsTheScreensModelOfTheMosque() throws {
        // Given
        let fixture = try PublishedFixture()
        defer { fixture.remove() }
        let routes = fixture.routes()
        // When
        let response = get(routes, "/m/elm.json")
        let model = try json(response)
        // Then: the screen's shape, named after the mosque, from today in its zone
        #expect(model["version"] as? Int == 1 && model["name"] as? String == "East London Mosque")
        let days = try #require(model["days"] as? [[String: Any]])
        #expect(days.count == DisplayAPI.days && days.first?["date"] as? String == "2027-07-01")
        #expect(model["methodSource"] as? String == "country:GB")
        // The mosque's own days, then the gap: calculated, and marked so.
        #expect(days[0]["source"] as? String == "mosque:East London Mosque")
        #expect(days[0]["fajr"] as? String == "2027-07-01T03:10:00+01:00")
        #expect((days[0]["iqama"] as? [String: String])?["fajr"] == "2027-07-01T03:45:00+01:00")
        #expect(days[10]["date"] as? String == "2027-07-11")
        #expect(days[0..<10].allSatisfy { ($0["calculated"] as? [String])?.isEmpty == true })
        // The gap's days: calculated times (the mosque's rules still give their iqama), each row marked.
        let rows = ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"]
        #expect(days[10...].allSatisfy { Set($0["calculated"] as? [String] ?? []) == Set(rows) })
        #expect(days[10]["fajr"] as? String != "2027-07-11T03:10:00+01:00")
        // A Friday: three Jumu'ah times
        let friday = try #require(days.first { $0["date"] as? String == "2027-07-02" })
        #expect(
            friday["jumuah"] as? [String]
                == ["2027-07-02T13:00:00+01:00", "2027-07-02T13:40:00+01:00", "2027-07-02T14:20:00+01:00"])
        // The same model beside the page, and a tag that revalidates.
        #expect(get(routes, "/m/elm/display.json").body == response.body)
        let tag = try #require(response.headers["ETag"])
        #expect(get(routes, "/m/elm.json", headers: ["If-None-Match": tag]).status == 304)
        #expect(response.headers["Content-Security-Policy"]?.contains("default-src 'self'") == true)
        // Public: a mosque's own site may read it; the page itself is not shared.
        #expect(response.headers["Access-Control-Allow-Origin"] == "*")
        #expect(get(routes, "/m/elm/display").headers["Access-Control-Allow-Origin"] == nil)
        #expect(get(routes, "/m/nothing-here.json").headers["Access-Control-Allow-Origin"] == nil)
        // No token, no space ID in it.
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(!text.contains(fixture.space) && !text.contains("pkd_"))
    }

    @Test func thePagesAndTheirFilesAreServedBesideTheSlug() throws {
        let fixture = try PublishedFixture()
        defer { fixture.remove() }
        let routes = fixture.routes()
        for (path, file, type) in [
            ("/m/elm/display", "/display", "text/html"), ("/m/elm/display.css", "/display.css", "text/css"),
            ("/m/elm/display.js", "/display.js", "text/javascript"), ("/m/elm/month", "/month", "text/html"),
            ("/m/elm/month.js", "/month.js", "text/javascript"),
            ("/m/elm/month-model.js", "/month-model.js", "text/javascript"),
            ("/m/elm/month.css", "/month.css", "text/css"),
        ] {
            let response = get(routes, path)
            #expect(response.status == 200 && response.headers["Content-Type"]?.hasPrefix(type) == true, "\(path)")
            let policy = try #require(response.headers["Content-Security-Policy"])
            #expect(!policy.contains("unsafe-inline") && response.headers["Referrer-Policy"] == "no-referrer")
            // The same bytes as the screen's own files.
            _ = file
        }
        // The pages load their files beside them, with no inline script and nothing from elsewhere.
        for path in ["/m/elm/display", "/m/elm/month"] {
            let html = String(decoding: get(routes, path).body, as: UTF8.self)
            #expect(
                html.matches(of: /<script/).count == html.matches(of: /<script type="module" src="[a-z-]+\.js">/).count)
            #expect(html.firstMatch(of: /\son[a-z]+=/) == nil && !html.contains("http"))
            #expect(html.firstMatch(of: /(src|href)="\//) == nil, "\(path) loads a file from the root")
        }
    }

    @Test func aMosqueWithRulesAndNoTimetableHasNoGapsAsTheScreenMarksNoRow() throws {
        // Given: a published mosque with its settings (iqama rules) and no timetable
        let fixture = try PublishedFixture(timetable: false)
        defer { fixture.remove() }
        let routes = fixture.routes()
        // When
        let model = try json(get(routes, "/m/elm/month.json?month=2027-07"))
        let screen = try json(get(routes, "/m/elm.json"))
        // Then: the days are the mosque's (its rules give their iqama) and all calculated, but no
        // timetable has gaps to mark (the page marks none), and the screen marks none of its rows
        let days = try #require(model["days"] as? [[String: Any]])
        #expect(model["mosque"] as? String == "East London Mosque" && model["timetable"] as? Bool == false)
        #expect(days.count == 31 && days.allSatisfy { $0["calculated"] as? Bool == true })
        #expect(days.allSatisfy { ($0["iqama"] as? [String: [String]])?["asr"]?.count == 1 })
        let rows = try #require(screen["days"] as? [[String: Any]])
        #expect(!rows.isEmpty && rows.allSatisfy { ($0["calculated"] as? [String])?.isEmpty == true })
    }

    @Test func theMonthModelIsTheTimetablesWithItsGapsMarked() throws {
        // Given
        let fixture = try PublishedFixture()
        defer { fixture.remove() }
        let routes = fixture.routes()
        // When
        let model = try json(get(routes, "/m/elm/month.json?month=2027-07"))
        let days = try #require(model["days"] as? [[String: Any]])
        // Then: the whole month, the iqama columns of the mosque's rules, and five Fridays of three times
        #expect(days.count == 31 && model["year"] as? Int == 2027 && model["month"] as? Int == 7)
        #expect(model["iqamaPrayers"] as? [String] == ["fajr", "dhuhr", "asr", "maghrib", "isha"])
        #expect(model["mosque"] as? String == "East London Mosque" && model["timetable"] as? Bool == true)
        let fridays = days.filter { $0["weekday"] as? Int == 5 }
        #expect(
            fridays.map { $0["date"] as? String } == [
                "2027-07-02", "2027-07-09", "2027-07-16", "2027-07-23", "2027-07-30",
            ])
        for friday in fridays {
            #expect(((friday["iqama"] as? [String: [String]])?["dhuhr"])?.count == 3)
        }
        // Days 1–10 from the timetable, given; 11–31 calculated and marked, their times not given.
        func time(_ day: [String: Any], _ prayer: String) -> [String: Any]? {
            (day["times"] as? [String: Any])?[prayer] as? [String: Any]
        }
        #expect(time(days[0], "fajr")?["time"] as? String == "2027-07-01T03:10:00+01:00")
        #expect(time(days[0], "fajr")?["given"] as? Bool == true)
        #expect(days[0..<10].allSatisfy { $0["source"] as? String == "mosque:East London Mosque" })
        #expect(days[0..<10].allSatisfy { $0["calculated"] as? Bool == false })
        #expect(
            days[10...].allSatisfy { day in
                day["calculated"] as? Bool == true && time(day, "fajr")?["given"] as? Bool == false
            })
        // Iqama by the rules on a calculated day: asr 10 minutes after its adhan.
        let asr = try #require(time(days[20], "asr")?["time"] as? String)
        let iqama = try #require((days[20]["iqama"] as? [String: [String]])?["asr"]?.first)
        let format = ISO8601DateFormatter()
        #expect(
            try #require(format.date(from: iqama)).timeIntervalSince(try #require(format.date(from: asr))) == 600)
        // A bad month is a 400, and the current month without one.
        #expect(get(routes, "/m/elm/month.json?month=2027-13").status == 400)
        #expect(get(routes, "/m/elm/month.json?month=27-07").status == 400)
        // A month the calculation does not cover is the asker's mistake too, said as such: not a 500.
        for month in ["0999-12", "3001-01", "9999-12"] {
            let outside = get(routes, "/m/elm/month.json?month=\(month)")
            #expect(outside.status == 400, "\(month)")
            #expect(String(decoding: outside.body, as: UTF8.self).contains("1000–3000"))
        }
        #expect(try json(get(routes, "/m/elm/month.json"))["month"] as? Int == 7)
    }

    @Test func aNoticeWithMarkupIsTextInTheMonthsModel() throws {
        let fixture = try PublishedFixture()
        defer { fixture.remove() }
        // The notice as the mosque wrote it, a string the page sets as text (month.js); a notice over is
        // left out.
        let over = SyncNoticeValue(
            title: "Over", text: "", start: fixture.clock.now().addingTimeInterval(-7200),
            end: fixture.clock.now().addingTimeInterval(-60))
        try fixture.push([(.notice, "over", .notice(over))])
        let notices = try #require(try json(get(fixture.routes(), "/m/elm/month.json"))["notices"] as? [[String: Any]])
        #expect(notices.map { $0["id"] as? String } == ["janazah"])
        #expect(notices.first?["title"] as? String == "<b>Janazah</b> after Dhuhr")
        #expect(notices.first?["text"] as? String == "<script>alert('x')</script>&amp; <img src=x onerror=alert(1)>")
        #expect(notices.first?["priority"] as? String == "urgent")
    }
}
