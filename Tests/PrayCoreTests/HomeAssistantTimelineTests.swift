import Foundation
import PrayCore
import PrayMocks
import Testing

/// What PrayKit's Home Assistant entities show, worked out from schedules at chosen instants: the day's
/// times and iqama, the next and current prayer, Jumu'ah, the disliked times, Ramadan, the polar night,
/// the events of a day and the instants at which anything changes.
@Suite struct HomeAssistantTimelineTests {
    static let riyadh = TimeZone(identifier: "Asia/Riyadh") ?? .gmt

    /// Days from 2026-12-03 (a Thursday) in Riyadh, by the mock clock times (fajr 05:00 … isha 19:30).
    static func schedules(
        days: Int = 10, unavailable: Set<Prayer> = [], extra: Bool = false, mosque: String? = nil,
        congregation: [Prayer: String] = [:], jumuah: [String] = []
    ) throws -> [PrayerSchedule] {
        let first = try CivilDate(year: 2026, month: 12, day: 3)
        return (0..<days).map { offset in
            let date = first.adding(days: offset)
            let mock = PrayerSchedule.mock(date: date, timeZone: riyadh, unavailable: unavailable)
            let at = { (clock: String) in Self.instant(date, clock) }
            let extraTimes =
                extra
                ? ExtraTimes(
                    ishraq: at("06:45"), zawal: at("11:55"), transit: at("12:00"), isfirar: at("17:40"),
                    sunrise: mock[.sunrise]?.date, sunset: mock[.sunset]?.date) : nil
            return PrayerSchedule(
                date: date, timeZone: riyadh, coordinates: mock.coordinates, times: mock.times,
                unavailable: Dictionary(
                    uniqueKeysWithValues: unavailable.compactMap { prayer in
                        mock.unavailability(of: prayer).map { (prayer, $0) }
                    }), congregationTimes: congregation.mapValues(at), extraTimes: extraTimes, mosque: mosque,
                jumuahTimes: date.isoWeekday == 5 ? jumuah.map(at) : [])
        }
    }

    /// `clock` (`HH:mm` or `HH:mm:ss`) on `date` in Riyadh.
    static func instant(_ date: CivilDate, _ clock: String) -> Date {
        let parts = clock.split(separator: ":").compactMap { Int($0) }
        let midnight = Date(timeIntervalSince1970: Double(date.daysSince1970) * 86_400 - 3 * 3600)
        return midnight.addingTimeInterval(Double(parts[0] * 3600 + parts[1] * 60 + (parts.count > 2 ? parts[2] : 0)))
    }

    static func day(_ day: Int) -> CivilDate { (try? CivilDate(year: 2026, month: 12, day: day)) ?? .first }

