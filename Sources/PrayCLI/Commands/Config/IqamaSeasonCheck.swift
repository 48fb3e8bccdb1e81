import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Whether iqama times saved as fixed clock times stay within their prayer's time (from its adhan to
/// the next time: sunrise after fajr, asr after dhuhr, maghrib after asr, isha after maghrib) on the
/// days of the coming year at a place. They do not where summer and winter differ much (London's fajr
/// is at 06:16 in December and before 03:00 in June), and a fixed iqama before its adhan is shown and
/// reminded as saved: it is said once, when it is saved, as ``JumuahSeasonCheck`` says it of Jumu'ah.
enum IqamaSeasonCheck {
    /// One prayer's fixed iqama outside its prayer's time on some days.
    struct Finding {
        /// The prayer.
        var prayer: Prayer
        /// The iqama, minutes after midnight.
        var time: Int
        /// The days on which it is before the adhan, and the first of them with its adhan.
        var beforeAdhan = 0
        var firstBeforeAdhan: (date: CivilDate, adhan: String)?
        /// The days on which it is at or after the next time, and the first of them with that time.
        var afterEnd = 0
        var firstAfterEnd: (date: CivilDate, end: String)?
    }

    /// The time that ends each prayer's, for the check (isha's runs into the night: only its adhan).
    static let ends: [Prayer: Prayer] = [.fajr: .sunrise, .dhuhr: .asr, .asr: .maghrib, .maghrib: .isha]

    /// The fixed iqama times of `settings` that fall outside their prayer's time on some day of
    /// `schedules`, each with how often.
    static func findings(_ settings: IqamaSettings, in schedules: [PrayerSchedule]) -> [Finding] {
        var findings: [Finding] = Prayer.obligatory.compactMap { prayer in
            guard case .fixed(let minutes) = settings.rules[prayer] else { return nil }
            return Finding(prayer: prayer, time: minutes)
        }
        guard !findings.isEmpty else { return [] }
        for schedule in schedules {
            let clock = LocalClock(zone: schedule.zone)
            for index in findings.indices {
                let prayer = findings[index].prayer
                // A day's Jumu'ah replaces its dhuhr only where Jumu'ah times are saved.
                if prayer == .dhuhr, schedule.date.isoWeekday == 5, !settings.jumuah.isEmpty { continue }
                let time = findings[index].time
                if let adhan = schedule[prayer]?.date, time < clock.components(adhan).seconds / 60 {
                    findings[index].beforeAdhan += 1
                    if findings[index].firstBeforeAdhan == nil {
                        findings[index].firstBeforeAdhan = (schedule.date, clock.time(adhan, withSeconds: false))
                    }
                } else if let next = ends[prayer], let end = schedule[next]?.date,
                    time >= clock.components(end).seconds / 60
                {
                    findings[index].afterEnd += 1
                    if findings[index].firstAfterEnd == nil {
                        findings[index].firstAfterEnd = (schedule.date, clock.time(end, withSeconds: false))
                    }
                }
            }
        }
        return findings.filter { $0.beforeAdhan > 0 || $0.afterEnd > 0 }
    }

    /// The warning lines of `findings`, or an empty text.
    static func warning(_ findings: [Finding]) -> String {
        guard !findings.isEmpty else { return "" }
        var text = ""
        for finding in findings {
            let time = IqamaSettings.Rule.fixed(minutesAfterMidnight: finding.time).description
            var parts: [String] = []
            if let first = finding.firstBeforeAdhan {
                parts.append(
                    "before its adhan on \(counted(finding.beforeAdhan, "day")) (the first \(first.date), adhan "
                        + "\(first.adhan))")
            }
            if let first = finding.firstAfterEnd, let end = ends[finding.prayer] {
                parts.append(
                    "at or after \(end.name.lowercased()) on \(counted(finding.afterEnd, "day")) (the first "
                        + "\(first.date), \(end.name.lowercased()) \(first.end))")
            }
            text +=
                "Warning: \(finding.prayer.name.lowercased())'s iqama at \(time) is "
                + "\(parts.joined(separator: ", and ")) in the coming year here.\n"
        }
        text +=
            "Warning: a fixed iqama stays where it is while the adhan moves with the seasons; mosques move it "
            + "(or give minutes after the adhan, such as fajr=+20): set it again when yours does ('praykit config "
            + "set iqama …'). Every command shows the iqama as saved.\n"
        return text
    }
}
