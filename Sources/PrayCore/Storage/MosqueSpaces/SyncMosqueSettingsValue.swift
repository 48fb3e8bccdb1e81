#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SyncCollection {
    /// A mosque space's settings: key `settings`; its place and zone, iqama rules, Jumu'ah and Eid
    /// prayers, and the Hijri calendar it follows.
    public static let mosqueSettings = SyncCollection(
        name: "mosque-settings", schema: 3, valueType: SyncMosqueSettingsValue.self, spaceKinds: [.mosque])
}

/// The value of the `mosque-settings` row of a mosque space (SYNC.md §8): where the mosque is, when
/// its iqama is (per prayer: minutes after the adhan, or a clock time), its Jumu'ah times (at most
/// three) and Eid prayers, and the Hijri calendar and offset it follows (its announced month starts
/// are the space's `hijri-start` rows). Clock times are minutes after midnight in the mosque's zone.
///
/// ```swift
/// var settings = SyncMosqueSettingsValue(latitude: 51.5177, longitude: -0.0653, timeZone: "Europe/London")
/// settings.iqama = ["fajr": "+20", "dhuhr": "13:30"]
/// settings.jumuah = [13 * 60 + 15]
/// try SyncMosqueSettingsValue.validate(key: "settings", value: settings)
/// ```
public struct SyncMosqueSettingsValue: SyncRowValue {
    /// One Eid prayer day: its Hijri date (1 Shawwal or 10 Dhu al-Hijjah), its civil date and the
    /// prayers' times.
    public struct Eid: Codable, Hashable, Sendable {
        /// The Hijri date, `YYYY-MM-DD`: the 1st of Shawwal (Eid al-Fitr) or the 10th of Dhu al-Hijjah
        /// (Eid al-Adha).
        public var hijri: String
        /// The civil day, in the mosque's zone.
        public var date: CivilDate
        /// The prayers' times, minutes after midnight, earliest first: one to five.
        public var prayers: [Int]

        /// Creates an Eid day.
        public init(hijri: String, date: CivilDate, prayers: [Int]) {
            self.hijri = hijri
            self.date = date
            self.prayers = prayers.sorted()
        }
    }

    /// The mosque's latitude, degrees.
    public var latitude: Double
    /// The mosque's longitude, degrees.
    public var longitude: Double
    /// The mosque's elevation, metres.
    public var elevation: Double
    /// The IANA zone of its clock times.
    public var timeZone: String
    /// The iqama rule of each prayer that has one, by prayer name: `+20` (minutes after the adhan, 0 to
    /// 180) or `13:30` (a clock time). A day of the timetable that gives its own iqama wins.
    public var iqama: [String: String]
    /// Minutes after the adhan are rounded up to a multiple of this, 1 to 60; `nil` keeps the minute.
    public var iqamaRounding: Int?
    /// The Friday prayer's times, minutes after midnight, earliest first: at most three.
    public var jumuah: [Int]
    /// The Eid prayers, by date.
    public var eid: [Eid]
    /// The Hijri calendar it follows: `umm-al-qura` or `civil`.
    public var hijriCalendar: HijriCalendar
    /// Days added to that calendar, -2 to 2 (``HijriAPI/offsets``).
    public var hijriOffset: Int
    /// What the mosque's screens show (`praykit serve --display`): the phases around each prayer, each
    /// of which it may switch off, and when the Hijri date turns; `nil` for the defaults. A client
    /// that does not know the field ignores it.
    public var screen: DisplayAPI.Settings?

    /// Creates settings with no iqama, Jumu'ah or Eid, on the Umm al-Qura calendar.
    public init(
        latitude: Double, longitude: Double, elevation: Double = 0, timeZone: String, iqama: [String: String] = [:],
        iqamaRounding: Int? = nil, jumuah: [Int] = [], eid: [Eid] = [], hijriCalendar: HijriCalendar = .ummAlQura,
        hijriOffset: Int = 0, screen: DisplayAPI.Settings? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.timeZone = timeZone
        self.iqama = iqama
        self.iqamaRounding = iqamaRounding
        self.jumuah = jumuah.sorted()
        self.eid = eid
        self.hijriCalendar = hijriCalendar
        self.hijriOffset = hijriOffset
        self.screen = screen
    }

    /// The most Jumu'ah times.
    public static let maximumJumuah = 3
    /// The most Eid days a mosque lists.
    public static let maximumEid = 20
    /// The most prayers of one Eid day.
    public static let maximumEidPrayers = 5

    /// The iqama rules as ``IqamaSettings``, with the Jumu'ah times.
    /// - Throws: ``ValidationError`` for a rule that does not read.
    public func iqamaSettings() throws(ValidationError) -> IqamaSettings {
        let text = Prayer.obligatory.compactMap { prayer in iqama[prayer.rawValue].map { "\(prayer)=\($0)" } }
            .joined(separator: ",")
        var settings = try IqamaSettings(parsing: text, roundingMinutes: iqamaRounding)
        settings.jumuah = jumuah
        return settings
    }
}

