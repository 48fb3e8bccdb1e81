import Foundation
import PrayCore
import PrayMocks
import PrayServer
import PrayServices
import Testing

/// `method=N` is AlAdhan's method N as AlAdhan defines it (not PrayKit's preset of the authority), a
/// request without `method` gets the method of its country (the rule of `praykit times`), and
/// `/v1/methods` says where each method comes from.
@Suite struct AlAdhanMethodTests {
    let prayers = PrayerServiceAstronomical(log: .silent)

    func routes(_ lookups: AlAdhanRoutes.Lookups = .none) -> AlAdhanRoutes {
        AlAdhanRoutes(
            calculator: prayers, hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent),
            qibla: QiblaServiceGeodesic(log: .silent), lookups: lookups, clock: PrayClockFake(), log: .silent)
    }

    /// The `data` of an answer that must be 200.
    func data(_ target: String, routes: AlAdhanRoutes? = nil) throws -> [String: Any] {
        let response = (routes ?? self.routes()).respond(to: ServerAPI.Request(target: target))
        let body = try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
        #expect(response.status == 200, "\(target): \(body)")
        return try #require(body["data"] as? [String: Any], "\(target)")
    }

    func timings(_ target: String, routes: AlAdhanRoutes? = nil) throws -> [String: String] {
        try #require(data(target, routes: routes)["timings"] as? [String: String])
    }

    func meta(_ target: String, routes: AlAdhanRoutes? = nil) throws -> [String: Any] {
        try #require(data(target, routes: routes)["meta"] as? [String: Any])
    }

    /// London on 24 April 2014, the place and day of AlAdhan's own engine tests
    /// (islamic-network/prayer-times `tests/TimingsTest.php`, `tests/TimingsMoonSightingTest.php`).
    static let london = "/v1/timings/24-04-2014?latitude=51.508515&longitude=-0.1254872&timezonestring=Europe/London"

    @Test func isnaIsAlAdhansISNAWithoutAddedMinutes() throws {
        // When: AlAdhan's method 2 (PrayKit's preset adds a minute to dhuhr: 13:00)
        let times = try timings(Self.london + "&method=2")
        // Then: AlAdhan's answers, from its engine test
        let alAdhan = [
            "Fajr": "03:57", "Sunrise": "05:46", "Dhuhr": "12:59", "Sunset": "20:12", "Maghrib": "20:12",
            "Isha": "22:02", "Imsak": "03:47",
        ]
        for (name, time) in alAdhan { #expect(times[name] == time, "\(name)") }
        // Asr differs on purpose (PrayKit's noon shadow and the sun at that moment; AlAdhan says 16:54),
        // by at most two minutes
        #expect(["16:54", "16:55", "16:56"].contains(times["Asr"] ?? ""), "\(times)")
    }

    @Test func moonsightingIsTheCommitteesCurvesAloneWithoutAddedMinutes() throws {
        // When: AlAdhan's method 15 (PrayKit's preset, from Adhan, adds dhuhr +5 and maghrib +3:
        // 13:04 and 20:15)
        let times = try timings(Self.london + "&method=15")
        let meta = try meta(Self.london + "&method=15")
        // Then: AlAdhan's answers, from its engine test
        let alAdhan = [
            "Fajr": "04:04", "Sunrise": "05:46", "Dhuhr": "12:59", "Sunset": "20:12", "Maghrib": "20:12",
            "Isha": "21:21", "Imsak": "03:54",
        ]
        for (name, time) in alAdhan { #expect(times[name] == time, "\(name)") }
        #expect(meta["latitudeAdjustmentMethod"] as? String == "NONE")
        // Kuala Lumpur: the curve alone (76 min before sunrise at 3°N on 1 March), not the later 18° time
        // that Adhan's bound takes there
        let kualaLumpur = try timings(
            "/v1/timings/01-03-2027?latitude=3.139&longitude=101.6869&timezonestring=Asia/Kuala_Lumpur&method=15")
        let minutes = { (text: String?) in
            (text ?? "").split(separator: ":").compactMap { Int($0) }.reduce(0) { $0 * 60 + $1 }
        }
        #expect(minutes(kualaLumpur["Sunrise"]) - minutes(kualaLumpur["Fajr"]) == 76, "\(kualaLumpur)")
    }

    @Test func theMinutesApiAladhanComAddsAreAddedAndShownInMetaOffset() throws {
        // Given: Dubai's method without and with the minutes (api.aladhan.com adds dhuhr, maghrib and
        // sunset +3)
        let dubai = try timings(Self.london + "&method=16")
        let offset = try #require(try meta(Self.london + "&method=16")["offset"] as? [String: Int])
        let plain = try timings(Self.london + "&method=99&methodSettings=18.2,null,18.2")
        // Then: the minutes are there, and meta.offset says so
        #expect(offset["Dhuhr"] == 3 && offset["Maghrib"] == 3 && offset["Sunset"] == 3 && offset["Fajr"] == 0)
        #expect(dubai["Dhuhr"] == "13:02" && plain["Dhuhr"] == "12:59")
        #expect(dubai["Fajr"] == plain["Fajr"] && dubai["Sunrise"] == plain["Sunrise"])
        // A request's own minutes for a time replace the method's (Turkey: sunrise −7 unless tuned)
        let turkey = try #require(
            try meta(Self.london + "&method=13&tune=0,0,2")["offset"] as? [String: Int])
        #expect(turkey["Sunrise"] == 2 && turkey["Dhuhr"] == 5 && turkey["Asr"] == 4 && turkey["Maghrib"] == 7)
    }

    @Test func jakimHasTheAuthoritysCurrentFajrAngle() throws {
        // When
        let meta = try meta(
            "/v1/timings/01-03-2027?latitude=3.139&longitude=101.6869&timezonestring=Asia/Kuala_Lumpur&method=17")
        let methods = try data("/v1/methods")
        // Then: 18° (JAKIM since November 2019), not AlAdhan's 20°, and the method says why
        let params = (meta["method"] as? [String: Any])?["params"] as? [String: Any]
        #expect(params?["Fajr"] as? Double == 18 && params?["Isha"] as? Double == 18)
        let jakim = try #require(methods["JAKIM"] as? [String: Any])
        #expect((jakim["source"] as? String)?.contains("November 2019") == true)
        #expect(CalculationMethod.jakim.parameters.fajrAngle == 18)
        #expect(CalculationMethod.jakim.source.contains("116th Muzakarah"))
    }

    @Test func everyMethodSaysWhereItComesFrom() throws {
        // When
        let methods = try data("/v1/methods")
        // Then: AlAdhan's keys, plus a source and PrayKit's arithmetic for each
        #expect(methods.count == 24)
        for (code, value) in methods {
            let method = try #require(value as? [String: Any])
            #expect((method["source"] as? String)?.isEmpty == false, "\(code)")
            if code != "CUSTOM" {
                #expect((method["calculation"] as? String)?.contains("Asr") == true, "\(code)")
                #expect(method["id"] is Int && method["name"] is String && method["params"] is [String: Any])
            }
        }
        for method in CalculationMethod.allCases { #expect(!method.source.isEmpty, "\(method)") }
    }

    @Test func withoutAMethodTheCountrysMethodAsPraykitTimesChoosesIt() throws {
        // Given: the country at each place (AlAdhan's nearest authority would be Kemenag for Sydney and
        // the Chatham Islands, Morocco for São Paulo, MWL for London)
        let countries: [(String, Double, Double, String, Int)] = [
            ("Sydney", -33.8688, 151.2093, "AU", 3), ("São Paulo", -23.5505, -46.6333, "BR", 3),
            ("London", 51.5074, -0.1278, "GB", 15), ("Chatham Islands", -43.95, -176.55, "NZ", 3),
            ("Jakarta", -6.2088, 106.8456, "ID", 20), ("Makkah", 21.4225, 39.8262, "SA", 4),
        ]
        for (name, latitude, longitude, country, id) in countries {
            let routes = routes(AlAdhanRoutes.Lookups(country: { _ in country }))
            // When
            let meta = try meta(
                "/v1/timings/01-03-2027?latitude=\(latitude)&longitude=\(longitude)&timezonestring=UTC",
                routes: routes)
            // Then: the method of the country's row, by AlAdhan's number
            #expect((meta["method"] as? [String: Any])?["id"] as? Int == id, "\(name)")
            #expect(CalculationMethod(alAdhanID: id) == MethodChoice.forCountry(country, latitude: latitude).method)
        }
        // Without a country (at sea, or no lookup): the Muslim World League
        let unknown = try meta("/v1/timings/01-03-2027?latitude=-40&longitude=-140&timezonestring=UTC")
        #expect((unknown["method"] as? [String: Any])?["id"] as? Int == 3)
    }

    @Test func theCustomMethodNeedsItsSettings() throws {
        // When: method=99 with nothing to go by (AlAdhan silently answers 15° and 15°)
        for settings in ["", "&methodSettings=", "&methodSettings=null,null,null"] {
            let response = routes().respond(to: ServerAPI.Request(target: Self.london + "&method=99" + settings))
            let body = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            // Then
            #expect(response.status == 400, "\(settings)")
            #expect((body?["data"] as? String)?.contains("methodSettings") == true)
        }
        // A fajr alone keeps AlAdhan's 15° isha
        let meta = try meta(Self.london + "&method=99&methodSettings=18,null,null")
        let params = (meta["method"] as? [String: Any])?["params"] as? [String: Any]
        #expect(params?["Fajr"] as? Double == 18 && params?["Isha"] as? Double == 15)
    }

    @Test func midnightDaySameMeasuresTheNightAsAlAdhanDoes() throws {
        // When
        let next = try timings(Self.london + "&method=2")
        let same = try timings(Self.london + "&method=2&midnightDay=same")
        // Then: PrayKit's night runs to the next day's sunrise (a minute earlier in April); AlAdhan's to
        // the same day's, 24 hours on: 00:59 in its engine test
        #expect(next["Midnight"] == "00:58" && same["Midnight"] == "00:59")
        #expect(same["Fajr"] == next["Fajr"] && same["Isha"] == next["Isha"])
        // The calendar agrees with the day, and a value other than next or same is refused
        let calendar = routes().respond(
            to: ServerAPI.Request(
                target: "/v1/calendar/2014/4?latitude=51.508515&longitude=-0.1254872&timezonestring=Europe/London"
                    + "&method=2&midnightDay=same"))
        let body = try JSONSerialization.jsonObject(with: calendar.body) as? [String: Any]
        let days = try #require(body?["data"] as? [[String: Any]])
        let day = try #require(days[23]["timings"] as? [String: String])
        #expect(day["Midnight"]?.hasPrefix("00:59 ") == true, "\(day)")
        let refused = routes().respond(to: ServerAPI.Request(target: Self.london + "&midnightDay=today"))
        #expect(refused.status == 400)
    }
}
