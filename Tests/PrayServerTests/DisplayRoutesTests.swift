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
        let coordinates = try Coordinates(latitude: 51.5085, longitude: -0.1257)
        let zone = try #require(TimeZoneName("Europe/London"))
        let method = MethodChoice(method: .muslimWorldLeague, source: .saved)
        let request = PrayerAPI.Request(
            coordinates: coordinates, timeZone: zone.timeZone, date: try CivilDate(parsing: "2027-10-29"),
            parameters: CalculationParameters(method: .muslimWorldLeague))
        let location = LocationAPI.Location(
            coordinates: coordinates, name: "London", place: nil, nearest: nil, zone: zone, timeZoneSource: .saved,
            timeZoneLookup: nil, countryCode: "GB", method: method, countryMethod: method, isSavedPlace: true)
        let prepared = LocationAPI.PrayerRequest(
            request: request, location: location,
            settings: CalculationSettings.Resolution(
                parameters: request.parameters, method: method, ignored: []),
            iqama: nil)
        return DisplayRoutes(
            screen: DisplayAPI.Screen(prepared: prepared, name: "London"), calculator: prayers,
            hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent),
            mosques: MosqueTimetableStoreFake(mosques), preferences: PreferencesStoreFake(preferences),
            clock: PrayClockFake(now: Self.now), log: .silent)
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
}
