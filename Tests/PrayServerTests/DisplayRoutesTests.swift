import Foundation
import PrayCore
import PrayMocks
import PrayServer
import PrayServices
import Testing

/// The screen's routes as plain functions, without sockets: the embedded page files with their
/// security headers and tags, and the model — its days, offsets, iqama and Jumu'ah, a mosque's
/// timetable over the calculation, and refusals of bad input.
@Suite(.tags(.concurrency)) struct DisplayRoutesTests {
    /// 2027-10-29 11:00 UTC, a Friday in London (BST).
    static let now = Date(timeIntervalSince1970: 1_824_807_600)
    let prayers = PrayerServiceAstronomical(log: .silent)

    /// London's screen: the Muslim World League, with the given preferences and mosque timetables.
    func routes(
        preferences: Preferences = Preferences(), mosques: [MosqueTimetable] = []
    ) throws -> DisplayRoutes {
        try routes(preferences: PreferencesStoreFake(preferences), store: MosqueTimetableStoreFake(mosques))
    }

    /// London's screen over the given stores (a test that changes them as it goes).
    func routes(
        preferences: PreferencesStoreFake, store: MosqueTimetableStoreFake, pingInterval: TimeInterval = 25,
        clock: PrayClockFake = PrayClockFake(now: Self.now)
    ) throws -> DisplayRoutes {
        DisplayRoutes(
            screen: try Self.screen(), calculator: prayers,
            hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent),
            mosques: store, preferences: preferences, clock: clock, log: .silent,
            pingInterval: pingInterval)
    }

    /// London's screen on the Muslim World League, as `praykit serve --display` resolves a saved place,
    /// its request from `date`.
    static func screen(from date: String = "2027-10-29") throws -> DisplayAPI.Screen {
        let coordinates = try Coordinates(latitude: 51.5085, longitude: -0.1257)
        let zone = try #require(TimeZoneName("Europe/London"))
        let method = MethodChoice(method: .muslimWorldLeague, source: .saved)
        let request = PrayerAPI.Request(
            coordinates: coordinates, timeZone: zone.timeZone, date: try CivilDate(parsing: date),
            parameters: CalculationParameters(method: .muslimWorldLeague))
        let location = LocationAPI.Location(
            coordinates: coordinates, name: "London", place: nil, nearest: nil, zone: zone, timeZoneSource: .saved,
            timeZoneLookup: nil, countryCode: "GB", method: method, countryMethod: method, isSavedPlace: true)
        let prepared = LocationAPI.PrayerRequest(
            request: request, location: location,
            settings: CalculationSettings.Resolution(
                parameters: request.parameters, method: method, ignored: []),
            iqama: nil)
        return DisplayAPI.Screen(prepared: prepared, name: "London")
    }

    func model(_ routes: DisplayRoutes, _ target: String = "/display.json") throws -> [String: Any] {
        let response = routes.respond(to: ServerAPI.Request(target: target))
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    func days(_ model: [String: Any]) -> [[String: Any]] {
        model["days"] as? [[String: Any]] ?? []
    }

    @Test func everyFileHasAStrictPolicyATypeAndATagThatRevalidates() throws {
        let routes = try routes()
        for (path, type) in [
            ("/display", "text/html"), ("/display.css", "text/css"), ("/display.js", "text/javascript"),
            ("/display-model.js", "text/javascript"), ("/display-words.js", "text/javascript"),
            ("/display.json", "application/json"),
        ] {
            // When
            let response = routes.respond(to: ServerAPI.Request(target: path))
            // Then
            #expect(response.status == 200 && !response.body.isEmpty, "\(path)")
            #expect(response.headers["Content-Type"]?.hasPrefix(type) == true, "\(path): \(response.headers)")
            let policy = try #require(response.headers["Content-Security-Policy"])
            #expect(policy.contains("default-src 'self'") && policy.contains("script-src 'self'"))
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
            #expect(response.headers["X-Content-Type-Options"] == "nosniff")
            let tag = try #require(response.headers["ETag"])
            let again = routes.respond(to: ServerAPI.Request(target: path, headers: ["If-None-Match": tag]))
            #expect(again.status == 304 && again.body.isEmpty, "\(path)")
            let other = routes.respond(to: ServerAPI.Request(target: path, headers: ["If-None-Match": "\"0\""]))
            #expect(other.status == 200, "\(path)")
        }
    }

    @Test func thePageLoadsOnlyItsOwnFilesAndHasNoInlineScript() throws {
        let html = String(decoding: try routes().respond(to: ServerAPI.Request(target: "/display")).body, as: UTF8.self)
        // Beside the page (display.js, not /display.js): the same page serves a published mosque at
        // /m/<slug>/display with its files and model beside it.
        #expect(html.contains("<script type=\"module\" src=\"display.js\"></script>"))
        #expect(html.contains("<link rel=\"stylesheet\" href=\"display.css\">"))
        // Every script element loads a file of this server; no attribute runs code.
        #expect(html.matches(of: /<script/).count == html.matches(of: /<script type="module" src="display/).count)
        #expect(html.firstMatch(of: /\son[a-z]+=/) == nil)
        #expect(!html.contains("http://") && !html.contains("https://"))
    }

    @Test func theModelHasAMonthOfDaysFromTodayInThePlacesZone() throws {
        // When
        let model = try model(try routes())
        let days = days(model)
        // Then: 31 days from Friday 29 October, each with its times at the offset of the day
        #expect(model["version"] as? Int == 1 && model["name"] as? String == "London")
        #expect(days.count == DisplayAPI.days)
        #expect(days.first?["date"] as? String == "2027-10-29" && days.first?["weekday"] as? Int == 5)
        #expect(days.last?["date"] as? String == "2027-11-28")
        #expect((days[0]["fajr"] as? String)?.hasSuffix("+01:00") == true)
        #expect((days[2]["fajr"] as? String)?.hasSuffix("+00:00") == true)
        #expect(model["validFrom"] as? String == "2027-10-29T00:00:00+01:00")
        #expect(model["validUntil"] as? String == "2027-11-29T00:00:00+00:00")
        // The clocks go back at 01:00 UTC on the last Sunday of October.
        let offsets = try #require(model["offsets"] as? [[String: Any]])
        #expect(offsets.map { $0["seconds"] as? Int } == [3600, 0])
        #expect(offsets.last?["from"] as? String == "2027-10-31T01:00:00+00:00")
        let hijri = try #require(days[0]["hijri"] as? [String: Any])
        #expect(hijri["year"] as? Int == 1449 && hijri["month"] as? Int == 5)
        #expect(days.allSatisfy { ($0["iqama"] as? [String: Any])?.isEmpty == true })
    }

    @Test func theTimesAreTheCalculationsToTheSecond() throws {
        // Given
        let model = try model(try routes(), "/display.json?date=2027-03-01")
        var request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 51.5085, longitude: -0.1257),
            timeZone: try #require(TimeZone(identifier: "Europe/London")), date: try CivilDate(parsing: "2027-03-01"),
            days: 31, parameters: CalculationParameters(method: .muslimWorldLeague))
        request.hijriCalendar = .ummAlQura
        let schedules = try prayers.schedules(for: request)
        // Then: each time is the calculated instant
        let formatter = ISO8601DateFormatter()
        for (day, schedule) in zip(days(model), schedules) {
            for prayer in [Prayer.imsak, .fajr, .sunrise, .dhuhr, .asr, .sunset, .maghrib, .isha] {
                let text = try #require(day[prayer.rawValue] as? String, "\(schedule.date) \(prayer)")
                #expect(formatter.date(from: text) == schedule[prayer]?.date, "\(schedule.date) \(prayer)")
            }
        }
    }

    @Test func savedIqamaAndJumuahAreReadAtEachAnswer() throws {
        // Given: iqama 20 minutes after fajr, dhuhr at 13:30, three Friday prayers
        var preferences = Preferences()
        try preferences.set("fajr=+20,dhuhr=13:30", for: .iqama)
        try preferences.set("13:00,13:40,14:20", for: .jumuah)
        // When
        let days = days(try model(try routes(preferences: preferences)))
        // Then
        let friday = days[0]
        let iqama = try #require(friday["iqama"] as? [String: String])
        #expect(iqama["dhuhr"] == "2027-10-29T13:30:00+01:00")
        #expect(try #require(iqama["fajr"]).hasPrefix("2027-10-29T0"))
        #expect(friday["fixedIqama"] as? [String] == ["dhuhr"])
        #expect(
            friday["jumuah"] as? [String] == [
                "2027-10-29T13:00:00+01:00", "2027-10-29T13:40:00+01:00", "2027-10-29T14:20:00+01:00",
            ])
        #expect((days[1]["jumuah"] as? [String])?.isEmpty == true)
    }

    @Test func theChosenMosquesTimetableComesFirst() throws {
        // Given: East London Mosque's Saturday, chosen
        let saturday = try CivilDate(parsing: "2027-10-30")
        let mosque = MosqueTimetable(
            name: "East London Mosque", coordinates: try Coordinates(latitude: 51.5175, longitude: -0.0653),
            timeZone: "Europe/London",
            days: [MosqueDay(date: saturday, adhan: [.fajr: 6 * 60], iqama: [.fajr: 6 * 60 + 30, .asr: 15 * 60 + 30])])
        var preferences = Preferences()
        try preferences.set("East London Mosque", for: .mosque)
        try preferences.set("asr=+10", for: .iqama)
        // When
        let days = days(try model(try routes(preferences: preferences, mosques: [mosque])))
        // Then: the mosque's adhan and iqama on its day, the saved rule elsewhere
        let day = days[1]
        #expect(day["source"] as? String == "mosque:East London Mosque")
        #expect(day["fajr"] as? String == "2027-10-30T06:00:00+01:00")
        let iqama = try #require(day["iqama"] as? [String: String])
        #expect(iqama["fajr"] == "2027-10-30T06:30:00+01:00" && iqama["asr"] == "2027-10-30T15:30:00+01:00")
        #expect(Set(day["fixedIqama"] as? [String] ?? []) == ["fajr", "asr"])
        #expect(days[0]["source"] as? String == "calculated")
        #expect((days[0]["iqama"] as? [String: String])?["asr"] != nil && days[0]["fixedIqama"] as? [String] == [])
    }

    @Test func badInputIsRefusedClearly() throws {
        let routes = try routes()
        let bad = routes.respond(to: ServerAPI.Request(target: "/display.json?date=2027-02-30"))
        #expect(bad.status == 400)
        #expect(String(decoding: bad.body, as: UTF8.self).contains("date must be a day such as 2027-10-31"))
        let missing = routes.respond(to: ServerAPI.Request(target: "/display-nothing.js"))
        #expect(missing.status == 404 && missing.headers["X-Content-Type-Options"] == "nosniff")
        let post = routes.respond(to: ServerAPI.Request(method: "POST", target: "/display"))
        #expect(post.status == 405 && post.headers["Allow"] == "GET, HEAD")
        let refused = routes.respond(
            to: ServerAPI.Request(
                path: "/display", refusal: ServerAPI.Refusal(status: 431, message: "The request head is too large.")))
        #expect(refused.status == 431)
        // Days the calculation does not cover are the asker's mistake: a 400 that says so, never a
        // 500, and never a trap for a month that would run past 9999-12-31.
        for date in ["0001-01-01", "0999-12-31", "3000-12-31", "9999-12-02", "9999-12-31"] {
            let outside = routes.respond(to: ServerAPI.Request(target: "/display.json?date=\(date)"))
            let text = String(decoding: outside.body, as: UTF8.self)
            #expect(outside.status == 400, "\(date): \(text)")
            #expect(text.contains("1000") || text.contains("9999"), "\(date): \(text)")
        }
    }

    @Test func theCombinedRoutesSendTheScreensPathsToTheScreenOnly() throws {
        // Given
        let api = ServerRoutesMock()
        api.onRespond { _ in ServerAPI.Response(status: 299) }
        let combined = ServerRoutesCombined(api: api, sync: nil, display: try routes())
        // Then
        #expect(combined.respond(to: ServerAPI.Request(target: "/display")).status == 200)
        #expect(combined.respond(to: ServerAPI.Request(target: "/display.json")).status == 200)
        #expect(combined.respond(to: ServerAPI.Request(target: "/v1/methods")).status == 299)
        #expect(combined.respond(to: ServerAPI.Request(target: "/displayed")).status == 299)
        #expect(
            ServerRoutesCombined(api: api, sync: nil).respond(to: ServerAPI.Request(target: "/display")).status == 299)
    }

    /// East London Mosque as a followed space keeps it: settings with iqama rules, three Jumu'ah times,
    /// Eid al-Fitr 1448, a screen with silence switched off and the Hijri date turning at maghrib.
    static func followedMosque() throws -> (PreferencesStoreFake, MosqueTimetableStoreFake) {
        let store = MosqueTimetableStoreFake()
        var settings = SyncMosqueSettingsValue(
            latitude: 51.5177, longitude: -0.0653, timeZone: "Europe/London", iqama: ["fajr": "+20", "dhuhr": "13:30"],
            jumuah: [13 * 60, 13 * 60 + 40, 14 * 60 + 20],
            eid: [.init(hijri: "1448-10-01", date: try CivilDate(parsing: "2027-03-10"), prayers: [450, 540])])
        settings.screen = try DisplayAPI.Settings(parsing: "silence=off,hijri=maghrib")
        try store.setSettings(settings, of: "East London Mosque")
        var preferences = Preferences()
        try preferences.set("East London Mosque", for: .mosque)
        try preferences.set("asr=+10", for: .iqama)
        return (PreferencesStoreFake(preferences), store)
    }

    @Test func aFollowedMosqueGivesItsPlaceRulesJumuahEidAndScreen() throws {
        // Given
        let (preferences, store) = try Self.followedMosque()
        let routes = try routes(preferences: preferences, store: store)
        // When: the Friday, and the eve and day of Eid al-Fitr 1448
        let friday = try model(routes)
        let eid = try model(routes, "/display.json?date=2027-03-09")
        // Then: the mosque's place and name, its screen, its rules (a +minutes iqama is not a clock time)
        #expect(friday["name"] as? String == "East London Mosque")
        let location = try #require(friday["location"] as? [String: Any])
        #expect(location["latitude"] as? Double == 51.5177 && location["longitude"] as? Double == -0.0653)
        let phases = try #require(friday["phases"] as? [String: Any])
        #expect(phases["silence"] as? Int == 0 && phases["iqama"] as? Bool == true && phases["adhan"] as? Int == 3)
        #expect(friday["hijriAtMaghrib"] as? Bool == true)
        let day = days(friday)[0]
        #expect(day["fixedIqama"] as? [String] == ["dhuhr"], "\(day)")
        #expect(
            day["jumuah"] as? [String] == [
                "2027-10-29T13:00:00+01:00", "2027-10-29T13:40:00+01:00", "2027-10-29T14:20:00+01:00",
            ])
        // The mosque has no rule for asr: the saved one, as in 'praykit times'.
        #expect((day["iqama"] as? [String: String])?["asr"] != nil)
        #expect(day["eid"] is NSNull && (day["calculated"] as? [String])?.isEmpty == true)
        let eidDay = try #require(days(eid)[1]["eid"] as? [String: Any])
        #expect(eidDay["kind"] as? String == "fitr")
        #expect(eidDay["prayers"] as? [String] == ["2027-03-10T07:30:00+00:00", "2027-03-10T09:00:00+00:00"])
        #expect(days(eid)[0]["eid"] is NSNull)
    }

    @Test func theNoticesOfTheWindowComeMostUrgentFirstAsPlainText() throws {
        // Given: four notices, one over before the window and one after it
        let (preferences, store) = try Self.followedMosque()
        let at = { (text: String) in try #require(SyncAPI.parseTimestamp(text)) }
        for (id, priority, start, end, title) in [
            ("past", SyncNoticeValue.Priority.urgent, "2027-10-01T00:00:00.000Z", "2027-10-02T00:00:00.000Z", "Old"),
            ("class", .normal, "2027-10-29T00:00:00.000Z", "2027-11-05T00:00:00.000Z", "Tafsir class"),
            ("script", .high, "2027-10-30T00:00:00.000Z", "2027-11-05T00:00:00.000Z", "<script>alert(1)</script>"),
            ("funeral", .urgent, "2027-10-29T12:00:00.000Z", "2027-10-29T14:00:00.000Z", "Janazah after Jumu'ah"),
            ("future", .normal, "2028-01-01T00:00:00.000Z", "2028-01-02T00:00:00.000Z", "Later"),
        ] {
            try store.putNotice(
                MosqueNotice(
                    id: id,
                    notice: SyncNoticeValue(
                        title: title, text: "Line one\nline two", start: try at(start), end: try at(end),
                        priority: priority)), of: "East London Mosque")
        }
        // When
        let notices = try #require(
            try model(try routes(preferences: preferences, store: store))["notices"] as? [[String: Any]])
        // Then: those of the 31 days, urgent, high, normal; the text as it was written
        #expect(notices.map { $0["id"] as? String } == ["funeral", "script", "class"])
        #expect(notices[1]["title"] as? String == "<script>alert(1)</script>")
        #expect(
            notices[0]["start"] as? String == "2027-10-29T13:00:00+01:00"
                && notices[0]["priority"] as? String == "urgent")
        #expect(notices[2]["text"] as? String == "Line one\nline two")
    }

    @Test func theDaysAMosquesTimetableDoesNotGiveAreMarkedCalculated() throws {
        // Given: the mosque's timetable has Friday without asr, and no Saturday
        let friday = try CivilDate(parsing: "2027-10-29")
        let mosque = MosqueTimetable(
            name: "East London Mosque", coordinates: try Coordinates(latitude: 51.5175, longitude: -0.0653),
            timeZone: "Europe/London",
            days: [
                MosqueDay(
                    date: friday,
                    adhan: [
                        .fajr: 5 * 60 + 50, .sunrise: 7 * 60 + 20, .dhuhr: 12 * 60 + 45, .maghrib: 17 * 60 + 40,
                        .isha: 19 * 60 + 10,
                    ], iqama: [:]),
                MosqueDay(
                    date: friday.adding(days: 2),
                    adhan: [
                        .fajr: 5 * 60 + 53, .sunrise: 6 * 60 + 24, .dhuhr: 11 * 60 + 45, .asr: 14 * 60 + 5,
                        .maghrib: 16 * 60 + 37, .isha: 18 * 60 + 7,
                    ], iqama: [:]),
            ])
        var preferences = Preferences()
        try preferences.set("East London Mosque", for: .mosque)
        // When
        let days = days(try model(try routes(preferences: preferences, mosques: [mosque])))
        // Then
        #expect(days[0]["calculated"] as? [String] == ["asr"])
        #expect(days[1]["calculated"] as? [String] == ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"])
        #expect(days[2]["calculated"] as? [String] == [])
        // Without a timetable nothing is marked: every time is calculated, as the screen says nowhere else.
        #expect(self.days(try model(try routes()))[0]["calculated"] as? [String] == [])
    }

    /// Collects what a stream sends, as a server would.
    final class StreamReader: ServerStream.Writer, @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = Data()
        func write(_ bytes: Data) -> Bool {
            lock.withLock { self.bytes.append(bytes) }
            return true
        }
        func end() {}
        var isClosed: Bool { false }
        var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

        /// The tags of the `model` events so far.
        var tags: [String] {
            text.matches(of: /event: model\ndata: \{"etag":"\\"([0-9a-f]+)\\""\}/).map { "\"" + $0.output.1 + "\"" }
        }

        /// Waits (a hang guard of a minute, not a deadline) until `count` tags arrived.
        func waitForTags(_ count: Int) async throws -> [String] {
            var waits = 0
            while tags.count < count, waits < 6000 {
                try await Task.sleep(for: .milliseconds(10))
                waits += 1
            }
            return tags
        }
    }

    @Test func theEventStreamSaysWhenTheModelChanged() async throws {
        // Given: a page's stream
        let (preferences, store) = try Self.followedMosque()
        let routes = try routes(preferences: preferences, store: store)
        let response = routes.respond(to: ServerAPI.Request(target: "/display/events"))
        let stream = try #require(response.stream)
        let reader = StreamReader()
        stream.attach(reader)
        defer { routes.endStreams() }
        #expect(response.status == 200 && response.headers["Content-Type"] == "text/event-stream; charset=utf-8")
        #expect(response.headers["Content-Security-Policy"]?.contains("default-src 'self'") == true)
        let tag = try #require(routes.respond(to: ServerAPI.Request(target: "/display.json")).headers["ETag"])
        #expect(try await reader.waitForTags(1) == [tag], "\(reader.text)")
        #expect(reader.text.hasPrefix("retry: 5000\n\n"))
        // When: an editor's change arrives (the mosque's iqama), then the saved iqama changes
        var settings = try #require(store.settings(of: "East London Mosque"))
        settings.iqama["asr"] = "+25"
        try store.setSettings(settings, of: "East London Mosque")
        let second = try await reader.waitForTags(2)
        try preferences.update { try $0.set("asr=+5,isha=+10", for: .iqama) }
        let third = try await reader.waitForTags(3)
        // Then: each event names the model as it is now
        let now = try #require(routes.respond(to: ServerAPI.Request(target: "/display.json")).headers["ETag"])
        #expect(second.count == 2 && second[1] != tag, "\(reader.text)")
        #expect(third.count == 3 && third.last == now, "\(reader.text)")
        #expect(routes.openStreams == 1)
        let head = routes.respond(to: ServerAPI.Request(method: "HEAD", target: "/display/events"))
        #expect(head.status == 405 && head.stream == nil)
    }
}
