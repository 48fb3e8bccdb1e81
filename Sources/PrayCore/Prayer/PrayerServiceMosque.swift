#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``PrayerService`` that lays the chosen mosque's own timetable over another service's times.
///
/// The mosque is the one the `mosque` preference names (``Preferences/Key/mosque``). For the days its
/// timetable gives, at a place within ``MosqueTimetable/radiusKilometers`` of the mosque and in its
/// zone, its adhan times replace the calculated ones (marked ``PrayerTime/Derivation/published``),
/// its iqama times become the day's ``PrayerSchedule/congregationTimes`` and its Jumu'ah times the
/// day's ``PrayerSchedule/jumuahTimes``; the day's ``PrayerSchedule/mosque`` names it. The prayers and
/// days it does not give keep the other service's times.
///
/// ```swift
/// let service = PrayerServiceMosque(base: calculated, store: mosques, preferences: preferences)
/// let response = try await service.prayerTimes(for: request)
/// ```
public struct PrayerServiceMosque: PrayerService {
    private let base: any PrayerService
    private let store: any MosqueTimetableStore
    private let preferences: any PreferencesStore

    /// Creates the service.
    /// - Parameters:
    ///   - base: The service whose times fill what the mosque does not give.
    ///   - store: The imported timetables.
    ///   - preferences: Where the chosen mosque is named.
    public init(base: any PrayerService, store: any MosqueTimetableStore, preferences: any PreferencesStore) {
        self.base = base
        self.store = store
        self.preferences = preferences
    }
}

extension PrayerServiceMosque {
    /// The base service's schedules, with the chosen mosque's days laid over them.
    /// - Throws: What the base service throws; ``StorageError`` when the store cannot be read.
    public func prayerTimes(for request: PrayerAPI.Request) async throws -> PrayerAPI.Response {
        let response = try await base.prayerTimes(for: request)
        let schedules = try Self.overlay(
            response.schedules, for: request, store: store, mosque: preferences.preferences()[.mosque])
        return PrayerAPI.Response(schedules: schedules, source: response.source)
    }

    /// `schedules` (of `request`) with the days of the mosque named `mosque` laid over them, when its
    /// timetable serves the request (``MosqueTimetable/applies(to:)``); unchanged otherwise. The
    /// synchronous rule of ``prayerTimes(for:)``, for a server that calculates on its own threads.
    /// - Throws: ``StorageError`` when the store cannot be read.
    public static func overlay(
        _ schedules: [PrayerSchedule], for request: PrayerAPI.Request, store: any MosqueTimetableStore,
        mosque: String?
    ) throws -> [PrayerSchedule] {
        guard let mosque, let last = request.dates.last else { return schedules }
        return overlay(
            schedules, for: request, timetable: try store.timetable(named: mosque, from: request.date, through: last),
            settings: try store.settings(of: mosque), mosque: mosque)
    }

    /// `schedules` (of `request`) with the days of `timetable`, when it serves the request
    /// (``MosqueTimetable/applies(to:)``), and then the iqama and Jumu'ah rules of `settings` (a mosque
    /// space's, where they apply) laid over them: ``overlay(_:for:store:mosque:)`` on values already read,
    /// for a caller whose answer must be made of exactly what it read (a screen's cached model).
    public static func overlay(
        _ schedules: [PrayerSchedule], for request: PrayerAPI.Request, timetable: MosqueTimetable?,
        settings: SyncMosqueSettingsValue?, mosque: String
    ) -> [PrayerSchedule] {
        var result = schedules
        if let timetable, timetable.applies(to: request) {
            let days = Dictionary(timetable.days.map { ($0.date, $0) }) { $1 }
            result = result.map { schedule in
                days[schedule.date].map { overlay($0, of: timetable.name, on: schedule) } ?? schedule
            }
        }
        // The mosque's own rules (a mosque space's settings): iqama and Jumu'ah for the days and
        // prayers its timetable does not give, at the mosque's place.
        if let settings, settings.applies(to: request), let rules = try? settings.iqamaSettings(), !rules.isEmpty {
            result = result.map { applying(rules, of: mosque, to: $0) }
        }
        return result
    }

