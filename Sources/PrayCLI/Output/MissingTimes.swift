import PrayCore

/// What a person should know when times are missing from the days shown — which, on how many days,
/// why, and the option that gives them — said the same way by `times`, `next`, `calendar` and
/// `notify`.
enum MissingTimes {
    /// A sentence about the `prayers` missing from `schedules`, or `nil` when none is.
    static func note(_ schedules: [PrayerSchedule], prayers: [Prayer], parameters: CalculationParameters) -> String? {
        var counts: [Prayer: Int] = [:]
        var sunless = false
        for schedule in schedules {
            for prayer in prayers {
                switch schedule.unavailability(of: prayer) {
                case nil, .dayNotInZone?: continue
                case .sunDoesNotReach?, .requires?: sunless = true
                default: break
                }
                counts[prayer, default: 0] += 1
            }
        }
        let missing = Prayer.chronological.filter { counts[$0] != nil }
        guard !missing.isEmpty else { return nil }
        let names = list(missing.map(\.name))
        let days = counts.values.max() ?? 0
        var text =
            "\(names) \(missing.count == 1 ? "is" : "are") missing on \(days) of \(schedules.count) "
            + "day\(schedules.count == 1 ? "" : "s")"
        guard sunless else { return text + " (--format json says why)." }
        text += ": the sun does not rise, set or reach their angles there"
        let twilightOnly = missing.allSatisfy { [.fajr, .isha, .imsak].contains($0) }
        if twilightOnly, parameters.highLatitudeRule == .none {
            text += "; --high-latitude-rule recommended gives fajr and isha"
        } else if parameters.polarResolution == .unresolved {
            text += "; --polar-resolution nearest-latitude or nearest-day gives times for them"
        }
        return text + "."
    }

    /// `Asr`, `Asr and Maghrib`, `Fajr, Asr and Maghrib`.
    private static func list(_ names: [String]) -> String {
        guard names.count > 1, let last = names.last else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }
}
