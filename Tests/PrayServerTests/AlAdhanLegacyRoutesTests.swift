import Foundation
import PrayCore
import PrayMocks
import PrayPlaces
import PrayServer
import PrayServices
import Testing

/// AlAdhan's older, unversioned paths (`/timings/{timestamp}`, `/calendarByCity`, `/gToH`, …) and the
/// requests of the clients that still send them — MagicMirror's prayer modules and Home Assistant's older
/// Islamic prayer times integration — answered byte for byte as the `/v1` routes answer them. The request
/// shapes are those of the clients' published source (see docs/home.md).
@Suite(.tags(.concurrency)) struct AlAdhanLegacyRoutesTests {
    /// 2026-12-02 17:12:43 UTC: 18:12:43 in Amsterdam, 00:12:43 on 3 December in Jakarta.
    static let now = Date(timeIntervalSince1970: 1_796_231_563)
    let prayers = PrayerServiceAstronomical(log: .silent)

    func routes(now: Date = Self.now) -> AlAdhanRoutes {
        AlAdhanRoutes(
            calculator: prayers, hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent),
            qibla: QiblaServiceGeodesic(log: .silent), lookups: AlAdhanMoreRoutesTests.gazetteer,
            clock: PrayClockFake(now: now), log: .silent)
    }

    /// The answer to `target` and to the same target with `/v1` before its path.
    func bothAnswers(_ target: String, routes: AlAdhanRoutes? = nil) -> (ServerAPI.Response, ServerAPI.Response) {
        let routes = routes ?? self.routes()
        return (
            routes.respond(to: ServerAPI.Request(target: target)),
            routes.respond(to: ServerAPI.Request(target: "/v1" + target))
        )
    }

    /// The `data.timings` object of an answer, as the clients read it.
    func timings(_ response: ServerAPI.Response) throws -> [String: String] {
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        let data = try #require(object?["data"] as? [String: Any], "\(String(decoding: response.body, as: UTF8.self))")
        return try #require(data["timings"] as? [String: String])
    }

    // MARK: - Every route without /v1

    /// A request for every route of /v1, with the parameters each needs.
    static let everyRoute = [
        "/timings/01-03-2027?latitude=21.4225&longitude=39.8262&method=4",
        "/timings/1803884400?latitude=21.4225&longitude=39.8262&iso8601=true",
        "/timings?latitude=51.5074&longitude=-0.1278&method=3&school=1",
        "/timingsByCity/01-03-2027?city=London&country=GB&method=3",
        "/timingsByAddress/01-03-2027?address=Makkah,%20Saudi%20Arabia",
        "/nextPrayer/01-03-2027?latitude=21.4225&longitude=39.8262&method=4",
        "/nextPrayerByAddress?address=London,%20UK",
        "/calendar/2027/3?latitude=51.5074&longitude=-0.1278&method=15&tune=0,2,0,0,0,0,0,-3,0",
        "/calendar?latitude=51.5074&longitude=-0.1278&year=2027&month=2",
        "/calendarByCity/2027/3?city=Istanbul&country=TR&method=13",
        "/calendarByAddress/2027/3?address=Makkah",
        "/hijriCalendar/1448/9?latitude=21.4225&longitude=39.8262&method=4",
        "/hijriCalendarByCity/1448/9?city=London&country=GB",
        "/hijriCalendarByAddress/1448/9?address=Makkah",
        "/gToH/01-03-2027", "/gToH?date=01-03-2027", "/hToG/01-10-1448", "/gToHCalendar/3/2027",
        "/hToGCalendar/9/1448", "/islamicHolidaysByHijriYear/1446", "/hijriHolidays/10/12", "/specialDays",
        "/islamicMonths", "/nextHijriHoliday", "/currentIslamicYear", "/currentIslamicMonth",
        "/islamicYearFromGregorianForRamadan/2027", "/qibla/40.7128/-74.006", "/methods",
        "/currentTime?zone=Asia/Riyadh", "/currentDate?zone=Europe/London", "/currentTimestamp?zone=UTC",
    ]

    @Test(arguments: everyRoute) func aRouteWithoutV1IsAnsweredAsV1AnswersIt(_ target: String) throws {
        // Given: a request AlAdhan's older clients send without /v1
        // When
        let (legacy, versioned) = bothAnswers(target)
        // Then: status, fields and body are /v1's, and /v1 answered it
        #expect(versioned.status == 200, "\(String(decoding: versioned.body, as: UTF8.self))")
        #expect(legacy.status == versioned.status)
        #expect(legacy.headers == versioned.headers)
        #expect(legacy.body == versioned.body)
    }

    @Test func badInputAndUnknownPathsAreRefusedAlikeWithAndWithoutV1() throws {
        // Given: a bad date, a missing latitude, and paths that are no route
        for target in ["/timings/31-02-2027?latitude=1&longitude=2", "/timings?method=3", "/gToH/32-01-2027"] {
            // When
            let (legacy, versioned) = bothAnswers(target)
            // Then: the same refusal in the envelope (gToH's is AlAdhan's 404)
            #expect((400..<500).contains(legacy.status) && legacy.status == versioned.status, "\(target)")
            #expect(legacy.body == versioned.body, "\(target)")
        }
        let routes = routes()
        for path in ["/", "/v1", "/v1/v1/timings", "/timingz", "/status/v1"] {
            #expect(routes.respond(to: ServerAPI.Request(target: path)).status == 404, "\(path)")
        }
        // /status stays unversioned, as AlAdhan has it
        #expect(routes.respond(to: ServerAPI.Request(target: "/status")).status == 200)
    }

    // MARK: - MagicMirror: MMM-PrayerTime

    /// MMM-PrayerTime (slametps) before its 2022 move to /v1: `/timings/{unix}` for now and for a day
    /// later, with `latitude`, `longitude`, `timezonestring` and `method`, and — from 2019 — the options
    /// it sends only when set (`methodSettings` and `tune` through `encodeURI`).
    @Test func magicMirrorsPrayerTimeModuleGetsV1sAnswers() throws {
        let unix = Int(Self.now.timeIntervalSince1970)
        let jakarta = "latitude=-6.2088&longitude=106.8456&timezonestring=Asia/Jakarta&method=5"
        let options =
            "&methodSettings=20,null,18&school=1&adjustment=1&tune=5,3,5,7,9,7"
            + "&midnightMode=1&latitudeAdjustmentMethod=3"
        for query in [jakarta, jakarta + options, "latitude=-6.2088&longitude=106.8456&method=5"] {
            for timestamp in [unix, unix + 86_400] {
                // When
                let (legacy, versioned) = bothAnswers("/timings/\(timestamp)?\(query)")
                // Then: /v1's answer, whose timings the module reads by name
                #expect(legacy.status == 200 && legacy.body == versioned.body, "\(query)")
                let timings = try timings(legacy)
                for name in ["Fajr", "Sunrise", "Dhuhr", "Asr", "Sunset", "Maghrib", "Isha", "Imsak", "Midnight"] {
                    #expect(timings[name]?.count == 5, "\(name): \(timings[name] ?? "none")")
                }
            }
        }
        // The timestamp's day in the place's zone: 3 December in Jakarta (UTC+7), 4 December a day on
        let (today, _) = bothAnswers("/timings/\(unix)?\(jakarta)")
        let (tomorrow, _) = bothAnswers("/timings/\(unix + 86_400)?\(jakarta)")
        let days = [today, tomorrow].map { String(decoding: $0.body, as: UTF8.self) }
        #expect(days[0].contains("\"readable\":\"03 Dec 2026\"") && days[1].contains("\"readable\":\"04 Dec 2026\""))
    }

    // MARK: - MagicMirror: MMM-MyPrayerTimes

    /// MMM-MyPrayerTimes (htilburgs) builds `/v1/timings/` + `new Date()` once when the mirror starts and
    /// sends it every hour with `latitude`, `longitude`, `method` and `tune` (nine zeros by default);
    /// `fetch` writes the spaces as `%20`.
    static let javaScriptDate = "Wed%20Dec%2002%202026%2018:12:43%20GMT+0100%20(Central%20European%20Standard%20Time)"
    static let amsterdam = "latitude=52.3676&longitude=4.9041&method=3&tune=0,0,0,0,0,0,0,0,0"

    @Test func magicMirrorsMyPrayerTimesModuleGetsTodaysTimesForItsJavaScriptDate() throws {
        // Given: the URL the module made when the mirror started
        let target = "/v1/timings/\(Self.javaScriptDate)?\(Self.amsterdam)"
        for now in [Self.now, Self.now.addingTimeInterval(86_400)] {
            let routes = routes(now: now)
            // When: it asks again, that day and the next
            let answer = routes.respond(to: ServerAPI.Request(target: target))
            let today = routes.respond(to: ServerAPI.Request(target: "/v1/timings?\(Self.amsterdam)"))
            // Then: today's answer, as for no date, and cached only until midnight, as AlAdhan gives it
            #expect(answer.status == 200 && answer.body == today.body)
            #expect(answer.headers == today.headers)
            #expect(answer.headers["Cache-Control"] != "public, max-age=86400")
            #expect(try timings(answer)["Fajr"] != nil)
        }
        let day = String(decoding: routes().respond(to: ServerAPI.Request(target: target)).body, as: UTF8.self)
        #expect(day.contains("\"readable\":\"02 Dec 2026\""))
    }

    @Test func onlyAJavaScriptDatesExactShapeIsReadAsToday() {
        // Given: texts that look like dates but are not a JavaScript Date's text
        let texts = [
            "Wed Dec 02 2026", "Wed Dec 02 2026 18:12:43", "Wed Dec 2 2026 18:12:43 GMT+0100",
            "Wed Dez 02 2026 18:12:43 GMT+0100", "Wed Dec 02 2026 18:12:43 GMT+01:00",
            "Wed Dec 02 2026 18:12:43 UTC+0100", "Wed Dec 02 2026 18:12:43 GMT+0100 CET", "now",
        ]
        let routes = routes()
        for text in texts {
            // When
            let target = "/v1/timings/\(text.replacingOccurrences(of: " ", with: "%20"))?\(Self.amsterdam)"
            let answer = routes.respond(to: ServerAPI.Request(target: target))
            // Then: refused, as any date the server cannot read
            #expect(answer.status == 400, "\(text)")
        }
        // A browser's text without the zone's name, and one west of Greenwich, are read
        for text in ["Sun Mar 01 2027 05:00:00 GMT-0500", "Sun Mar 01 2027 05:00:00 GMT-0500 (Eastern Standard Time)"] {
            let target = "/timings/\(text.replacingOccurrences(of: " ", with: "%20"))?\(Self.amsterdam)"
            #expect(routes.respond(to: ServerAPI.Request(target: target)).status == 200, "\(text)")
        }
    }

    /// MMM-PrayerTimes (atikur-rabbi) asks `/v1/timingsByAddress?address=Dhaka,Bangladesh&method=8` for
    /// today and the same with `&date=tomorrow` for tomorrow, and shows nothing until both answer.
    @Test func magicMirrorsPrayerTimesModuleGetsTodayAndTomorrowByAddress() throws {
        // Given
        let routes = routes()
        let base = "/v1/timingsByAddress?address=Dhaka,Bangladesh&method=8"
        // When
        let today = routes.respond(to: ServerAPI.Request(target: base))
        let tomorrow = routes.respond(to: ServerAPI.Request(target: base + "&date=tomorrow"))
        // Then: 200 for both, today's and tomorrow's days in Dhaka (UTC+6: 23:12 on 2 December) …
        #expect(today.status == 200 && tomorrow.status == 200, "\(String(decoding: tomorrow.body, as: UTF8.self))")
        let days = [today, tomorrow].map { String(decoding: $0.body, as: UTF8.self) }
        #expect(days[0].contains("\"readable\":\"02 Dec 2026\"") && days[1].contains("\"readable\":\"03 Dec 2026\""))
        #expect(try timings(tomorrow)["Fajr"] != nil)
        // … tomorrow's the bytes of the day's own date, and neither cached past the zone's midnight
        let dated = routes.respond(to: ServerAPI.Request(target: base + "&date=03-12-2026"))
        #expect(tomorrow.body == dated.body)
        #expect(today.headers["Cache-Control"] == tomorrow.headers["Cache-Control"])
        #expect(tomorrow.headers["Cache-Control"] != "public, max-age=86400")
        // And: the words only, as written; anything else is refused
        #expect(routes.respond(to: ServerAPI.Request(target: base + "&date=yesterday")).status == 400)
    }

    /// MMM-PrayerTimePro (hashcx) asks `/v1/timings/{DD-MM-YYYY}` for each day shown, with `latitude`,
    /// `longitude`, `method`, `school`, `midnightMode` and `latitudeAdjustmentMethod` always (0, 0 and 3
    /// by default) and `timezonestring` when set, and reads `timings`, `meta.timezone` and the Hijri
    /// date's `day`, `month.en` and `year`.
    @Test func magicMirrorsPrayerTimeProModuleGetsWhatItReads() throws {
        // Given: its query for two days in Amsterdam, without a zone
        let query = "latitude=52.3676&longitude=4.9041&method=3&school=0&midnightMode=0&latitudeAdjustmentMethod=3"
        for date in ["02-12-2026", "03-12-2026"] {
            // When
            let answer = routes().respond(to: ServerAPI.Request(target: "/v1/timings/\(date)?\(query)"))
            // Then: the zone at the coordinates in meta, and the Hijri date's parts
            let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
            let data = try #require(object?["data"] as? [String: Any])
            #expect((data["meta"] as? [String: Any])?["timezone"] as? String == "Europe/Amsterdam")
            let hijri = try #require((data["date"] as? [String: Any])?["hijri"] as? [String: Any])
            #expect(hijri["day"] is String && hijri["year"] is String)
            #expect((hijri["month"] as? [String: Any])?["en"] is String)
            #expect(try timings(answer)["Isha"] != nil)
        }
    }

    // MARK: - Home Assistant

    /// Home Assistant's islamic_prayer_times integration through prayer-times-calculator up to 0.0.5:
    /// `/timings/{the timestamp of the day's local midnight}` with `latitude`, `longitude` and `method`
    /// (0.0.3, Home Assistant 0.8x to 0.11x), then `school`, `midnightMode`, `latitudeAdjustmentMethod`,
    /// `tune` and `methodSettings` when set, form-encoded by `requests` (commas as `%2C`).
    @Test func homeAssistantsOlderIntegrationGetsV1sAnswers() throws {
        // Given: midnight of 2 December 2026 on a clock in UTC, and in New York
        let midnights = [1_796_169_600, 1_796_169_600 + 5 * 3600]
        let queries = [
            "latitude=40.7128&longitude=-74.006&method=2",
            "latitude=40.7128&longitude=-74.006&method=2&school=1&midnightMode=1&latitudeAdjustmentMethod=3"
                + "&tune=0%2C1%2C0%2C2%2C0%2C0%2C0%2C-1%2C0",
            "latitude=51.5074&longitude=-0.1278&method=99&methodSettings=18%2Cnull%2C17",
        ]
        for midnight in midnights {
            for query in queries {
                // When
                let (legacy, versioned) = bothAnswers("/timings/\(midnight)?\(query)")
                // Then: /v1's answer, with the seven times the sensors read as HH:MM
                #expect(legacy.status == 200 && legacy.body == versioned.body, "\(query)")
                let timings = try timings(legacy)
                for name in ["Fajr", "Sunrise", "Dhuhr", "Asr", "Maghrib", "Isha", "Midnight"] {
                    let time = try #require(timings[name])
                    #expect(time.count == 5 && time.dropFirst(2).hasPrefix(":"), "\(name): \(time)")
                }
            }
        }
        // The tune reached the times: fajr a minute later than without it
        let plain = try timings(bothAnswers("/timings/\(midnights[1])?\(queries[0])&school=1").0)
        let tuned = try timings(bothAnswers("/timings/\(midnights[1])?\(queries[1])").0)
        #expect(plain["Fajr"] != tuned["Fajr"])
    }
}