    /// `schedule` with the iqama of `rules` for each prayer it has no congregation time of, and their
    /// Jumu'ah times on a Friday it gives none of.
    public static func applying(_ rules: IqamaSettings, of mosque: String, to schedule: PrayerSchedule)
        -> PrayerSchedule
    {
        var congregation = schedule.congregationTimes
        for prayer in Prayer.obligatory where congregation[prayer] == nil {
            if let time = schedule[prayer], let iqama = rules.iqama(of: time, in: schedule) {
                congregation[prayer] = iqama
            }
        }
        let jumuah = schedule.jumuahTimes.isEmpty ? rules.jumuahTimes(in: schedule) : schedule.jumuahTimes
        return PrayerSchedule(
            date: schedule.date, zone: schedule.zone, coordinates: schedule.coordinates, times: schedule.times,
            unavailable: Dictionary(
                uniqueKeysWithValues: Prayer.allCases.compactMap { prayer in
                    schedule.unavailability(of: prayer).map { (prayer, $0) }
                }), sunsetToSunrise: schedule.sunsetToSunrise, sunsetToFajr: schedule.sunsetToFajr,
            maghribToFajr: schedule.maghribToFajr, polarBasis: schedule.polarBasis, congregationTimes: congregation,
            extraTimes: schedule.extraTimes, mosque: mosque, jumuahTimes: jumuah)
    }

    /// `schedule` with the mosque's times of `day` in place of its own.
    public static func overlay(_ day: MosqueDay, of mosque: String, on schedule: PrayerSchedule) -> PrayerSchedule {
        let zone = schedule.zone
        var times: [PrayerTime] = []
        var unavailable: [Prayer: PrayerTime.Unavailability] = [:]
        var given: [Prayer: Date] = [:]
        for prayer in Prayer.allCases {
            if let minutes = day.adhan[prayer], let instant = IqamaSettings.instant(minutes, on: day.date, in: zone) {
                given[prayer] = instant
            }
        }
        for prayer in Prayer.allCases {
            if let instant = given[prayer] {
                times.append(PrayerTime(prayer: prayer, date: instant, derivation: .published))
            } else if let time = schedule[prayer] {
                // A time measured from one the mosque gives follows it (imsak 10 minutes before fajr,
                // isha 90 minutes after maghrib).
                if case .interval(let minutes, let from) = time.derivation, let base = given[from] {
                    times.append(
                        PrayerTime(
                            prayer: prayer, date: base.addingTimeInterval(Double(minutes * 60)),
                            derivation: time.derivation))
                } else {
                    times.append(time)
                }
            } else if let reason = schedule.unavailability(of: prayer) {
                unavailable[prayer] = reason
            }
        }
        var congregation = schedule.congregationTimes
        for (prayer, minutes) in day.iqama {
            congregation[prayer] = IqamaSettings.instant(minutes, on: day.date, in: zone)
        }
        let jumuah = day.jumuah.compactMap { IqamaSettings.instant($0, on: day.date, in: zone) }
        return PrayerSchedule(
            date: schedule.date, zone: zone, coordinates: schedule.coordinates, times: times,
            unavailable: unavailable, sunsetToSunrise: schedule.sunsetToSunrise, sunsetToFajr: schedule.sunsetToFajr,
            maghribToFajr: schedule.maghribToFajr, polarBasis: schedule.polarBasis, congregationTimes: congregation,
            extraTimes: schedule.extraTimes, mosque: mosque,
            jumuahTimes: jumuah.isEmpty ? schedule.jumuahTimes : jumuah)
    }
}

extension MosqueTimetable {
    /// Whether the timetable serves `request`: the same zone, and a place within ``radiusKilometers``.
    public func applies(to request: PrayerAPI.Request) -> Bool {
        request.zone.identifier == timeZone
            && coordinates.kilometers(to: request.coordinates) <= Self.radiusKilometers
    }
}

extension SyncMosqueSettingsValue {
    /// Whether the settings serve `request`: the same zone, and a place within
    /// ``MosqueTimetable/radiusKilometers`` of the mosque.
    public func applies(to request: PrayerAPI.Request) -> Bool {
        guard request.zone.identifier == timeZone,
            let place = try? Coordinates(latitude: latitude, longitude: longitude, elevation: elevation)
        else { return false }
        return place.kilometers(to: request.coordinates) <= MosqueTimetable.radiusKilometers
    }
}
