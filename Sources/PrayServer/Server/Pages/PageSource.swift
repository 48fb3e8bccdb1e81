import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a page's times come from: a place (its zone and calculation, resolved once), the calculation,
/// the Hijri calendar, the mosque timetables and the preferences that choose one — the saved place of
/// `praykit serve --display`, or a published mosque (``PublishedMosque``, chosen by constant
/// preferences). ``days(from:count:)`` is the rule of the screen's model and of `praykit timetable`:
/// the calculation with the chosen mosque's days laid over it, its iqama and Jumu'ah, and the Hijri
/// calendar it follows.
struct PageSource: Sendable {
    let screen: DisplayAPI.Screen
    let calculator: any PrayerCalculator
    let hijri: any HijriService
    let mosques: any MosqueTimetableStore
    let preferences: any PreferencesStore

    /// The request and the month model of `count` days from `date`, and whether the chosen mosque
    /// keeps a timetable that serves them (then a calculated day is a gap in it, as the screen marks).
    /// - Throws: What the calculation, the Hijri calendar and the stores throw.
    func days(from date: CivilDate, count: Int) throws -> (
        request: PrayerAPI.Request, month: TimetableMonth, hasTimetable: Bool
    ) {
        var request = screen.prepared.request
        request.date = date
        request.days = count
        let saved = try preferences.preferences()
        try HijriCalendarChoice(saved: saved, mosques: mosques).apply(to: &request)
        var schedules = try calculator.schedules(for: request)
        // The mosque's timetable read once, for the days and for whether it serves them.
        var timetable: MosqueTimetable?
        if let mosque = saved[.mosque], request.days > 0 {
            timetable = try mosques.timetable(
                named: mosque, from: request.date, through: request.date.adding(days: request.days - 1))
            schedules = PrayerServiceMosque.overlay(
                schedules, for: request, timetable: timetable, settings: try mosques.settings(of: mosque),
                mosque: mosque)
        }
        let hijriDays = try hijri.following(request.hijriMonthStarts).days(
            for: HijriAPI.Request(
                date: request.date, days: request.days, calendar: request.hijriCalendar, offset: request.hijriOffset))
        return (
            request, TimetableMonth(schedules: schedules, hijri: hijriDays, iqama: saved.iqamaSettings),
            timetable?.applies(to: request) == true
        )
    }

    /// Today in the place's zone.
    func today(_ clock: any PrayClock) throws -> CivilDate {
        try CivilDate(containing: clock.now(), in: screen.prepared.request.timeZone)
    }

    /// The screen of a published mosque: its place and zone (``PublishedMosque/place``), and the method
    /// of its country (the rule of `praykit times` for a place without a saved method: ``MethodChoice``),
    /// named after it; `nil` when it gave no place yet.
    /// - Parameters:
    ///   - mosque: The published mosque.
    ///   - country: The country at a place (ISO 3166-1 alpha-2), when the server knows it.
    ///   - now: Today comes from it (the request's day is set for each answer anyway).
    /// - Throws: ``ValidationError`` when the calculation cannot be resolved.
    static func screen(
        of mosque: PublishedMosque, country: (@Sendable (Coordinates) -> String?)?, now: Date
    ) throws -> DisplayAPI.Screen? {
        guard let place = mosque.place else { return nil }
        let latitude = place.coordinates.latitude
        let code = country?(place.coordinates)
        let choice = MethodChoice.forCountry(code, latitude: latitude)
        let resolution = try CalculationSettings.resolve(
            given: CalculationSettings(), saved: Preferences(), country: choice, latitude: latitude)
        let request = PrayerAPI.Request(
            coordinates: place.coordinates, timeZone: place.zone.timeZone,
            date: try CivilDate(containing: now, in: place.zone.timeZone), parameters: resolution.parameters)
        let location = LocationAPI.Location(
            coordinates: place.coordinates, name: mosque.name, place: nil, nearest: nil, zone: place.zone,
            timeZoneSource: .saved, timeZoneLookup: nil, countryCode: code, method: resolution.method,
            countryMethod: choice, isSavedPlace: false)
        return DisplayAPI.Screen(
            prepared: LocationAPI.PrayerRequest(request: request, location: location, settings: resolution, iqama: nil),
            name: mosque.name)
    }

    /// Preferences that choose `mosque` and nothing else.
    static func choosing(_ mosque: PublishedMosque) -> PreferencesStoreConstant {
        var saved = Preferences()
        try? saved.set(mosque.name, for: .mosque)
        return PreferencesStoreConstant(saved: saved)
    }
}
