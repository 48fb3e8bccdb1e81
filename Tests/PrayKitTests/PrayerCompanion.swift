import Foundation
import PrayCore

/// A small app, written the way an app adopts PrayKit: it knows only `PrayKitDependency`, so it runs
/// on the real container and on mocks alike. It keeps a place, shows today (next prayer, qibla,
/// Hijri date, streak) and records prayers.
struct PrayerCompanion {
    let dependency: any PrayKitDependency

    /// What the app's main screen shows.
    struct Today: Equatable {
        let date: CivilDate
        let next: PrayerTime?
        let hijri: HijriDate?
        let qiblaDirection: Double
        let streak: Int
    }

    /// The app's own error.
    enum CompanionError: Error, Equatable {
        case noPlace
    }

    /// Saves the place and method the person chose.
    func choosePlace(latitude: Double, longitude: Double, timeZone: String, method: String) throws {
        try dependency.preferences().update { preferences in
            try preferences.set("\(latitude)", for: .latitude)
            try preferences.set("\(longitude)", for: .longitude)
            try preferences.set(timeZone, for: .timeZone)
            try preferences.set(method, for: .method)
        }
    }

    /// Today at the saved place.
    func today(at now: Date) async throws -> Today {
        let preferences = try dependency.preferences().preferences()
        guard let coordinates = try preferences.coordinates(), let timeZone = preferences.timeZone else {
            throw CompanionError.noPlace
        }
        let date = try CivilDate(containing: now, in: timeZone)
        let request = PrayerAPI.Request(
            coordinates: coordinates, timeZone: timeZone, date: date,
            parameters: try preferences.calculationParameters()
        )
        let day = try await dependency.prayerManager().day(for: request)
        let hijri = try dependency.hijriService().days(for: HijriAPI.Request(date: date)).first?.hijri
        let qibla = dependency.qiblaService().qibla(from: coordinates)
        let statistics = try dependency.prayerLog().statistics(today: date)
        dependency.log().info("Today shown", metadata: ["app.date": "\(date)"])
        return Today(
            date: date, next: day.next(at: now), hijri: hijri, qiblaDirection: qibla.direction,
            streak: statistics.currentStreak
        )
    }

    /// Records the five prayers of `date` as prayed.
    func prayedAll(on date: CivilDate) throws {
        for prayer in Prayer.obligatory { try dependency.prayerLog().record(.prayed, for: prayer, on: date) }
    }
}