    /// The state's JSON object.
    static func object(_ state: HomeAssistantState) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: state.payload) as? [String: Any])
    }

    @Test func theStateHoldsTheDaysTimesIqamaAndTheNextAndCurrentPrayer() throws {
        // Given: Sunday 2026-12-06 at 14:00 in Riyadh, with iqama 15 minutes after asr and at 13:00 for dhuhr
        let iqama = try IqamaSettings(parsing: "dhuhr=13:00,asr=+15", jumuah: "12:30,13:30")
        let timeline = HomeAssistantTimeline(
            schedules: try Self.schedules(), iqama: iqama, place: "Riyadh", timeZone: Self.riyadh)
        let now = Self.instant(Self.day(6), "14:00")
        // When
        let object = try Self.object(timeline.state(at: now))
        // Then: the day's times with the place's offset, the iqama set and null where none is
        #expect(object["date"] as? String == "2026-12-06")
        #expect(object["fajr"] as? String == "2026-12-06T05:00:00+03:00")
        #expect(object["sunrise"] as? String == "2026-12-06T06:30:00+03:00")
        #expect(object["isha"] as? String == "2026-12-06T19:30:00+03:00")
        #expect(object["dhuhr_iqama"] as? String == "2026-12-06T13:00:00+03:00")
        #expect(object["asr_iqama"] as? String == "2026-12-06T15:45:00+03:00")
        #expect(object["fajr_iqama"] is NSNull)
        // …the next prayer and the one whose time it is
        #expect(object["next_prayer"] as? String == "asr")
        #expect(object["next_prayer_name"] as? String == "Asr")
        #expect(object["next_prayer_time"] as? String == "2026-12-06T15:30:00+03:00")
        #expect(object["next_iqama"] as? String == "2026-12-06T15:45:00+03:00")
        #expect(object["current_period"] as? String == "dhuhr")
        #expect(object["current_since"] as? String == "2026-12-06T12:00:00+03:00")
        // …this week's Jumu'ah (Friday the 11th), no fast, nothing missing, the place
        #expect(object["jumuah"] as? String == "2026-12-11T12:30:00+03:00")
        #expect(object["jumuah_times"] as? [String] == ["2026-12-11T12:30:00+03:00", "2026-12-11T13:30:00+03:00"])
        #expect(object["suhoor"] is NSNull && object["iftar"] is NSNull && object["ramadan_day"] is NSNull)
        #expect(object["missing"] as? [String] == [])
        #expect(object["disliked"] as? String == "OFF")
        #expect(object["place"] as? String == "Riyadh" && object["time_zone"] as? String == "Asia/Riyadh")
        // The countdown counts whole minutes, rounded up.
        let countdown = try #require(timeline.countdown(at: now.addingTimeInterval(1)))
        #expect(countdown.prayer == .asr && countdown.minutes == 90 && countdown.text == "1:30")
    }

    @Test func onAFridayDhuhrsIqamaIsTheFirstJumuahAndEachJumuahIsAnEvent() throws {
        // Given: Friday 2026-12-04 with the settings' two Jumu'ah times
        let iqama = try IqamaSettings(parsing: "dhuhr=+10,asr=+10", jumuah: "12:30,13:30")
        let timeline = HomeAssistantTimeline(schedules: try Self.schedules(), iqama: iqama, timeZone: Self.riyadh)
        let friday = Self.day(4)
        // When
        let object = try Self.object(timeline.state(at: Self.instant(friday, "09:00")))
        let events = timeline.events(from: Self.instant(friday, "11:00"), until: Self.instant(friday, "16:00"))
        // Then: today's Jumu'ah, and in place of dhuhr's iqama one event per Jumu'ah, marked as such
        #expect(object["jumuah"] as? String == "2026-12-04T12:30:00+03:00")
        #expect(object["dhuhr_iqama"] as? String == "2026-12-04T12:30:00+03:00")
        #expect(
            events.map { "\($0.kind.rawValue) \($0.prayer.rawValue)" } == [
                "adhan dhuhr", "jumuah dhuhr", "jumuah dhuhr", "adhan asr", "iqama asr",
            ])
        let adhan = try #require(events.first)
        let payload = try #require(
            try JSONSerialization.jsonObject(with: timeline.payload(of: adhan)) as? [String: Any])
        #expect(payload["event_type"] as? String == "dhuhr" && payload["friday"] as? Bool == true)
        let jumuah = try #require(
            try JSONSerialization.jsonObject(with: timeline.payload(of: events[1])) as? [String: Any])
        #expect(
            jumuah["event_type"] as? String == "jumuah" && jumuah["iqama"] as? String == "2026-12-04T12:30:00+03:00")
    }

    @Test func aMosquesOwnIqamaAndJumuahComeFirst() throws {
        // Given: the mosque's timetable gives asr's iqama and Jumu'ah; the settings another asr iqama
        let timeline = HomeAssistantTimeline(
            schedules: try Self.schedules(mosque: "East Mosque", congregation: [.asr: "15:50"], jumuah: ["12:15"]),
            iqama: try IqamaSettings(parsing: "asr=+10"), timeZone: Self.riyadh)
        // When
        let object = try Self.object(timeline.state(at: Self.instant(Self.day(4), "14:00")))
        // Then
        #expect(object["asr_iqama"] as? String == "2026-12-04T15:50:00+03:00")
        #expect(object["jumuah"] as? String == "2026-12-04T12:15:00+03:00")
        #expect(object["mosque"] as? String == "East Mosque")
    }

    @Test func aTimeTheSunDoesNotGiveIsNullAndMissingNeverAnotherDaysTime() throws {
        // Given: a polar night: no sunrise, maghrib nor isha
        let timeline = HomeAssistantTimeline(
            schedules: try Self.schedules(unavailable: [.sunrise, .maghrib, .isha]),
            iqama: try IqamaSettings(parsing: "isha=+15,maghrib=+5"), timeZone: Self.riyadh)
        // When
        let state = timeline.state(at: Self.instant(Self.day(6), "13:00"))
        let object = try Self.object(state)
        // Then: null, listed as missing, their iqama null too; and no time topic for them
        #expect(object["missing"] as? [String] == ["sunrise", "maghrib", "isha"])
        for key in ["sunrise", "maghrib", "isha", "maghrib_iqama", "isha_iqama"] {
            #expect(object[key] is NSNull, "\(key)")
        }
        let discovery = HomeAssistantDiscovery(
            topics: try HomeAssistantTopics(deviceID: "den"), deviceName: "PrayKit — North", version: "1")
        let topics = Set(discovery.messages(for: state).map(\.topic))
        #expect(topics.contains("praykit/den/time/fajr") && !topics.contains("praykit/den/time/isha"))
        #expect(!topics.contains("praykit/den/time/maghrib_iqama"))
        // No adhan or iqama event for them either.
        let events = timeline.events(
            from: Self.instant(Self.day(6), "00:00"), until: Self.instant(Self.day(7), "00:00"))
        #expect(!events.contains { [.maghrib, .isha].contains($0.prayer) })
    }

    @Test func theDislikedTimesTurnTheBinarySensorOn() throws {
        let timeline = HomeAssistantTimeline(schedules: try Self.schedules(extra: true), timeZone: Self.riyadh)
        // At 11:57, the sun stands at its zenith until 12:00; at 10:00 it is duha, no disliked time.
        let zenith = try Self.object(timeline.state(at: Self.instant(Self.day(6), "11:57")))
        #expect(zenith["disliked"] as? String == "ON")
        #expect(zenith["disliked_kind"] as? String == "zenith")
        #expect(zenith["disliked_until"] as? String == "2026-12-06T12:00:00+03:00")
        let duha = try Self.object(timeline.state(at: Self.instant(Self.day(6), "10:00")))
        #expect(duha["disliked"] as? String == "OFF" && duha["disliked_kind"] is NSNull)
        // The edge is a change the publisher wakes for.
        #expect(timeline.nextChange(after: Self.instant(Self.day(6), "11:54:30")) == Self.instant(Self.day(6), "11:55"))
    }

    @Test func inRamadanSuhoorAndIftarAreThoseOfTheFastAndMaghribsAdhanSaysIftar() throws {
        // Given: the 6th and 7th are the 1st and 2nd of Ramadan
        let timeline = HomeAssistantTimeline(
            schedules: try Self.schedules(), ramadanDays: [Self.day(6): 1, Self.day(7): 2],
            hijriDates: [Self.day(6): try HijriDate(year: 1448, month: 9, day: 1)], timeZone: Self.riyadh)
        // When: at noon of the first fast, and after its iftar
        let noon = try Self.object(timeline.state(at: Self.instant(Self.day(6), "12:00")))
        let evening = try Self.object(timeline.state(at: Self.instant(Self.day(6), "20:00")))
        // Then: the fast's suhoor (imsak 04:50) and iftar (maghrib), then the next fast's
        #expect(noon["ramadan_day"] as? Int == 1)
        #expect(noon["suhoor"] as? String == "2026-12-06T04:50:00+03:00")
        #expect(noon["iftar"] as? String == "2026-12-06T18:00:00+03:00")
        #expect(noon["hijri"] as? String == "1 Ramadan 1448" && noon["hijri_month"] as? Int == 9)
        #expect(evening["ramadan_day"] as? Int == 2)
        #expect(evening["iftar"] as? String == "2026-12-07T18:00:00+03:00")
        // The last fast's maghrib is iftar; the day after Ramadan's is not.
        let maghribs = timeline.events(
            from: Self.instant(Self.day(6), "00:00"), until: Self.instant(Self.day(9), "00:00")
        )
        .filter { $0.prayer == .maghrib }
        let iftar = try maghribs.map { event in
            try #require(try JSONSerialization.jsonObject(with: timeline.payload(of: event)) as? [String: Any])["iftar"]
                as? Bool
        }
        #expect(iftar == [true, true, false])
    }

    @Test func aDaysEventsAreEachAdhanAndIqamaInOrder() throws {
        let timeline = HomeAssistantTimeline(
            schedules: try Self.schedules(),
            iqama: try IqamaSettings(parsing: "fajr=+20,dhuhr=+15,asr=+15,maghrib=+5,isha=+15"), timeZone: Self.riyadh)
        let sunday = Self.day(6)
        // When
        let events = timeline.events(from: Self.instant(sunday, "00:00"), until: Self.instant(Self.day(7), "00:00"))
        // Then: ten events, each adhan followed by its iqama
        #expect(
            events.map { "\($0.kind.rawValue) \($0.prayer.rawValue)" } == [
                "adhan fajr", "iqama fajr", "adhan dhuhr", "iqama dhuhr", "adhan asr", "iqama asr", "adhan maghrib",
                "iqama maghrib", "adhan isha", "iqama isha",
            ])
        #expect(events[1].at == Self.instant(sunday, "05:20"))
        #expect(Set(events.map(\.id)).count == 10)
    }

    @Test func walkingFromChangeToChangeMeetsEveryEventAndMidnight() throws {
        // Given
        let timeline = HomeAssistantTimeline(
            schedules: try Self.schedules(extra: true),
            iqama: try IqamaSettings(parsing: "fajr=+20,dhuhr=+15,asr=+15,maghrib=+5,isha=+15"), timeZone: Self.riyadh)
        let start = Self.instant(Self.day(6), "00:00")
        let end = Self.instant(Self.day(7), "00:00")
        // When: a publisher's wakes, from one change to the next
        var wakes: [Date] = []
        var instant = start
        while let next = timeline.nextChange(after: instant), next <= end {
            #expect(next > instant)
            wakes.append(next)
            instant = next
        }
        // Then: every event's instant and the next midnight are among them, and nothing is woken for
        // more often than once a minute
        let events = timeline.events(from: start, until: end)
        #expect(events.allSatisfy { wakes.contains($0.at) })
        #expect(wakes.last == end)
        #expect(zip(wakes, wakes.dropFirst()).allSatisfy { $1.timeIntervalSince($0) >= 1 })
        #expect(wakes.count <= 24 * 60 + events.count + 20)
    }
}
