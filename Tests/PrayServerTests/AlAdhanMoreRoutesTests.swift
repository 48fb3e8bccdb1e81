import Foundation
import PrayCore
import PrayMocks
import PrayPlaces
import PrayServer
import PrayServices
import Synchronization
import Testing

/// The AlAdhan routes beyond the day's times, as plain functions without sockets: the next prayer,
/// the Hijri holidays and the calendar's lists, and the `…ByAddress` routes resolved offline from the
/// gazetteer — AlAdhan's shapes, PrayKit's values, and a 4xx envelope for every bad input.
@Suite(.tags(.concurrency)) struct AlAdhanMoreRoutesTests {
    /// 2026-11-30 12:34:56 UTC: 15:34:56 in Riyadh.
    static let now = Date(timeIntervalSince1970: 1_796_042_096)
    static let makkah = "latitude=21.4225&longitude=39.8262&timezonestring=Asia/Riyadh"
    let prayers = PrayerServiceAstronomical(log: .silent)

    func routes(now: Date = Self.now, _ lookups: AlAdhanRoutes.Lookups = .none) -> AlAdhanRoutes {
        AlAdhanRoutes(
            calculator: prayers, hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent),
            qibla: QiblaServiceGeodesic(log: .silent), lookups: lookups, clock: PrayClockFake(now: now),
            log: .silent)
    }

    /// The lookups `praykit serve` wires: the real gazetteer and zone boundaries, nothing saved.
    static let gazetteer: AlAdhanRoutes.Lookups = {
        let location = LocationServiceMock()
        location.onCurrentLocation { nil }
        return AlAdhanRoutes.Lookups(
            LocationManager(
                timeZoneService: TimeZoneServiceBoundaries(log: .silent),
                placeService: PlaceServiceGazetteer(log: .silent), preferences: PreferencesStoreFake(),
                locationService: location, log: .silent))
    }()

    /// The response and its JSON object.
    func get(_ target: String, routes: AlAdhanRoutes? = nil) throws -> (ServerAPI.Response, [String: Any]) {
        let response = (routes ?? self.routes()).respond(to: ServerAPI.Request(target: target))
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
        return (response, object)
    }

    /// The `data` member.
    func data(_ target: String, routes: AlAdhanRoutes? = nil) throws -> Any? {
        let (response, body) = try get(target, routes: routes)
        #expect(response.status == 200, "\(target): \(body)")
        return body["data"]
    }

    func keys(_ value: Any?) -> Set<String> {
        Set((value as? [String: Any])?.keys.map { $0 } ?? [])
    }

    /// The `timings` of `/v1/timings` for the same day and place.
    func timings(_ date: String, _ place: String = Self.makkah, method: Int = 4) throws -> [String: String] {
        let data = try data("/v1/timings/\(date)?\(place)&method=\(method)") as? [String: Any]
        return data?["timings"] as? [String: String] ?? [:]
    }

    /// A moment of a day on Riyadh's clock (UTC+3 all year).
    static func riyadh(_ day: String, _ time: String) -> Date {
        let parts = (day + "-" + time).split { $0 == "-" || $0 == ":" }.compactMap { Int($0) }
        var components = DateComponents(
            year: parts[2], month: parts[1], day: parts[0], hour: parts[3], minute: parts[4],
            second: parts.count > 5 ? parts[5] : 0)
        components.timeZone = TimeZone(secondsFromGMT: 3 * 3600)
        return Calendar(identifier: .gregorian).date(from: components) ?? .distantPast
    }

    // MARK: - The next prayer

    @Test func theNextPrayerHasAlAdhansShapeAndTheDaysOtherObjects() throws {
        // Given: 15:34:56 in Riyadh; on 1 March 2027 asr is at 15:54
        let day = try #require(try data("/v1/timings/01-03-2027?\(Self.makkah)&method=4") as? [String: Any])
        // When
        let (response, body) = try get("/v1/nextPrayer/01-03-2027?\(Self.makkah)&method=4")
        // Then: {"timings":{"Asr":"15:54"},"date":…,"meta":…}, date and meta as /v1/timings gives them
        #expect(response.status == 200 && keys(body) == ["code", "status", "data"])
        let data = try #require(body["data"] as? [String: Any])
        #expect(keys(data) == ["timings", "date", "meta"])
        let asr = try #require((day["timings"] as? [String: String])?["Asr"])
        #expect(data["timings"] as? [String: String] == ["Asr": asr], "\(data)")
        #expect(
            NSDictionary(dictionary: data["date"] as? [String: Any] ?? [:]).isEqual(
                to: day["date"] as? [String: Any] ?? [:]))
        #expect(
            NSDictionary(dictionary: data["meta"] as? [String: Any] ?? [:]).isEqual(
                to: day["meta"] as? [String: Any] ?? [:]))
        // And: it holds until asr's minute comes (15:54:00 − 15:34:56), never for a day
        #expect(response.headers["Cache-Control"] == "public, max-age=\(19 * 60 + 4)")
        #expect(response.headers["ETag"] != nil)
    }

    @Test func theNextPrayerIsTheFirstOfTheFiveAfterNowAndAPrayerWhoseMinuteHasComeIsPast() throws {
        let day = try timings("01-03-2027")
        let five = ["Fajr", "Dhuhr", "Asr", "Maghrib", "Isha"]
        // Every minute around each prayer on 1 March 2027
        for (index, name) in five.enumerated() {
            let time = try #require(day[name])
            let (hour, minute) = (Int(time.prefix(2)) ?? 0, Int(time.suffix(2)) ?? 0)
            let before = String(format: "%02d:%02d:59", (hour * 60 + minute - 1) / 60, (hour * 60 + minute - 1) % 60)
            let routesBefore = routes(now: Self.riyadh("01-03-2027", before))
            let atTheMinute = routes(now: Self.riyadh("01-03-2027", time))
            let next = try data("/v1/nextPrayer?\(Self.makkah)&method=4", routes: routesBefore) as? [String: Any]
            #expect(next?["timings"] as? [String: String] == [name: time], "\(before)")
            if index < 4 {
                let later = try data("/v1/nextPrayer?\(Self.makkah)&method=4", routes: atTheMinute) as? [String: Any]
                let following = five[index + 1]
                #expect(later?["timings"] as? [String: String] == [following: day[following] ?? ""], "\(time)")
            }
        }
    }

    @Test func afterIshaTheNextPrayerIsTomorrowsFajrAcrossMidnight() throws {
        // Given: 23:30 in Riyadh on 1 March 2027, after isha
        let late = routes(now: Self.riyadh("01-03-2027", "23:30"))
        let tomorrow = try timings("02-03-2027")
        // When: today implicitly, and the date given
        let (response, body) = try get("/v1/nextPrayer?\(Self.makkah)&method=4", routes: late)
        let given = try data("/v1/nextPrayer/01-03-2027?\(Self.makkah)&method=4", routes: late) as? [String: Any]
        // Then: 2 March's fajr, dated 2 March
        let data = try #require(body["data"] as? [String: Any])
        let fajr = try #require(tomorrow["Fajr"])
        #expect(data["timings"] as? [String: String] == ["Fajr": fajr])
        let gregorian = (data["date"] as? [String: Any])?["gregorian"] as? [String: Any]
        #expect(gregorian?["date"] as? String == "02-03-2027")
        #expect(((data["date"] as? [String: Any])?["readable"]) as? String == "02 Mar 2027")
        #expect(given?["timings"] as? [String: String] == ["Fajr": fajr])
        // And: cached until midnight at most (30 minutes), before fajr comes
        #expect(response.headers["Cache-Control"] == "public, max-age=1800")
        // And: after midnight, the same fajr (now today's), cached until it comes
        let small = routes(now: Self.riyadh("02-03-2027", "00:10"))
        let (after, afterBody) = try get("/v1/nextPrayer?\(Self.makkah)&method=4", routes: small)
        #expect((afterBody["data"] as? [String: Any])?["timings"] as? [String: String] == ["Fajr": fajr])
        let fajrMinutes = (Int(fajr.prefix(2)) ?? 0) * 60 + (Int(fajr.suffix(2)) ?? 0)
        #expect(after.headers["Cache-Control"] == "public, max-age=\((fajrMinutes - 10) * 60)")
    }

    @Test func aGivenDateIsReadAtTheCurrentTimeOfDayAndIso8601GivesTheInstant() throws {
        // Given: 15:34:56 now; another day, 21 June 2027 in London (UTC+1 then)
        let london = "latitude=51.5074&longitude=-0.1278&timezonestring=Europe/London"
        let day = try timings("21-06-2027", london, method: 3)
        // When
        let next = try data("/v1/nextPrayer/21-06-2027?\(london)&method=3", routes: routes()) as? [String: Any]
        let iso = try data("/v1/nextPrayer/21-06-2027?\(london)&method=3&iso8601=true") as? [String: Any]
        // Then: it is 12:34:56 in London now (UTC+0 in November), and on 21 June at 12:34:56 (UTC+1)
        // dhuhr is next; in ISO 8601 with the zone's offset then
        let dhuhr = try #require(day["Dhuhr"])
        #expect(dhuhr > "12:34")
        #expect(next?["timings"] as? [String: String] == ["Dhuhr": dhuhr])
        #expect(iso?["timings"] as? [String: String] == ["Dhuhr": "2027-06-21T\(dhuhr):00+01:00"])
        // And: the timestamp form of the date and ?date= are the same day
        let stamp = try data("/v1/nextPrayer/1813575600?\(london)&method=3") as? [String: Any]
        let query = try data("/v1/nextPrayer?date=21-06-2027&\(london)&method=3") as? [String: Any]
        #expect(stamp?["timings"] as? [String: String] == ["Dhuhr": dhuhr])
        #expect(query?["timings"] as? [String: String] == ["Dhuhr": dhuhr])
    }

    @Test func theNextPrayerCarriesTheRequestsTuneAndSchool() throws {
        // Given: asr at 15:54 on 1 March 2027; now 15:34:56
        let tuned =
            try data("/v1/nextPrayer/01-03-2027?\(Self.makkah)&method=4&tune=0,0,0,0,-30,0,0,0,0") as? [String: Any]
        // Then: asr 30 minutes earlier has passed: maghrib is next
        #expect(keys(tuned?["timings"]) == ["Maghrib"])
        let hanafi = try data("/v1/nextPrayer/01-03-2027?\(Self.makkah)&method=4&school=1") as? [String: Any]
        let asr = try timings("01-03-2027", Self.makkah + "&school=1")["Asr"]
        #expect(hanafi?["timings"] as? [String: String] == ["Asr": asr ?? ""])
    }

    // MARK: - Addresses, offline

    @Test func anAddressResolvesLikeTheCityAndItsCoordinates() throws {
        let served = routes(Self.gazetteer)
        // When
        let (byAddress, addressBody) = try get(
            "/v1/timingsByAddress/01-03-2027?address=Makkah,%20Saudi%20Arabia&method=4", routes: served)
        let (byCity, _) = try get("/v1/timingsByCity/01-03-2027?city=Makkah&country=SA&method=4", routes: served)
        // Then: the same answer, byte for byte, and the place's coordinates and zone in meta
        #expect(byAddress.status == 200, "\(addressBody)")
        #expect(byAddress.body == byCity.body)
        let meta = try #require((addressBody["data"] as? [String: Any])?["meta"] as? [String: Any])
        #expect(meta["timezone"] as? String == "Asia/Riyadh")
        let latitude = try #require(meta["latitude"] as? Double)
        let longitude = try #require(meta["longitude"] as? Double)
        #expect(abs(latitude - 21.42) < 0.1 && abs(longitude - 39.83) < 0.1)
        // And: the coordinates with the zone give the same timings
        let (byPlace, placeBody) = try get(
            "/v1/timings/01-03-2027?latitude=\(latitude)&longitude=\(longitude)&timezonestring=Asia/Riyadh&method=4")
        #expect(
            (placeBody["data"] as? [String: Any])?["timings"] as? [String: String]
                == (addressBody["data"] as? [String: Any])?["timings"] as? [String: String])
        #expect(byPlace.status == 200)
    }

    @Test func anAddressIsReadWithoutCaseOrAccentsAndWithAStreetBeforeTheCity() throws {
        let served = routes(Self.gazetteer)
        let (reference, _) = try get("/v1/timingsByAddress/01-03-2027?address=Makkah&method=4", routes: served)
        #expect(reference.status == 200)
        for address in [
            "makkah,%20saudi%20arabia", "MAKKAH", "Makkah,+SA", "Masjid%20al-Haram,%20Makkah,%20Saudi%20Arabia",
            "%20Makkah%20",
        ] {
            let (response, body) = try get(
                "/v1/timingsByAddress/01-03-2027?address=\(address)&method=4", routes: served)
            #expect(response.body == reference.body, "\(address): \(body["data"] ?? "")")
        }
        // Accents: Zürich and Zurich
        let (accented, _) = try get("/v1/timingsByAddress/01-03-2027?address=Z%C3%BCrich&method=3", routes: served)
        let (plain, _) = try get(
            "/v1/timingsByAddress/01-03-2027?address=zurich,%20switzerland&method=3", routes: served)
        #expect(accented.status == 200 && accented.body == plain.body)
    }

    @Test func calendarsAndTheNextPrayerByAddressMatchTheirSiblings() throws {
        let served = routes(Self.gazetteer)
        let (calendar, calendarBody) = try get(
            "/v1/calendarByAddress/2027/3?address=London,%20United%20Kingdom&method=3", routes: served)
        let (byCity, _) = try get("/v1/calendarByCity/2027/3?city=London&country=GB&method=3", routes: served)
        #expect(calendar.status == 200 && calendar.body == byCity.body, "\(calendarBody["data"] ?? "")")
        #expect((calendarBody["data"] as? [Any])?.count == 31)
        let (hijri, _) = try get("/v1/hijriCalendarByAddress/1448/9?address=London&method=3", routes: served)
        let (hijriByCity, _) = try get("/v1/hijriCalendarByCity/1448/9?city=London&country=GB&method=3", routes: served)
        #expect(hijri.status == 200 && hijri.body == hijriByCity.body)
        let (next, nextBody) = try get(
            "/v1/nextPrayerByAddress/01-03-2027?address=Makkah,%20Saudi%20Arabia&method=4", routes: served)
        let place = try #require((nextBody["data"] as? [String: Any])?["meta"] as? [String: Any])
        let (byPlace, _) = try get(
            "/v1/nextPrayer/01-03-2027?latitude=\(place["latitude"] ?? 0)&longitude=\(place["longitude"] ?? 0)"
                + "&timezonestring=Asia/Riyadh&method=4", routes: served)
        #expect(next.status == 200 && next.body == byPlace.body)
    }

    @Test func anAddressThatCannotBeResolvedGetsAClear400() throws {
        let served = routes(Self.gazetteer)
        let cases: [(String, String)] = [
            ("/v1/timingsByAddress/01-03-2027", "Please specify an address."),
            ("/v1/timingsByAddress/01-03-2027?address=", "Please specify an address."),
            ("/v1/timingsByAddress/01-03-2027?address=%20,%20,", "Please specify an address."),
            ("/v1/timingsByAddress/01-03-2027?address=Qwxzqv%20Plmkj", "Unable to geocode the address 'Qwxzqv Plmkj'"),
            ("/v1/calendarByAddress/2027/3?address=Qwxzqv%20Plmkj", "Unable to geocode"),
            ("/v1/nextPrayerByAddress?address=Qwxzqv%20Plmkj", "Unable to geocode"),
            ("/v1/timingsByAddress/01-03-2027?address=Springfield,%20US", "Springfield"),
            ("/v1/timingsByAddress/01-03-2027?address=Egypt", "Egypt"),
            ("/v1/timingsByAddress/31-02-2027?address=Makkah", "Invalid date"),
            ("/v1/timingsByAddress/01-03-2027?address=Makkah&method=6", "Unknown method"),
        ]
        for (target, message) in cases {
            let (response, body) = try get(target, routes: served)
            #expect(response.status == 400, "\(target): \(body)")
            #expect(keys(body) == ["code", "status", "data"] && body["status"] as? String == "BAD_REQUEST")
            #expect((body["data"] as? String)?.contains(message) == true, "\(target): \(body["data"] ?? "")")
        }
        // Without a gazetteer: the routes say so
        let (none, noneBody) = try get("/v1/timingsByAddress/01-03-2027?address=Makkah")
        #expect(none.status == 400 && (noneBody["data"] as? String)?.contains("gazetteer") == true)
    }

    @Test func aFakeAddressLookupGetsTheTextAsSentAndAStreetIsLeftOut() throws {
        // Given: a lookup that knows only "Makkah, Saudi Arabia"
        let makkah = AlAdhanRoutes.Place(
            coordinates: try Coordinates(latitude: 21.4225, longitude: 39.8262),
            zone: try #require(TimeZoneName("Asia/Riyadh")))
        let asked = Mutex<[String]>([])
        let lookups = AlAdhanRoutes.Lookups(address: { text in
            asked.withLock { $0.append(text) }
            return text == "Makkah, Saudi Arabia" ? makkah : nil
        })
        // When
        let (found, _) = try get(
            "/v1/timingsByAddress/01-03-2027?address=Gate%2079,%20Masjid%20al-Haram,%20Makkah,%20Saudi%20Arabia"
                + "&method=4", routes: routes(lookups))
        // Then: the whole address first, then without its first parts while two remain
        #expect(found.status == 200)
        #expect(
            asked.withLock { $0 } == [
                "Gate 79, Masjid al-Haram, Makkah, Saudi Arabia", "Masjid al-Haram, Makkah, Saudi Arabia",
                "Makkah, Saudi Arabia",
            ])
        let (byPlace, _) = try get("/v1/timings/01-03-2027?\(Self.makkah)&method=4")
        #expect(found.body == byPlace.body)
    }

    // MARK: - Holidays

    @Test func theHolidaysOf1446AreAlAdhansSpecialDaysWithTheirGregorianDates() throws {
        // When
        let days = try #require(try data("/v1/islamicHolidaysByHijriYear/1446") as? [[String: Any]])
        // Then: one entry per special day, in AlAdhan's order, each the pair /v1/hToG gives
        #expect(days.count == 25)
        func entry(_ hijri: String) -> [String: Any]? {
            days.first { ($0["hijri"] as? [String: Any])?["date"] as? String == hijri }
        }
        func gregorian(_ hijri: String) -> String? {
            (entry(hijri)?["gregorian"] as? [String: Any])?["date"] as? String
        }
        func names(_ hijri: String) -> [String]? {
            (entry(hijri)?["hijri"] as? [String: Any])?["holidays"] as? [String]
        }
        // Umm al-Qura: Ramadan 1446 began on 1 March 2025, Eid al-Fitr 30 March, Arafa 5 June, Eid al-Adha 6 June
        #expect(gregorian("01-09-1446") == "01-03-2025" && names("01-09-1446") == ["1st Day of Ramadan"])
        #expect(gregorian("01-10-1446") == "30-03-2025" && names("01-10-1446") == ["Eid-ul-Fitr"])
        #expect(gregorian("09-12-1446") == "05-06-2025" && names("09-12-1446") == ["Hajj", "Arafa"])
        #expect(gregorian("10-12-1446") == "06-06-2025" && names("10-12-1446") == ["Eid-ul-Adha", "Hajj"])
        #expect(gregorian("10-01-1446") == "16-07-2024" && names("10-01-1446") == ["Ashura"])
        for day in days {
            #expect(keys(day) == ["hijri", "gregorian"])
            let date = try #require((day["hijri"] as? [String: Any])?["date"] as? String)
            // The day of the month is two digits, as in the date and as api.aladhan.com writes it ("01")
            #expect((day["hijri"] as? [String: Any])?["day"] as? String == String(date.prefix(2)), "\(date)")
            let converted = try data("/v1/hToG/\(date)") as? [String: Any]
            #expect(NSDictionary(dictionary: converted ?? [:]).isEqual(to: day), "\(date)")
        }
        // Order: AlAdhan's specialDays', with 9 and 10 Dhū al-Ḥijjah twice
        let order = days.compactMap { ($0["hijri"] as? [String: Any])?["date"] as? String }
        #expect(order.first == "10-01-1446" && order.last == "13-12-1446")
        #expect(order.filter { $0 == "09-12-1446" }.count == 2)
        // The tabular calendar is asked for by calendarMethod
        let tabular = try #require(
            try data("/v1/islamicHolidaysByHijriYear/1446?calendarMethod=MATHEMATICAL") as? [[String: Any]])
        #expect((tabular.first?["hijri"] as? [String: Any])?["method"] as? String == "MATHEMATICAL")
    }

    @Test func specialDaysHolidaysOfADayAndTheMonths() throws {
        // /v1/specialDays: {"month","day","name"} in AlAdhan's order
        let (special, _) = try get("/v1/specialDays")
        let text = String(decoding: special.body, as: UTF8.self)
        #expect(text.hasPrefix(#"{"code":200,"status":"OK","data":[{"month":1,"day":10,"name":"Ashura"},"#))
        let list = try #require(try data("/v1/specialDays") as? [[String: Any]])
        #expect(list.count == 25 && list.allSatisfy { keys($0) == ["month", "day", "name"] })
        #expect(special.headers["Cache-Control"] == "public, max-age=86400")
        // /v1/hijriHolidays/{day}/{month}
        #expect(try data("/v1/hijriHolidays/10/12") as? [String] == ["Eid-ul-Adha", "Hajj"])
        #expect(try data("/v1/hijriHolidays/1/9") as? [String] == ["1st Day of Ramadan"])
        let (none, noneBody) = try get("/v1/hijriHolidays/5/5")
        #expect(none.status == 404 && noneBody["data"] as? String == "No holidays found.")
        #expect(noneBody["status"] as? String == "NOT_FOUND")
        // /v1/islamicMonths: "1"…"12"
        let months = try #require(try data("/v1/islamicMonths") as? [String: Any])
        #expect(Set(months.keys) == Set((1...12).map(String.init)))
        let ramadan = try #require(months["9"] as? [String: Any])
        #expect(
            ramadan["number"] as? Int == 9 && ramadan["en"] as? String == "Ramaḍān"
                && ramadan["ar"] as? String == "رَمَضان")
    }

    @Test func theNextHolidayAndTheCurrentIslamicYearAndMonthComeFromToday() throws {
        // Given: 30 November 2026 (UTC)
        let today = try #require(try data("/v1/gToH/30-11-2026") as? [String: Any])
        let hijri = try #require(today["hijri"] as? [String: Any])
        // When / Then: the current Hijri year and month, as numbers
        #expect(try data("/v1/currentIslamicYear") as? Int == Int(hijri["year"] as? String ?? ""))
        #expect(try data("/v1/currentIslamicMonth") as? Int == (hijri["month"] as? [String: Any])?["number"] as? Int)
        // The next holiday: a day with special days, and none between today and it
        let (response, body) = try get("/v1/nextHijriHoliday")
        let next = try #require(body["data"] as? [String: Any])
        #expect(keys(next) == ["hijri", "gregorian"])
        #expect(((next["hijri"] as? [String: Any])?["holidays"] as? [String])?.isEmpty == false)
        let date = try #require((next["gregorian"] as? [String: Any])?["date"] as? String)
        var day = try CivilDate(year: 2026, month: 11, day: 30)
        var between = 0
        while AlAdhanDateText.dayMonthYear(day) != date, between < 400 {
            let pair = try data("/v1/gToH/\(AlAdhanDateText.dayMonthYear(day))") as? [String: Any]
            #expect(((pair?["hijri"] as? [String: Any])?["holidays"] as? [String])?.isEmpty == true)
            day = day.adding(days: 1)
            between += 1
        }
        #expect(between < 360)
        // Cached until midnight UTC (11:25:04 away)
        #expect(response.headers["Cache-Control"] == "public, max-age=\(11 * 3600 + 25 * 60 + 4)")
    }

    @Test func theIslamicYearOfARamadanInAGregorianYear() throws {
        // Ramadan 1446 began on 1 March 2025, 1448 in February 2027; 2030 has two (1451 in January)
        #expect(try data("/v1/islamicYearFromGregorianForRamadan/2025") as? Int == 1446)
        #expect(try data("/v1/islamicYearFromGregorianForRamadan/2027") as? Int == 1448)
        #expect(try data("/v1/islamicYearFromGregorianForRamadan/2030") as? Int == 1451)
    }

    // MARK: - Bad input

    @Test func badInputGetsA4xxEnvelopeAndNeverA500() throws {
        let cases: [(String, Int)] = [
            ("/v1/nextPrayer", 400),
            ("/v1/nextPrayer/01-03-2027?latitude=1", 400),
            ("/v1/nextPrayer/31-02-2027?latitude=1&longitude=1", 400),
            ("/v1/nextPrayer/2027-03-01?latitude=1&longitude=1", 400),
            ("/v1/nextPrayer/01-03-2027?latitude=91&longitude=1", 400),
            ("/v1/nextPrayer/01-03-2027?latitude=1&longitude=1&method=6", 400),
            ("/v1/nextPrayer/01-03-2027?latitude=1&longitude=1&timezonestring=Mars/Base", 400),
            ("/v1/nextPrayer/01-03-2027/x?latitude=1&longitude=1", 404),
            ("/v1/nextPrayerByAddress", 400),
            ("/v1/timingsByAddress", 400),
            ("/v1/calendarByAddress", 400),
            ("/v1/hijriCalendarByAddress/1448/9", 400),
            ("/v1/islamicHolidaysByHijriYear/abc", 404),
            ("/v1/islamicHolidaysByHijriYear/0", 404),
            ("/v1/islamicHolidaysByHijriYear/9999", 404),
            ("/v1/islamicHolidaysByHijriYear/1446?calendarMethod=x", 400),
            ("/v1/islamicHolidaysByHijriYear/1446?adjustment=9", 400),
            ("/v1/islamicHolidaysByHijriYear", 404),
            ("/v1/hijriHolidays/31/1", 400),
            ("/v1/hijriHolidays/x/1", 400),
            ("/v1/hijriHolidays/1/13", 400),
            ("/v1/hijriHolidays/1", 404),
            ("/v1/specialDays/1", 404),
            ("/v1/nextHijriHoliday?calendarMethod=x", 400),
            ("/v1/currentIslamicMonth?adjustment=x", 400),
            ("/v1/islamicYearFromGregorianForRamadan/600", 400),
            ("/v1/islamicYearFromGregorianForRamadan/x", 400),
        ]
        for (target, status) in cases {
            let (response, body) = try get(target)
            #expect(response.status == status, "\(target): \(body)")
            #expect(keys(body) == ["code", "status", "data"] && body["code"] as? Int == status, "\(target)")
            #expect((body["data"] as? String)?.isEmpty == false, "\(target)")
        }
    }

    @Test func strangeValuesInEveryParameterNeverTrapNorGive500() throws {
        let served = routes(Self.gazetteer)
        let names = ["latitude", "longitude", "method", "tune", "timezonestring", "address", "date", "iso8601"]
        let values = [
            "", "-", "0", "-1", "1e400", "nan", "99", ",,,,,,,,", "9999999999999999999999", "%00", "مكة", "👍",
            String(repeating: "9", count: 300), "null", "UTC", "31-12-9999", ", , ,", "،",
        ]
        let paths = [
            "/v1/nextPrayer/01-03-2027", "/v1/nextPrayerByAddress", "/v1/timingsByAddress/01-03-2027",
            "/v1/islamicHolidaysByHijriYear/1446", "/v1/hijriHolidays/10/12",
        ]
        for path in paths {
            for name in names {
                for value in values {
                    let query =
                        "latitude=21.4&longitude=39.8&address=Makkah&\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
                    let response = served.respond(to: ServerAPI.Request(target: "\(path)?\(query)"))
                    #expect([200, 400, 404].contains(response.status), "\(path) \(name)=\(value)")
                }
            }
        }
        for year in ["-1", "1", "1356", "1500", "1501", "5000", "99999999999999999999", "%F0%9F%91%8D"] {
            let response = served.respond(to: ServerAPI.Request(target: "/v1/islamicHolidaysByHijriYear/\(year)"))
            #expect([200, 404].contains(response.status), "\(year)")
        }
    }
}

/// `DD-MM-YYYY` of a civil day, as the routes write it.
enum AlAdhanDateText {
    static func dayMonthYear(_ date: CivilDate) -> String {
        String(format: "%02d-%02d-%04d", date.day, date.month, date.year)
    }
}
