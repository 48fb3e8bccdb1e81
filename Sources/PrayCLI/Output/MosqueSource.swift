import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where times came from when the chosen mosque's timetable gave some of them (``PrayerServiceMosque``):
/// the words of the `Source:` line of `times` and of `next`.
enum MosqueSource {
    /// `East London Mosque's timetable (imported 2026-12-01)`: the mosque of `schedules`, with the day
    /// it was imported (in the schedules' zone) when the store knows it; `nil` when no mosque gave a time.
    static func name(_ schedules: [PrayerSchedule], context: CommandContext) -> String? {
        guard let mosque = schedules.lazy.compactMap(\.mosque).first else { return nil }
        let zone = schedules.first?.zone ?? .utc
        let imported = (try? context.dependency.mosqueTimetables().mosques())?.first { $0.name == mosque }?.importedAt
        let day = imported.flatMap { try? CivilDate(containing: $0, in: zone) }
        return "\(mosque)'s timetable" + (day.map { " (imported \($0))" } ?? "")
    }

    /// The `Source:` line's words: the mosque's timetable and, where it gives no time, the calculated
    /// ones — `East London Mosque's timetable (imported 2026-12-01), calculated where it has no day`;
    /// `nil` when no mosque gave a time.
    static func line(_ schedules: [PrayerSchedule], context: CommandContext) -> String? {
        guard let name = name(schedules, context: context) else { return nil }
        if schedules.contains(where: { $0.mosque == nil }) { return name + ", calculated where it has no day" }
        let given = schedules.allSatisfy { schedule in
            MosqueTimetableCSV.adhanColumns.allSatisfy { schedule[$0]?.derivation == .published }
        }
        return given ? name : name + ", calculated for the times it does not give"
    }
}
