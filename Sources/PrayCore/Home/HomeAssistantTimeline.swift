#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What PrayKit's Home Assistant entities show over some days, from the same times every other part
/// of PrayKit shows: the schedules (the chosen mosque's timetable laid over the calculation), their
/// iqama and Jumu'ah (the mosque's, else the saved settings', as ``PrayerTimer`` reads them), the
/// disliked times (``ExtraTimes``), Ramadan's fast days (``RamadanTimer``) and the Hijri dates.
///
/// It answers three questions about any instant, all pure: the state then (``state(at:)``), the
/// countdown to the next prayer (``countdown(at:)``) and the next instant either changes
/// (``nextChange(after:)``); and it plans the adhan and iqama events of a range (``events(from:until:)``).
///
/// ```swift
/// let timeline = HomeAssistantTimeline(schedules: schedules, iqama: iqama, timeZone: zone)
/// let state = timeline.state(at: now)             // publish state.payload, retained
/// let wake = timeline.nextChange(after: now)      // and look again then
/// ```
public struct HomeAssistantTimeline: Sendable {
    /// The days' schedules, consecutive; the day before the first instant asked about and a week after
    /// it should be there (for the next Friday's Jumu'ah).
    public let schedules: [PrayerSchedule]
    /// The place's zone.
    public let timeZone: TimeZone
    /// The place's name, if known.
    public let place: String?
    private let timer: PrayerTimer
    private let ramadan: RamadanTimer
    private let hijri: [CivilDate: HijriDate]

    /// Creates a timeline.
    /// - Parameters:
    ///   - schedules: Consecutive days' schedules (with ``PrayerSchedule/extraTimes`` for the disliked times).
    ///   - iqama: The saved iqama and Jumu'ah settings, where the mosque's timetable gives none.
    ///   - ramadanDays: The fast days among them, each with its day of Ramadan.
    ///   - hijriDates: The Hijri date of each civil day.
    ///   - place: The place's name.
    ///   - timeZone: The place's zone.
    public init(
        schedules: [PrayerSchedule], iqama: IqamaSettings? = nil, ramadanDays: [CivilDate: Int] = [:],
        hijriDates: [CivilDate: HijriDate] = [:], place: String? = nil, timeZone: TimeZone
    ) {
        self.schedules = schedules
        self.timeZone = timeZone
        self.place = place
        timer = PrayerTimer(schedules: schedules, iqama: iqama)
        ramadan = RamadanTimer(schedules: schedules, ramadanDays: ramadanDays)
        hijri = hijriDates
    }

    /// The mosque whose timetable gave the times, if one did.
    public var mosque: String? { schedules.lazy.compactMap(\.mosque).first }

    /// The state at `instant`.
    public func state(at instant: Date) -> HomeAssistantState {
        let today = (try? CivilDate(containing: instant, in: timeZone)) ?? schedules.first?.date ?? .first
        var state = HomeAssistantState(date: today, timeZone: timeZone)
        state.place = place
        state.mosque = mosque
        if let schedule = schedules.first(where: { $0.date == today }) {
            for prayer in Prayer.daily {
                if let time = schedule[prayer] {
                    state.times[prayer] = time.date
                    if prayer.isObligatory { state.iqamas[prayer] = timer.iqamaDate(of: time) }
                } else if let reason = schedule.unavailability(of: prayer), reason != .dayNotInZone {
                    state.missing.append(prayer)
                }
            }
        }
        state.jumuah = jumuah(from: today)
        if let status = timer.status(at: instant) {
            state.next = (status.next.prayer, status.next.date, status.nextIqama)
            state.current = status.current.map { ($0.time.prayer, $0.time.date, $0.endsAt) }
        }
        if case .some((.disliked(let kind), let interval)) = timer.period(at: instant) {
            state.disliked = (kind, interval.end)
        }
        state.fast = ramadan.fast(at: instant)
        state.hijri = hijri[today]
        return state
    }

    /// The countdown to the next prayer at `instant`, or `nil` when no time follows in these days.
    public func countdown(at instant: Date) -> HomeAssistantCountdown? {
        timer.status(at: instant).map {
            HomeAssistantCountdown(
                prayer: $0.next.prayer, time: $0.next.date, iqama: $0.nextIqama, at: instant, timeZone: timeZone)
        }
    }

