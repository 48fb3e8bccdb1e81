import Foundation
import PrayCore
import PrayMocks
import PrayServer
import PrayServices
import Testing

/// The AlAdhan routes as plain functions, without sockets: AlAdhan's exact keys, PrayKit's times,
/// AlAdhan's parameters, caching, and a 4xx envelope for every bad input.
@Suite(.tags(.concurrency)) struct AlAdhanRoutesTests {
    /// 2026-11-30 12:34:56 UTC.
    static let now = Date(timeIntervalSince1970: 1_796_042_096)
    let prayers = PrayerServiceAstronomical(log: .silent)

    func routes(_ lookups: AlAdhanRoutes.Lookups = .none) -> AlAdhanRoutes {
        AlAdhanRoutes(
            calculator: prayers, hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent),
            qibla: QiblaServiceGeodesic(log: .silent), lookups: lookups, clock: PrayClockFake(now: Self.now),
            log: .silent)
    }

    static let makkah = "latitude=21.4225&longitude=39.8262&timezonestring=Asia/Riyadh"

    /// The response and its JSON object.
    func get(
        _ target: String, headers: ServerAPI.Fields = [:], routes: AlAdhanRoutes? = nil
    ) throws -> (ServerAPI.Response, [String: Any]) {
        let response = (routes ?? self.routes()).respond(to: ServerAPI.Request(target: target, headers: headers))
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
        return (response, object)
    }

    func keys(_ value: Any?) -> Set<String> {
        Set((value as? [String: Any])?.keys.map { $0 } ?? [])
    }

    /// `HH:mm` of an instant in a zone.
    func clock(_ date: Date?, _ zone: TimeZone) -> String {
        guard let date else { return "-----" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    // MARK: - Shapes

    @Test func timingsCarryAlAdhansKeysAndNoOthers() throws {
        // When
        let (response, body) = try get("/v1/timings/01-03-2027?\(Self.makkah)&method=4")
        // Then: the envelope and each object with exactly AlAdhan's keys
        #expect(response.status == 200)
        #expect(keys(body) == ["code", "status", "data"])
        #expect(body["code"] as? Int == 200 && body["status"] as? String == "OK")
        let data = try #require(body["data"] as? [String: Any])
        #expect(keys(data) == ["timings", "date", "meta"])
        #expect(
            keys(data["timings"]) == [
                "Fajr", "Sunrise", "Dhuhr", "Asr", "Sunset", "Maghrib", "Isha", "Imsak", "Midnight", "Firstthird",
                "Lastthird",
            ])
        let date = try #require(data["date"] as? [String: Any])
        #expect(keys(date) == ["readable", "timestamp", "hijri", "gregorian"])
        #expect(date["readable"] as? String == "01 Mar 2027")
        #expect(
            keys(date["gregorian"])
                == ["date", "format", "day", "weekday", "month", "year", "designation", "lunarSighting"])
        #expect(
            keys(date["hijri"])
                == [
                    "date", "format", "day", "weekday", "month", "year", "designation", "holidays", "adjustedHolidays",
                    "method",
                ])
        let hijri = try #require(date["hijri"] as? [String: Any])
        #expect(keys(hijri["weekday"]) == ["en", "ar"])
        #expect(keys(hijri["month"]) == ["number", "en", "ar", "days"])
        let gregorian = try #require(date["gregorian"] as? [String: Any])
        #expect(gregorian["date"] as? String == "01-03-2027" && gregorian["day"] as? String == "01")
        #expect(keys(gregorian["weekday"]) == ["en"] && keys(gregorian["month"]) == ["number", "en"])
        let meta = try #require(data["meta"] as? [String: Any])
        #expect(
            keys(meta) == [
                "latitude", "longitude", "timezone", "method", "latitudeAdjustmentMethod", "midnightMode", "school",
                "offset",
            ])
        #expect(keys(meta["method"]) == ["id", "name", "params", "location"])
        #expect(
            keys(meta["offset"]) == [
                "Imsak", "Fajr", "Sunrise", "Dhuhr", "Asr", "Maghrib", "Sunset", "Isha", "Midnight",
            ])
        #expect(
            meta["timezone"] as? String == "Asia/Riyadh" && meta["latitudeAdjustmentMethod"] as? String == "ANGLE_BASED"
        )
        #expect(meta["school"] as? String == "STANDARD" && meta["midnightMode"] as? String == "STANDARD")
    }

    @Test func timesArePrayKitsAndUmmAlQurasRamadanIshaIsTwoHoursAfterMaghrib() throws {
        // Given: 1 March 2027 is 22 Ramadan 1448 (Umm al-Qura)
        let (_, body) = try get("/v1/timings/01-03-2027?\(Self.makkah)&method=4")
        let data = try #require(body["data"] as? [String: Any])
        let timings = try #require(data["timings"] as? [String: String])
        // When: PrayKit's own calculation with the same parameters
        let zone = try #require(TimeZone(identifier: "Asia/Riyadh"))
        var parameters = CalculationParameters(method: .ummAlQura)
        parameters.highLatitudeRule = .twilightAngle
        let schedule = try prayers.schedules(
            for: PrayerAPI.Request(
                coordinates: try Coordinates(latitude: 21.4225, longitude: 39.8262), timeZone: zone,
                date: try CivilDate(parsing: "2027-03-01"), parameters: parameters))[0]
        // Then
        let names: [(String, Prayer)] = [
            ("Fajr", .fajr), ("Sunrise", .sunrise), ("Dhuhr", .dhuhr), ("Asr", .asr), ("Sunset", .sunset),
            ("Maghrib", .maghrib), ("Isha", .isha), ("Imsak", .imsak), ("Midnight", .midnight),
            ("Firstthird", .firstThird), ("Lastthird", .lastThird),
        ]
        for (key, prayer) in names { #expect(timings[key] == clock(schedule[prayer]?.date, zone), "\(key)") }
        let hijri = try #require((data["date"] as? [String: Any])?["hijri"] as? [String: Any])
        #expect(
            hijri["date"] as? String == "22-09-1448"
                && (hijri["month"] as? [String: Any])?["en"] as? String == "Ramaḍān")
        let isha = try #require(schedule[.isha]?.date)
        let maghrib = try #require(schedule[.maghrib]?.date)
        #expect(isha.timeIntervalSince(maghrib) == 120 * 60)
    }

    @Test func iso8601GivesInstantsWithTheZonesOffset() throws {
        let (_, body) = try get("/v1/timings/01-03-2027?\(Self.makkah)&method=4&iso8601=true")
        let timings = try #require((body["data"] as? [String: Any])?["timings"] as? [String: String])
        let fajr = try #require(timings["Fajr"])
        #expect(fajr.hasPrefix("2027-03-01T") && fajr.hasSuffix(":00+03:00"), "\(fajr)")
        #expect(try Date(fajr, strategy: .iso8601) > Date(timeIntervalSince1970: 1_803_800_000))
    }

    // MARK: - Parameters

    func timings(_ query: String) throws -> [String: String] {
        let (response, body) = try get("/v1/timings/21-06-2027?latitude=51.5074&longitude=-0.1278&\(query)")
        #expect(response.status == 200, "\(body)")
        return (body["data"] as? [String: Any])?["timings"] as? [String: String] ?? [:]
    }

    func minutes(_ text: String?) -> Int {
        let parts = (text ?? "").split(separator: ":").compactMap { Int($0.prefix(2)) }
        return parts.count == 2 ? parts[0] * 60 + parts[1] : -1
    }

    @Test func tuneMovesOnlyItsOwnTime() throws {
        // Given
        let plain = try timings("method=3&timezonestring=Europe/London")
        // When: +5 for Fajr and +3 for Sunset (tune order Imsak,Fajr,Sunrise,Dhuhr,Asr,Maghrib,Sunset,Isha,Midnight)
        let tuned = try timings("method=3&timezonestring=Europe/London&tune=0,5,0,0,0,0,3,0,0")
        // Then: imsak (from fajr), maghrib (from sunset) and midnight (from sunset) do not move
        #expect(minutes(tuned["Fajr"]) == minutes(plain["Fajr"]) + 5)
        #expect(minutes(tuned["Sunset"]) == minutes(plain["Sunset"]) + 3)
        for key in ["Imsak", "Maghrib", "Midnight", "Firstthird", "Lastthird", "Isha", "Dhuhr"] {
            #expect(tuned[key] == plain[key], "\(key)")
        }
    }

    @Test func parametersAreReadAsAlAdhanReadsThem() throws {
        let base = "/v1/timings/21-06-2027?latitude=51.5074&longitude=-0.1278&timezonestring=Europe/London"
        // No method and no country lookup: the Muslim World League (AlAdhanMethodTests: the country's)
        let (_, unnamed) = try get(base)
        let meta = try #require((unnamed["data"] as? [String: Any])?["meta"] as? [String: Any])
        #expect((meta["method"] as? [String: Any])?["id"] as? Int == 3)
        #expect(meta["latitudeAdjustmentMethod"] as? String == "ANGLE_BASED")
        // school=1 is Hanafi: a later Asr
        let shafi = try timings("method=3&timezonestring=Europe/London")
        let hanafi = try timings("method=3&timezonestring=Europe/London&school=1")
        #expect(minutes(hanafi["Asr"]) > minutes(shafi["Asr"]) + 30)
        // midnightMode=1 is Jafari (sunset to fajr): an earlier midnight in London's short June night
        let jafari = try timings("method=3&timezonestring=Europe/London&midnightMode=1")
        #expect(jafari["Midnight"] != shafi["Midnight"])
        // latitudeAdjustmentMethod 1, 2, 3 name their rules
        for (id, name) in [(0, "NONE"), (1, "MIDDLE_OF_THE_NIGHT"), (2, "ONE_SEVENTH"), (3, "ANGLE_BASED")] {
            let (_, body) = try get(base + "&method=3&latitudeAdjustmentMethod=\(id)")
            let meta = (body["data"] as? [String: Any])?["meta"] as? [String: Any]
            #expect(meta?["latitudeAdjustmentMethod"] as? String == name)
        }
        // method=99 with methodSettings: a custom method, shown as AlAdhan shows it (no id)
        let (_, custom) = try get(base + "&method=99&methodSettings=18.5,null,90%20min&school=1&midnightMode=1")
        let customMeta = try #require((custom["data"] as? [String: Any])?["meta"] as? [String: Any])
        let method = try #require(customMeta["method"] as? [String: Any])
        #expect(keys(method) == ["name", "params"] && method["name"] as? String == "Custom")
        #expect((method["params"] as? [String: Any])?["Isha"] as? String == "90 min")
        #expect(customMeta["school"] as? String == "HANAFI" && customMeta["midnightMode"] as? String == "JAFARI")
    }

    @Test func theDateComesFromThePathTheQueryOrATimestamp() throws {
        let place = "latitude=21.4225&longitude=39.8262&method=4&timezonestring=Asia/Riyadh"
        let (path, pathBody) = try get("/v1/timings/01-03-2027?\(place)")
        let (query, queryBody) = try get("/v1/timings?date=01-03-2027&\(place)")
        // 1 March 2027 10:00 in Riyadh
        let (stamp, stampBody) = try get("/v1/timings/1803884400?\(place)")
        #expect(path.body == query.body && path.body == stamp.body)
        #expect(path.headers["Cache-Control"] == "public, max-age=86400")
        #expect(keys(pathBody) == keys(queryBody) && keys(queryBody) == keys(stampBody))
        // Without a date: today in the zone (15:34:56 in Riyadh), cached until its midnight
        let (today, todayBody) = try get("/v1/timings?\(place)")
        let date = (todayBody["data"] as? [String: Any])?["date"] as? [String: Any]
        #expect(date?["readable"] as? String == "30 Nov 2026")
        #expect(today.headers["Cache-Control"] == "public, max-age=\(8 * 3600 + 25 * 60 + 4)")
    }

    @Test func theZoneIsTimezonestringElseTheLookupElseUTC() throws {
        let query = "/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&method=4"
        let (_, plain) = try get(query)
        let plainMeta = (plain["data"] as? [String: Any])?["meta"] as? [String: Any]
        #expect(plainMeta?["timezone"] as? String == "UTC")
        let riyadh = try #require(TimeZoneName("Asia/Riyadh"))
        let (_, looked) = try get(query, routes: routes(AlAdhanRoutes.Lookups(zone: { _ in riyadh })))
        let lookedMeta = (looked["data"] as? [String: Any])?["meta"] as? [String: Any]
        #expect(lookedMeta?["timezone"] as? String == "Asia/Riyadh")
    }

    @Test func citiesNeedAGazetteer() throws {
        // Without one: a clear 400
        let (refused, refusedBody) = try get("/v1/timingsByCity/01-03-2027?city=Makkah&country=SA&method=4")
        #expect(refused.status == 400 && (refusedBody["data"] as? String)?.contains("gazetteer") == true)
        // With one
        let makkah = AlAdhanRoutes.Place(
            coordinates: try Coordinates(latitude: 21.4225, longitude: 39.8262),
            zone: try #require(TimeZoneName("Asia/Riyadh")))
        let lookups = AlAdhanRoutes.Lookups(city: { query in query.city == "Makkah" ? makkah : nil })
        let (found, foundBody) = try get(
            "/v1/timingsByCity/01-03-2027?city=Makkah&country=SA&method=4", routes: routes(lookups))
        let (byPlace, _) = try get("/v1/timings/01-03-2027?\(Self.makkah)&method=4")
        #expect(found.status == 200 && found.body == byPlace.body, "\(foundBody)")
        let (unknown, _) = try get("/v1/timingsByCity?city=Atlantis&country=XX", routes: routes(lookups))
        #expect(unknown.status == 400)
    }

    @Test func aTimeTheSunDoesNotGiveIsDashes() throws {
        // Tromsø in June without a high-latitude rule: no fajr and no isha (and the midnight sun)
        let (_, body) = try get(
            "/v1/timings/21-06-2027?latitude=69.65&longitude=18.96&method=3&timezonestring=Europe/Oslo"
                + "&latitudeAdjustmentMethod=0")
        let tromso = try #require((body["data"] as? [String: Any])?["timings"] as? [String: String])
        #expect(tromso["Fajr"] == "-----" && tromso["Isha"] == "-----")
        #expect(tromso["Sunrise"] == "-----" && tromso["Dhuhr"]?.utf8.count == 5 && tromso["Dhuhr"] != "-----")
        // The calendar of the same days: dashes without the zone's abbreviation, the other times with it
        let (_, month) = try get(
            "/v1/calendar/2027/6?latitude=69.65&longitude=18.96&method=3&timezonestring=Europe/Oslo"
                + "&latitudeAdjustmentMethod=0")
        let days = try #require(month["data"] as? [[String: Any]])
        let midsummer = try #require(days[20]["timings"] as? [String: String])
        #expect(midsummer["Fajr"] == "-----" && midsummer["Sunrise"] == "-----" && midsummer["Isha"] == "-----")
        #expect(midsummer["Dhuhr"] == "\(tromso["Dhuhr"] ?? "") (+02)")
    }

    // MARK: - Calendars and dates

    @Test func aMonthlyCalendarHasEveryDayWithTheZonesAbbreviation() throws {
        let (response, body) = try get("/v1/calendar/2027/2?\(Self.makkah)&method=4")
        #expect(response.status == 200)
        let days = try #require(body["data"] as? [[String: Any]])
        #expect(days.count == 28)
        for (index, day) in days.enumerated() {
            #expect(keys(day) == ["timings", "date", "meta"])
            let timings = day["timings"] as? [String: String]
            #expect(timings?["Fajr"]?.hasSuffix(" (+03)") == true)
            let gregorian = (day["date"] as? [String: Any])?["gregorian"] as? [String: Any]
            #expect(gregorian?["date"] as? String == String(format: "%02d-02-2027", index + 1))
        }
        // The query form and the annual form agree
        let (query, _) = try get("/v1/calendar?year=2027&month=2&\(Self.makkah)&method=4")
        #expect(query.body == response.body)
        let (_, annual) = try get("/v1/calendar/2027?\(Self.makkah)&method=4")
        let months = try #require(annual["data"] as? [String: Any])
        #expect(Set(months.keys) == Set((1...12).map(String.init)))
        #expect((months["2"] as? [Any])?.count == 28 && (months["12"] as? [Any])?.count == 31)
    }

    @Test func aHijriCalendarCoversTheHijriMonth() throws {
        let (_, body) = try get("/v1/hijriCalendar/1448/9?\(Self.makkah)&method=4")
        let days = try #require(body["data"] as? [[String: Any]])
        #expect((29...30).contains(days.count))
        let first = (days.first?["date"] as? [String: Any])?["hijri"] as? [String: Any]
        #expect(first?["date"] as? String == "01-09-1448" && first?["holidays"] as? [String] == ["1st Day of Ramadan"])
    }

    @Test func gregorianAndHijriDatesConvertBothWays() throws {
        let (_, forward) = try get("/v1/gToH/01-03-2027")
        let data = try #require(forward["data"] as? [String: Any])
        #expect(keys(data) == ["hijri", "gregorian"])
        #expect((data["hijri"] as? [String: Any])?["date"] as? String == "22-09-1448")
        let (_, query) = try get("/v1/gToH?date=01-03-2027")
        #expect(keys(query["data"]) == ["hijri", "gregorian"])
        let (_, back) = try get("/v1/hToG/22-09-1448")
        let gregorian = (back["data"] as? [String: Any])?["gregorian"] as? [String: Any]
        #expect(gregorian?["date"] as? String == "01-03-2027")
        let (_, month) = try get("/v1/gToHCalendar/3/2027")
        #expect((month["data"] as? [Any])?.count == 31)
        let (_, hijriMonth) = try get("/v1/hToGCalendar/9/1448")
        #expect((29...30).contains((hijriMonth["data"] as? [Any])?.count ?? 0))
    }

    @Test func qiblaMethodsClockAndStatus() throws {
        let (_, qibla) = try get("/v1/qibla/40.7128/-74.006")
        let data = try #require(qibla["data"] as? [String: Any])
        #expect(keys(data) == ["latitude", "longitude", "direction"])
        #expect(abs((data["direction"] as? Double ?? 0) - 58.48) < 0.2)
        let (_, methods) = try get("/v1/methods")
        let table = try #require(methods["data"] as? [String: Any])
        #expect(table.count == 24 && keys(table["CUSTOM"]) == ["id", "source"])
        let makkah = try #require(table["MAKKAH"] as? [String: Any])
        #expect(makkah["id"] as? Int == 4 && (makkah["params"] as? [String: Any])?["Isha"] as? String == "90 min")
        // 12:34:56 UTC is 15:34 in Riyadh; the answer holds until the minute ends
        let (time, clock) = try get("/v1/currentTime?zone=Asia/Riyadh")
        #expect(clock["data"] as? String == "15:34" && time.headers["Cache-Control"] == "public, max-age=4")
        let (_, status) = try get("/status")
        #expect(keys(status["data"]) == ["status"])
    }

    // MARK: - Caching

    @Test func answersCarryAnEntityTagAndIfNoneMatchGets304() throws {
        let target = "/v1/timings/01-03-2027?\(Self.makkah)&method=4"
        let (first, _) = try get(target)
        let (second, _) = try get(target)
        let tag = try #require(first.headers["ETag"])
        #expect(second.headers["ETag"] == tag)
        for header in [tag, "W/\(tag)", "\"other\", \(tag)", "*"] {
            let response = routes().respond(to: ServerAPI.Request(target: target, headers: ["If-None-Match": header]))
            #expect(response.status == 304 && response.body.isEmpty && response.headers["ETag"] == tag, "\(header)")
        }
        let stale = routes().respond(to: ServerAPI.Request(target: target, headers: ["If-None-Match": "\"other\""]))
        #expect(stale.status == 200)
        let (elsewhere, _) = try get("/v1/timings/01-03-2027?latitude=24.47&longitude=39.61&method=4")
        #expect(elsewhere.headers["ETag"] != tag)
    }

    // MARK: - Bad input

    @Test func badInputGetsA4xxEnvelopeAndNeverA500() throws {
        let cases: [(String, Int)] = [
            ("/v1/timings/01-03-2027", 400),
            ("/v1/timings/01-03-2027?latitude=abc&longitude=1", 400),
            ("/v1/timings/01-03-2027?latitude=91&longitude=1", 400),
            ("/v1/timings/01-03-2027?latitude=1&longitude=1&method=6", 400),
            ("/v1/timings/01-03-2027?latitude=1&longitude=1&school=2", 400),
            ("/v1/timings/01-03-2027?latitude=1&longitude=1&tune=1,2,3,4,5,6,7,8,9,10", 400),
            ("/v1/timings/01-03-2027?latitude=1&longitude=1&tune=a", 400),
            ("/v1/timings/01-03-2027?latitude=1&longitude=1&timezonestring=Mars/Base", 400),
            ("/v1/timings/01-03-2027?latitude=1&longitude=1&methodSettings=x&method=99", 400),
            ("/v1/timings/01-03-2027?latitude=1&longitude=1&method=99&methodSettings=100,null,17", 400),
            ("/v1/timings/31-02-2027?latitude=1&longitude=1", 400),
            ("/v1/timings/2027-03-01?latitude=1&longitude=1", 400),
            ("/v1/timings/01-03-0999?latitude=1&longitude=1", 400),
            ("/v1/calendar/2027/13?latitude=1&longitude=1", 400),
            ("/v1/gToH/31-02-2027", 404),
            ("/v1/hToG/31-13-1448", 404),
            ("/v1/qibla/north/south", 400),
            ("/v1/currentTime", 400),
            ("/v1/nope", 404),
            ("/elsewhere", 404),
        ]
        for (target, status) in cases {
            let (response, body) = try get(target)
            #expect(response.status == status, "\(target): \(body)")
            #expect(keys(body) == ["code", "status", "data"] && body["code"] as? Int == status, "\(target)")
            #expect((body["data"] as? String)?.isEmpty == false, "\(target)")
        }
        let post = routes().respond(to: ServerAPI.Request(method: "POST", target: "/v1/timings"))
        #expect(post.status == 405 && post.headers["Allow"] == "GET, HEAD, OPTIONS")
    }

    @Test func hijriDatesAtTheEndOfTheCalendarAreRefusedNotATrap() throws {
        // 02-04-9666 is 9999-12-31, the last civil day: it converts, the days after it are refused
        // (a trap here took the whole server down), and so is a day the adjustment moves past it.
        let (last, lastBody) = try get("/v1/hToG/02-04-9666")
        #expect(last.status == 200, "\(lastBody)")
        let pair = lastBody["data"] as? [String: Any]
        #expect((pair?["gregorian"] as? [String: Any])?["date"] as? String == "31-12-9999")
        for target in [
            "/v1/hToG/03-04-9666", "/v1/hToG/29-04-9666", "/hToG/03-04-9666", "/v1/hToG/02-04-9666?adjustment=-1",
            "/v1/hToG/03-04-9666?calendarMethod=MATHEMATICAL", "/v1/hToGCalendar/4/9666", "/v1/hToG/01-05-9666",
        ] {
            let (response, body) = try get(target)
            #expect((400..<500).contains(response.status), "\(target): \(body)")
            #expect(
                (body["data"] as? String)?.contains("9999") ?? false
                    || (body["data"] as? String)?.contains("9666") ?? false, "\(target): \(body)")
        }
        let (gregorian, _) = try get("/v1/gToH/31-12-9999")
        #expect(gregorian.status == 200)
    }

    @Test func coordinatesAreDecimalDegreesOnly() throws {
        // Double(_:) would read hexadecimal (0x10 as 16): a plausible place from a wrong parameter.
        for latitude in ["0x10", "0x1p4", "inf", "nan", "1_0"] {
            let (response, body) = try get(
                "/v1/timings/01-03-2027?latitude=\(latitude)&longitude=39.8&timezonestring=UTC")
            #expect(response.status == 400, "\(latitude): \(body)")
        }
        for latitude in ["21.4", "+21.4", "2.14e1", "21.", ".5", "-0"] {
            let (response, body) = try get(
                "/v1/timings/01-03-2027?latitude=\(latitude)&longitude=39.8&timezonestring=UTC")
            #expect(response.status == 200, "\(latitude): \(body)")
        }
        let (custom, body) = try get("/v1/timings/01-03-2027?\(Self.makkah)&method=99&methodSettings=0x12,null,17")
        #expect(custom.status == 400, "\(body)")
    }

    @Test func strangeValuesInEveryParameterNeverTrapNorGive500() throws {
        let names = [
            "latitude", "longitude", "method", "school", "midnightMode", "latitudeAdjustmentMethod", "tune",
            "timezonestring", "methodSettings", "adjustment", "calendarMethod", "iso8601", "shafaq", "date",
        ]
        let values = [
            "", "-", "0", "-1", "1e400", "nan", "inf", "99", "3", "1,2", ",,,,,,,,", "9999999999999999999999",
            "%00", "مكة", "👍", String(repeating: "9", count: 300), "null", "18,3 min,90 min", "UTC", "31-12-9999",
        ]
        let paths = [
            "/v1/timings/01-03-2027", "/v1/calendar/2027/2", "/v1/gToH/01-03-2027", "/v1/hijriCalendar/1448/9",
        ]
        for path in paths {
            for name in names {
                for value in values {
                    let query =
                        "latitude=21.4&longitude=39.8&\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
                    let response = routes().respond(to: ServerAPI.Request(target: "\(path)?\(query)"))
                    #expect([200, 400, 404].contains(response.status), "\(path) \(name)=\(value)")
                }
            }
        }
    }
}
