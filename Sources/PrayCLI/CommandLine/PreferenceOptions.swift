import PrayCore

/// How stored preferences and command-line options meet: the option that matches each
/// `Preferences.Key` (storage keys never change; these names and help are the tool's), and what a
/// value looks like, for `praykit config` help.
enum PreferenceOptions {
    /// The option name of a preference: `lat` for `latitude`, otherwise the key's own name.
    static func optionName(_ key: Preferences.Key) -> String {
        switch key {
        case .latitude: "lat"
        case .longitude: "lon"
        default: key.rawValue
        }
    }

    /// The option named in a validation error's field (`latitude` → `lat`).
    static func optionName(forField field: String) -> String {
        Preferences.Key(rawValue: field).map(optionName) ?? field
    }

    /// The key of `config get|set|unset <key>`: the stored name, or the option's (`lat`, `tz`).
    static func key(named name: String) -> Preferences.Key? {
        let lowered = name.lowercased()
        return Preferences.Key(rawValue: lowered) ?? Preferences.Key.allCases.first { optionName($0) == lowered }
    }

    /// What the value of a key looks like.
    static func valueDescription(_ key: Preferences.Key) -> String {
        func choices<T: RawRepresentable & CaseIterable>(_: T.Type) -> String where T.RawValue == String {
            T.allCases.map(\.rawValue).joined(separator: "|")
        }
        return switch key {
        case .latitude: "degrees, -90…90"
        case .longitude: "degrees, -180…180"
        case .fajrAngle, .ishaAngle, .maghribAngle, .imsakAngle: "degrees below the horizon"
        case .elevation: "metres (negative below sea level)"
        case .timeZone: "IANA zone, such as Asia/Riyadh"
        case .placeName: "text shown with the times"
        case .method: "method name, alias or AlAdhan id (see 'praykit methods')"
        case .madhab: choices(Madhab.self)
        case .ishaInterval, .maghribInterval: "minutes"
        case .imsakMinutes: "minutes before fajr, 0…120"
        case .highLatitudeRule: choices(HighLatitudeRule.self)
        case .polarResolution: choices(PolarResolution.self)
        case .shafaq: choices(Shafaq.self) + " (moonsighting-committee only)"
        case .night: choices(NightMeasure.self)
        case .adjust: "fajr=2,isha=-3"
        case .rounding: choices(Rounding.self)
        case .hijriCalendar: choices(HijriCalendar.self)
        case .hijriOffset: "-2…2 days"
        case .hijriStarts: "announced month starts, 1448-09=2027-02-09 (see praykit hijri set-start)"
        case .clock: "24h|12h"
        case .iqama: "per prayer: fajr=+20,dhuhr=13:30 (minutes after the adhan, or a clock time)"
        case .iqamaRounding: "round iqama minutes up to a multiple of this, 1…60"
        case .jumuah: "Friday prayer times, 13:15,14:00"
        case .reminderMinutes: "minutes before each prayer for 'praykit notify', 10 or 15,5"
        case .notifyHook: "shell command 'praykit notify' runs for each event"
        case .mosque: "name of an imported mosque timetable (see 'praykit timetable list')"
        case .fastSuggestions: "on|off: suggest voluntary fasts in 'praykit next' and 'praykit times' (off)"
        case .display: "the screen's phases, such as adhan=off,silence=2,hijri=maghrib (docs/display.md)"
        }
    }
}
