#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Plans reminder events from prayer times: reminders before, the adhan, the iqama, imsak and iftar
/// in Ramadan (by the Hijri calendar the person follows), and the Friday prayer.
///
/// ```swift
/// let manager = ReminderManager(prayers: dependency.prayerService(), hijri: dependency.hijriService(),
///                               log: dependency.log())
/// let events = try await manager.events(for: request, from: now, until: now + 86_400,
///                                       settings: ReminderSettings(minutesBefore: [10]), iqama: nil)
/// ```
public struct ReminderManager: Sendable {
    private let prayers: any PrayerService
    private let hijri: any HijriService
    private let log: LogManager

    /// Creates a manager.
    public init(prayers: any PrayerService, hijri: any HijriService, log: LogManager) {
        self.prayers = prayers
        self.hijri = hijri
        self.log = log
    }

    /// The events in `start…end` (the request's place, zone and parameters; its dates are replaced by
    /// the days that cover the range), earliest first.
    /// - Throws: What the services throw; ``ValidationError`` for a range of more than 400 days.
    public func events(
        for request: PrayerAPI.Request, from start: Date, until end: Date, settings: ReminderSettings,
        iqama: IqamaSettings?
    ) async throws -> [ReminderEvent] {
        guard end > start else { return [] }
        guard end.timeIntervalSince(start) <= 400 * 86_400 else {
            throw ValidationError(field: "until", message: "reminders are planned at most 400 days ahead")
        }
        var covering = request
        // The day before the first (kept within the days PrayKit has: the calculation refuses those years).
        covering.date = try CivilDate(containing: start, in: request.timeZone).clampedAdding(days: -1)
        covering.days =
            (try CivilDate(containing: end, in: request.timeZone)).daysSince1970
            - covering.date.daysSince1970 + 2
        let schedules = try await prayers.prayerTimes(for: covering).schedules
        let ramadanDays: Set<CivilDate>
        if settings.ramadan {
            let days = try hijri.following(request.hijriMonthStarts).days(
                for: HijriAPI.Request(
                    date: covering.date, days: covering.days, calendar: request.hijriCalendar,
                    offset: request.hijriOffset))
            ramadanDays = Set(days.filter { $0.hijri.month == .ramadan }.map(\.gregorian))
        } else {
            ramadanDays = []
        }
        var events: [ReminderEvent] = []
        for schedule in schedules {
            events += Self.events(
                of: schedule, settings: settings, iqama: iqama, isRamadan: ramadanDays.contains(schedule.date))
        }
        let planned = events.filter { $0.at >= start && $0.at < end }.sorted()
        log.debug("Reminders planned", metadata: ["reminders.count": "\(planned.count)"])
        return planned
    }

    /// The events of one day.
    static func events(
        of schedule: PrayerSchedule, settings: ReminderSettings, iqama: IqamaSettings?, isRamadan: Bool
    ) -> [ReminderEvent] {
        var events: [ReminderEvent] = []
        let isFriday = schedule.date.isoWeekday == 5
        // A mosque's own timetable (PrayerServiceMosque) gives its iqama and Jumu'ah times first.
        let mosque = schedule.mosque != nil
        let jumuahTimes =
            mosque && !schedule.jumuahTimes.isEmpty ? schedule.jumuahTimes : iqama?.jumuahTimes(in: schedule) ?? []
        for prayer in settings.prayers {
            guard let time = schedule[prayer] else { continue }
            let iqamaTime =
                (mosque ? schedule.congregationTimes[prayer] : nil) ?? iqama?.iqama(of: time, in: schedule)
            // On a Friday with Jumu'ah times, the Friday prayer replaces dhuhr: its reminders count
            // down to the first Jumu'ah, and each Jumu'ah is an event.
            if prayer == .dhuhr, isFriday, settings.jumuah, let first = jumuahTimes.first {
                for minutes in settings.minutesBefore where minutes > 0 {
                    events.append(
                        ReminderEvent(
                            at: first.addingTimeInterval(Double(-minutes * 60)), prayer: .dhuhr, kind: .reminder,
                            prayerTime: first, minutesBefore: minutes))
                }
                for jumuah in jumuahTimes {
                    events.append(ReminderEvent(at: jumuah, prayer: .dhuhr, kind: .jumuah, prayerTime: jumuah))
                }
                continue
            }
            for minutes in settings.minutesBefore where minutes > 0 {
                events.append(
                    ReminderEvent(
                        at: time.date.addingTimeInterval(Double(-minutes * 60)), prayer: prayer, kind: .reminder,
                        prayerTime: time.date, minutesBefore: minutes, iqama: iqamaTime))
            }
            var kind: ReminderEvent.Kind = .adhan
            if prayer == .dhuhr, isFriday, settings.jumuah { kind = .jumuah }
            if prayer == .maghrib, isRamadan, settings.ramadan { kind = .iftar }
            if settings.atAdhan || kind == .iftar {
                events.append(
                    ReminderEvent(at: time.date, prayer: prayer, kind: kind, prayerTime: time.date, iqama: iqamaTime))
            }
            if settings.atIqama, let iqamaTime {
                events.append(
                    ReminderEvent(at: iqamaTime, prayer: prayer, kind: .iqama, prayerTime: time.date, iqama: iqamaTime))
            }
        }
        if isRamadan, settings.ramadan, let imsak = schedule[.imsak], let fajr = schedule[.fajr] {
            events.append(ReminderEvent(at: imsak.date, prayer: .fajr, kind: .imsak, prayerTime: fajr.date))
        }
        return events
    }
}