extension SyncMosqueSettingsValue {
    /// The place, the iqama rules and the Jumu'ah times in a few words.
    public var summary: String {
        let rules = (try? iqamaSettings().description) ?? ""
        let friday =
            jumuah.isEmpty
            ? ""
            : ", Jumu'ah "
                + jumuah.map { IqamaSettings.Rule.fixed(minutesAfterMidnight: $0).description }.joined(
                    separator: " ")
        return "(\(latitude), \(longitude)) \(timeZone)" + (rules.isEmpty ? "" : ", iqama \(rules)") + friday
    }

    /// The `mosque-settings` collection.
    public static var collection: SyncCollection { .mosqueSettings }

    /// The key `settings`; a valid place and zone; iqama rules that read (no rule for a prayer that is
    /// not one of the five, none before its adhan: minutes are 0 or more); one to three Jumu'ah times;
    /// Eid days on 1 Shawwal or 10 Dhu al-Hijjah, each with one to five times and no day twice; an
    /// offset of -2 to 2 days (``HijriAPI/offsets``); screen phases within their limits
    /// (``DisplayAPI/Settings/limits``).
    /// - Throws: ``ValidationError`` saying what is wrong.
    public static func validate(key: String, value: SyncMosqueSettingsValue?) throws(ValidationError) {
        guard key == "settings" else {
            throw ValidationError(field: "key", message: "a mosque's settings have the key 'settings'")
        }
        guard let settings = value else { return }
        _ = try Coordinates(latitude: settings.latitude, longitude: settings.longitude, elevation: settings.elevation)
        if TimeZoneName(settings.timeZone) == nil { throw TimeZoneName.unknown(settings.timeZone) }
        for name in settings.iqama.keys where Prayer(rawValue: name)?.isObligatory != true {
            throw ValidationError(
                field: "iqama", message: "'\(name.prefix(40))' is not one of fajr, dhuhr, asr, maghrib and isha")
        }
        _ = try settings.iqamaSettings()
        guard settings.jumuah.count <= maximumJumuah else {
            throw ValidationError(
                field: "jumuah",
                message: "a mosque gives at most \(maximumJumuah) Jumu'ah times, got \(settings.jumuah.count)")
        }
        guard Set(settings.jumuah).count == settings.jumuah.count,
            settings.jumuah.allSatisfy({ (0..<1440).contains($0) })
        else {
            throw ValidationError(field: "jumuah", message: "Jumu'ah times are distinct clock times, 00:00 to 23:59")
        }
        guard settings.eid.count <= maximumEid else {
            throw ValidationError(field: "eid", message: "a mosque lists at most \(maximumEid) Eid days")
        }
        var days = Set<CivilDate>()
        for eid in settings.eid {
            try check(eid)
            guard days.insert(eid.date).inserted else {
                throw ValidationError(field: "eid", message: "\(eid.date) is listed twice")
            }
        }
        guard HijriAPI.offsets.contains(settings.hijriOffset) else {
            throw ValidationError(
                field: "hijri-offset",
                message: "a Hijri offset is \(HijriAPI.offsets.lowerBound) to \(HijriAPI.offsets.upperBound) days")
        }
        try settings.screen?.validate()
    }

    private static func check(_ eid: Eid) throws(ValidationError) {
        let hijri: HijriDate
        do {
            hijri = try HijriDate(parsing: eid.hijri)
        } catch {
            throw ValidationError(field: "eid", message: "'\(eid.hijri.prefix(20))' is not a Hijri date YYYY-MM-DD")
        }
        guard (hijri.month == .shawwal && hijri.day == 1) || (hijri.month == .dhuAlHijjah && hijri.day == 10) else {
            throw ValidationError(
                field: "eid",
                message: "Eid is on 1 Shawwal (al-Fitr) or 10 Dhu al-Hijjah (al-Adha), not \(hijri)")
        }
        // The civil day must be one that Eid can fall on by some calendar or sighting: within
        // HijriMonthStarts.plausibleDistance days of the tabular calendar's day, as an announced month
        // start must be.
        let month = try HijriMonthStarts.Month(year: hijri.year, month: hijri.monthNumber)
        // As day numbers: the tabular day may lie past 9999-12-31.
        let tabular = HijriMonthStarts.tabularStartDay(year: month.year, month: month.month) + hijri.day - 1
        let distance = abs(eid.date.daysSince1970 - tabular)
        guard distance <= HijriMonthStarts.plausibleDistance else {
            throw ValidationError(
                field: "eid",
                message: "\(eid.date) cannot be \(hijri): it is \(distance) days from where any calendar puts it")
        }
        guard (1...maximumEidPrayers).contains(eid.prayers.count),
            Set(eid.prayers).count == eid.prayers.count, eid.prayers.allSatisfy({ (0..<1440).contains($0) })
        else {
            throw ValidationError(
                field: "eid", message: "an Eid day has 1 to \(maximumEidPrayers) distinct prayer times, 00:00 to 23:59")
        }
    }
}

extension SyncValue {
    /// A `mosque-settings` value.
    public static func mosqueSettings(_ value: SyncMosqueSettingsValue) -> SyncValue { SyncValue(value) }
}
