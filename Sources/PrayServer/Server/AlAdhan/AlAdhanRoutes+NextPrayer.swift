import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - The next prayer

extension AlAdhanRoutes {
    /// The prayers `nextPrayer` chooses from, in AlAdhan's order (`PrayerTimesHelper::nextPrayerTime`:
    /// Fajr, Dhuhr, Asr, Maghrib and Isha, not sunrise, imsak or the night's times), with the index of
    /// each one's `tune` minutes.
    static let fivePrayers: [(key: StaticString, prayer: Prayer, tune: Int)] = [
        ("Fajr", .fajr, 1), ("Dhuhr", .dhuhr, 3), ("Asr", .asr, 4), ("Maghrib", .maghrib, 5), ("Isha", .isha, 7),
    ]

    /// `/v1/nextPrayer[/{date}]` and `/v1/nextPrayerByAddress[/{date}]`: the first of the five prayers
    /// after the request's instant, as AlAdhan shapes it — `timings` with that one prayer
    /// (`{"Isha":"19:12"}`, or its ISO 8601 time with `iso8601=true`), then `date` and `meta` as in
    /// `/v1/timings`.
    ///
    /// The instant is now on the server's clock; with a date, that day at the current time of day in
    /// the zone (AlAdhan compares the day's times with the current time of day). When the day's isha
    /// has passed, the answer is the next day's fajr, and `date` is that next day (AlAdhan gives the
    /// requested day's `date` with it, so a client that puts `date.readable` and the time together
    /// would get a past instant). The answer holds until the prayer's time comes, or the zone's
    /// midnight, whichever is first.
    func nextPrayer(date text: String?, query: AlAdhanQuery, from source: PlaceSource) throws(AlAdhanError) -> Answer {
        let place = try self.place(query, from: source)
        let settings = try AlAdhanSettings(query) { defaultMethod(for: place) }
        var zoneClock = ZoneClock(zone: place.zone)
        let now = Int(clock.now().timeIntervalSince1970.rounded(.down))
        let today = localDay(clock: &zoneClock)
        let untilMidnight: Int
        if case .seconds(let seconds) = today.cache { untilMidnight = seconds } else { untilMidnight = 86_400 }
        let day =
            try (text ?? query.given(.date)).map { text throws(AlAdhanError) in
                try self.day(text, clock: &zoneClock).0
            } ?? today.date
        // Another day than today: that day at the current time of day (the later instant when the
        // clocks repeat it, as for a day's timestamp).
        let secondsIntoDay = now + zoneClock.offset(at: Double(now)) - today.date.daysSince1970 * 86_400
        let reference =
            day == today.date
            ? now : AlAdhanTimings.instant(of: day, secondsIntoDay: secondsIntoDay, clock: &zoneClock)
        let schedules = try schedules(from: day, days: 2, place: place, settings: settings)
        guard let next = Self.firstPrayer(after: reference, in: schedules, tune: settings.tune) else {
            throw AlAdhanError(
                "The sun gives no fajr, dhuhr, asr, maghrib or isha after this time on this day and the next here: "
                    + "try latitudeAdjustmentMethod=1, 2 or 3.")
        }
        let prayerDay = schedules[next.day].date
        let hijriDay = try hijriDays(from: prayerDay, days: 1, settings: settings)[0]
        // AlAdhan's timestamp of a day is 07:00 (its midnight plus seven hours), as in /v1/timings.
        let timestamp = AlAdhanTimings.instant(of: prayerDay, secondsIntoDay: 0, clock: &zoneClock) + 25_200
        var json = JSONWriter()
        Self.beginEnvelope(&json)
        json.beginObject()
        json.key("timings")
        json.beginObject()
        json.key(next.key)
        let offset = zoneClock.offset(at: Double(next.instant))
        if settings.iso8601 {
            AlAdhanTimings.writeISO(next.instant, offset: offset, to: &json)
        } else {
            AlAdhanTimings.writeClock(next.instant + offset, to: &json)
        }
        json.endObject()
        json.key("date")
        AlAdhanDate.writeDate(prayerDay, timestamp: timestamp, hijri: hijriDay, hijriFirst: true, to: &json)
        json.key("meta")
        settings.writeMeta(coordinates: place.coordinates, zoneName: place.zoneName, to: &json)
        json.endObject()
        json.endObject()  // the envelope
        return Answer(body: json.takeData(), cache: .seconds(min(next.instant - reference, untilMidnight)))
    }

    /// The first of the five prayers (with their `tune` minutes) after `instant`: the earliest one of
    /// the first schedule that has one after it, by the minute shown (a prayer whose minute has come is
    /// past); `nil` when none has.
    static func firstPrayer(
        after instant: Int, in schedules: [PrayerSchedule], tune: [Int]
    ) -> (day: Int, key: StaticString, instant: Int)? {
        for (index, schedule) in schedules.enumerated() {
            var best: (day: Int, key: StaticString, instant: Int)?
            for name in fivePrayers {
                guard let time = schedule[name.prayer] else { continue }
                let seconds = Int(time.date.timeIntervalSince1970.rounded(.down))
                let minute = seconds - ((seconds % 60) + 60) % 60 + tune[name.tune] * 60
                if minute > instant, minute < best?.instant ?? Int.max { best = (index, name.key, minute) }
            }
            if let best { return best }
        }
        return nil
    }
}
