import Foundation
import PrayCore

/// Where a screen's model comes from: the place and calculation of the ``DisplayAPI/Screen``, and,
/// read again for each model, the saved preferences and the chosen mosque — its place and zone, its
/// timetable, settings, announced month starts and notices — as this machine keeps them (a followed
/// mosque space's synced copy: no network needed).
struct DisplayModelSource: Sendable {
    let screen: DisplayAPI.Screen
    let calculator: any PrayerCalculator
    let hijri: any HijriService
    let mosques: any MosqueTimetableStore
    let preferences: any PreferencesStore
    let clock: any PrayClock
    let log: LogManager

    /// The model's JSON for the ``DisplayAPI/days`` days from `date`, or from today in the place's zone.
    /// - Throws: What the stores and the calculation throw (logged here).
    func body(from date: CivilDate?) throws -> Data {
        do {
            return Data(try model(from: date).json.renderedBytes)
        } catch {
            log.error("Display model failed", metadata: ["error": "\(error)"])
            throw error
        }
    }

    /// The model for the days from `date`, or from today in the place's zone.
    func model(from date: CivilDate?) throws -> DisplayModel {
        let saved = try preferences.preferences()
        let name = saved[.mosque]
        let snapshot = try name.map { try mosques.snapshot(of: $0) }
        var days = screen.prepared.request
        days.days = DisplayAPI.days
        // A followed mosque's own place and zone (its settings), where the screen shows its times.
        if let settings = snapshot?.settings, let zone = TimeZone(identifier: settings.timeZone),
            let place = try? Coordinates(
                latitude: settings.latitude, longitude: settings.longitude, elevation: settings.elevation)
        {
            days.coordinates = place
            days.timeZone = zone
        }
        days.date = try date ?? CivilDate(containing: clock.now(), in: days.timeZone)
        // Read again for every model, as the mosque's times are: a month start sync brought shows.
        try HijriCalendarChoice(saved: saved, mosques: mosques).apply(to: &days)
        let schedules = try PrayerServiceMosque.overlay(
            calculator.schedules(for: days), for: days, store: mosques, mosque: name)
        let hijriDays = try hijri.following(days.hijriMonthStarts).days(
            for: HijriAPI.Request(
                date: days.date, days: days.days, calendar: days.hijriCalendar, offset: days.hijriOffset))
        return DisplayModel(
            name: name ?? screen.name, request: days,
            methodSource: screen.prepared.settings.method.source.description,
            settings: try settings(saved, mosque: snapshot?.settings), schedules: schedules, hijri: hijriDays,
            iqama: saved.iqamaSettings, mosque: try snapshot.map { try mosque($0, for: days) })
    }

    /// The mosque's screen settings, else the saved `display` setting, else the screen's own phases.
    private func settings(_ saved: Preferences, mosque: SyncMosqueSettingsValue?) throws -> DisplayAPI.Settings {
        if let screen = mosque?.screen { return screen }
        if let text = saved[.display] { return try DisplayAPI.Settings(parsing: text) }
        return DisplayAPI.Settings(phases: screen.phases)
    }

    /// What the chosen mosque adds for the days of `request`: its timetable's days (which iqama are
    /// clock times, which rows are calculated), its rules and Eid prayers where its settings apply,
    /// and its notices.
    private func mosque(_ snapshot: MosqueSnapshot, for request: PrayerAPI.Request) throws -> DisplayModel.Mosque {
        let last = request.dates.last ?? request.date
        let timetable = try mosques.timetable(named: snapshot.name, from: request.date, through: last)
        let applies = snapshot.settings?.applies(to: request) == true
        return DisplayModel.Mosque(
            name: snapshot.name, hasTimetable: timetable?.applies(to: request) == true,
            days: Dictionary((timetable?.days ?? []).map { ($0.date, $0) }) { $1 },
            rules: applies ? try? snapshot.settings?.iqamaSettings() : nil,
            eid: applies ? snapshot.settings?.eid ?? [] : [], notices: snapshot.notices)
    }
}