    /// The first instant after `instant` at which ``state(at:)`` or ``countdown(at:)`` may change: a
    /// time, an iqama, the edge of a disliked time, suhoor's end and iftar, midnight, or the countdown's
    /// next minute. `nil` when none is known in these days.
    public func nextChange(after instant: Date) -> Date? {
        var candidates: [Date] = []
        if let time = timer.times.first(where: { $0.date > instant }) { candidates.append(time.date) }
        for schedule in schedules {
            for prayer in Prayer.obligatory {
                if let time = schedule[prayer], let iqama = timer.iqamaDate(of: time), iqama > instant {
                    candidates.append(iqama)
                }
            }
        }
        candidates += timer.periodBoundaries(from: instant, until: instant.addingTimeInterval(2 * 86_400)).prefix(1)
        if let fast = ramadan.fast(at: instant) {
            candidates += [fast.suhoorEnds, fast.iftar].filter { $0 > instant }
        }
        if let midnight = Self.midnight(after: instant, in: timeZone) { candidates.append(midnight) }
        if let countdown = countdown(at: instant), countdown.minutes > 1 {
            candidates.append(countdown.time.addingTimeInterval(Double(-60 * (countdown.minutes - 1))))
        }
        return candidates.filter { $0 > instant }.min()
    }

    /// The adhan and iqama events in `start…end`, earliest first: an adhan at each prayer's time, an
    /// iqama at each iqama — on a Friday with Jumu'ah times, a Jumu'ah event (kind `jumuah`) at each
    /// instead of dhuhr's iqama.
    public func events(from start: Date, until end: Date) -> [ReminderEvent] {
        var events: [ReminderEvent] = []
        for schedule in schedules {
            let jumuah = schedule.date.isoWeekday == 5 ? jumuahTimes(of: schedule) : []
            for prayer in Prayer.obligatory {
                guard let time = schedule[prayer] else { continue }
                let iqama = timer.iqamaDate(of: time)
                events.append(
                    ReminderEvent(at: time.date, prayer: prayer, kind: .adhan, prayerTime: time.date, iqama: iqama))
                if prayer == .dhuhr, !jumuah.isEmpty {
                    for at in jumuah {
                        events.append(
                            ReminderEvent(at: at, prayer: .dhuhr, kind: .jumuah, prayerTime: time.date, iqama: at))
                    }
                } else if let iqama {
                    events.append(
                        ReminderEvent(at: iqama, prayer: prayer, kind: .iqama, prayerTime: time.date, iqama: iqama))
                }
            }
        }
        return events.filter { $0.at >= start && $0.at < end }.sorted()
    }

    /// The JSON object of an adhan or iqama event (``events(from:until:)``), the payload of Home
    /// Assistant's `event` entities: `event_type` (the prayer, or `jumuah` for a Jumu'ah), the prayer's
    /// time, its iqama, the place and the mosque; an adhan also says whether it is Friday's dhuhr and
    /// whether it is Ramadan's iftar.
    ///
    /// ```json
    /// {"event_type": "maghrib", "time": "2027-02-20T17:58:00+03:00", "iqama": null, "friday": false,
    ///  "iftar": true, "place": "Makkah", "mosque": null}
    /// ```
    public func payload(of event: ReminderEvent) -> Data {
        let clock = HomeAssistantJSON.Clock(timeZone: timeZone)
        var object: [String: Any] = [
            "event_type": event.kind == .jumuah ? "jumuah" : event.prayer.rawValue,
            "time": clock.text(event.prayerTime), "iqama": clock.value(event.iqama),
            "place": place ?? HomeAssistantJSON.null, "mosque": mosque ?? HomeAssistantJSON.null,
        ]
        if event.kind == .adhan {
            let day = try? CivilDate(containing: event.at, in: timeZone)
            object["friday"] = event.prayer == .dhuhr && day?.isoWeekday == 5
            // The fast that this maghrib ends (at the instant itself, the next fast day has begun).
            object["iftar"] =
                event.prayer == .maghrib && ramadan.fast(at: event.at.addingTimeInterval(-1))?.iftar == event.at
        }
        return HomeAssistantJSON.data(object)
    }

    /// The next instant after `instant` at which the zone's clock shows midnight (the start of the next
    /// civil day, where a zone skips an hour).
    public static func midnight(after instant: Date, in zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: instant))
    }
}

// MARK: - Helpers

extension HomeAssistantTimeline {
    /// The Jumu'ah times of a Friday: the mosque's timetable's, else the saved settings'.
    private func jumuahTimes(of schedule: PrayerSchedule) -> [Date] {
        if schedule.mosque != nil, !schedule.jumuahTimes.isEmpty { return schedule.jumuahTimes }
        return timer.iqama?.jumuahTimes(in: schedule) ?? []
    }

    /// This week's Friday prayer from `today` (today's on a Friday): its times, or dhuhr's when none are
    /// set; none when the days given do not reach a Friday with a dhuhr.
    private func jumuah(from today: CivilDate) -> [Date] {
        guard let friday = schedules.first(where: { $0.date >= today && $0.date.isoWeekday == 5 }) else { return [] }
        let times = jumuahTimes(of: friday)
        if !times.isEmpty { return times }
        return friday[.dhuhr].map { [$0.date] } ?? []
    }
}
