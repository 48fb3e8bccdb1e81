import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Whether Jumu'ah times saved as fixed clock times stay within the time of dhuhr (from its adhan to
/// asr's) on the Fridays of the coming year at a place: they do not where summer and winter differ
/// much (London's asr is at 13:35 in December, its dhuhr at 13:05 in June), and mosques move Jumu'ah
/// with the seasons. Without a warning, the screen and the reminders would show a Jumu'ah after asr.
enum JumuahSeasonCheck {
    /// One saved time outside dhuhr's time on some Fridays.
    struct Finding {
        /// The Jumu'ah time, minutes after midnight.
        var time: Int
        /// The Fridays on which it is at or after asr, and the first of them with its asr.
        var afterAsr: Int
        var firstAfterAsr: (date: CivilDate, asr: String)?
        /// The Fridays on which it is before dhuhr, and the first of them with its dhuhr.
        var beforeDhuhr: Int
        var firstBeforeDhuhr: (date: CivilDate, dhuhr: String)?
    }

    /// The times of `jumuah` (minutes after midnight) that fall outside dhuhr's time on some Friday of
    /// `schedules`, each with how often.
    static func findings(_ jumuah: [Int], in schedules: [PrayerSchedule]) -> [Finding] {
        var findings = jumuah.map { Finding(time: $0, afterAsr: 0, beforeDhuhr: 0) }
        for schedule in schedules where schedule.date.isoWeekday == 5 {
            guard let dhuhr = schedule[.dhuhr]?.date, let asr = schedule[.asr]?.date else { continue }
            let clock = LocalClock(zone: schedule.zone)
            let dhuhrMinute = clock.components(dhuhr).seconds / 60
            let asrMinute = clock.components(asr).seconds / 60
            for index in findings.indices {
                let time = findings[index].time
                if time >= asrMinute {
                    findings[index].afterAsr += 1
                    if findings[index].firstAfterAsr == nil {
                        findings[index].firstAfterAsr = (schedule.date, clock.time(asr, withSeconds: false))
                    }
                } else if time < dhuhrMinute {
                    findings[index].beforeDhuhr += 1
                    if findings[index].firstBeforeDhuhr == nil {
                        findings[index].firstBeforeDhuhr = (schedule.date, clock.time(dhuhr, withSeconds: false))
                    }
                }
            }
        }
        return findings.filter { $0.afterAsr > 0 || $0.beforeDhuhr > 0 }
    }

    /// The warning lines of `findings`, or an empty text.
    static func warning(_ findings: [Finding]) -> String {
        guard !findings.isEmpty else { return "" }
        var text = ""
        for finding in findings {
            let time = IqamaSettings.Rule.fixed(minutesAfterMidnight: finding.time).description
            var parts: [String] = []
            if let first = finding.firstAfterAsr {
                parts.append(
                    "at or after asr on \(counted(finding.afterAsr, "Friday")) (the first \(first.date), asr \(first.asr))"
                )
            }
            if let first = finding.firstBeforeDhuhr {
                parts.append(
                    "before dhuhr on \(counted(finding.beforeDhuhr, "Friday")) (the first \(first.date), dhuhr "
                        + "\(first.dhuhr))")
            }
            text += "Warning: Jumu'ah at \(time) is \(parts.joined(separator: ", and ")) in the coming year here.\n"
        }
        text +=
            "Warning: mosques move Jumu'ah with the seasons; set it again when yours does ('praykit config set "
            + "jumuah …'). The screen and the reminders show the times as saved.\n"
        return text
    }
}
