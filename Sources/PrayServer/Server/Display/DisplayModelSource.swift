import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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

    /// The model's JSON made of `inputs`.
    /// - Throws: What the calculation throws (the routes log what is not the asker's mistake).
    func body(_ inputs: Inputs) throws -> Data {
        Data(try model(inputs).json.renderedBytes)
    }

    /// What a model is made of, read from the stores: the saved preferences, the chosen mosque as
    /// kept here, its timetable over the days, and the request of those days.
    struct Inputs {
        var saved: Preferences
        var snapshot: MosqueSnapshot?
        var timetable: MosqueTimetable?
        var days: PrayerAPI.Request

        /// Everything the model depends on, as one digest: two equal keys make the same model, byte
        /// for byte (the cache's key; the coordinates and every value exactly as stored).
        var key: String {
            var text = "\(days.date) \(days.timeZone.identifier) \(days.coordinates)\n"
            for (name, value) in saved.storedValues.sorted(by: { $0.key < $1.key }) {
                text += "\(name.utf8.count):\(name)=\(value.utf8.count):\(value)\n"
            }
            text += "\(String(describing: snapshot))\n\(String(describing: timetable))"
            return SHA256.hexHash(text)
        }
    }

    /// Reads what the model of the days from `date` (or from today in the place's zone) is made of.
    func inputs(from date: CivilDate?) throws -> Inputs {
        let saved = try preferences.preferences()
        let snapshot = try saved[.mosque].map { try mosques.snapshot(of: $0) }
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
        let last = days.dates.last ?? days.date
        let timetable = try snapshot.flatMap { try mosques.timetable(named: $0.name, from: days.date, through: last) }
        return Inputs(saved: saved, snapshot: snapshot, timetable: timetable, days: days)
    }

    /// The model for the days from `date`, or from today in the place's zone.
    func model(from date: CivilDate?) throws -> DisplayModel {
        try model(try inputs(from: date))
    }

    /// The model made of `inputs` alone: nothing is read again (a change that lands meanwhile has
    /// another key and makes its own model).
    func model(_ inputs: Inputs) throws -> DisplayModel {
        let saved = inputs.saved
        let name = saved[.mosque]
        let snapshot = inputs.snapshot
        var days = inputs.days
        // The mosque's calendar and the month starts it announced, as read for this model.
        HijriCalendarChoice(
            saved: saved, settings: snapshot?.settings, announced: snapshot?.hijriMonthStarts ?? HijriMonthStarts()
        ).apply(to: &days)
        var schedules = try calculator.schedules(for: days)
        if let name {
            schedules = PrayerServiceMosque.overlay(
                schedules, for: days, timetable: inputs.timetable, settings: snapshot?.settings, mosque: name)
        }
        let hijriDays = try hijri.following(days.hijriMonthStarts).days(
            for: HijriAPI.Request(
                date: days.date, days: days.days, calendar: days.hijriCalendar, offset: days.hijriOffset))
        return DisplayModel(
            name: name ?? screen.name, request: days,
            methodSource: screen.prepared.settings.method.source.description,
            settings: try settings(saved, mosque: snapshot?.settings), schedules: schedules, hijri: hijriDays,
            iqama: saved.iqamaSettings, mosque: snapshot.map { mosque($0, timetable: inputs.timetable, for: days) })
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
    private func mosque(_ snapshot: MosqueSnapshot, timetable: MosqueTimetable?, for request: PrayerAPI.Request)
        -> DisplayModel.Mosque
    {
        let applies = snapshot.settings?.applies(to: request) == true
        return DisplayModel.Mosque(
            name: snapshot.name, hasTimetable: timetable?.applies(to: request) == true,
            days: Dictionary((timetable?.days ?? []).map { ($0.date, $0) }) { $1 },
            rules: applies ? try? snapshot.settings?.iqamaSettings() : nil,
            eid: applies ? snapshot.settings?.eid ?? [] : [], notices: snapshot.notices)
    }
}
