/// A civil day with its Hijri date: the result of every ``HijriService`` conversion.
public struct HijriDay: Hashable, Sendable {
    /// The Gregorian (civil) day.
    public let gregorian: CivilDate
    /// The Hijri date of that day.
    public let hijri: HijriDate
    /// The number of days of the Hijri month: 29 or 30 (28 or 31 for eight months of the published
    /// Umm al-Qura table in 1343–1364).
    public let monthLength: Int
    /// The calendar asked for.
    public let calendar: HijriCalendar
    /// Whether the date comes from the tabular calendar because the Umm al-Qura table does not reach
    /// it (before 1343 or after 1500 AH). Always `true` for ``HijriCalendar/civil``.
    public let isTabular: Bool
    /// The local sighting offset applied, −2…+2 days.
    public let offset: Int
    /// The notable days that fall on this date.
    public let notableDays: [NotableDay]

    /// Creates a day; services compute ``notableDays`` from the date.
    public init(
        gregorian: CivilDate, hijri: HijriDate, monthLength: Int, calendar: HijriCalendar, isTabular: Bool,
        offset: Int = 0
    ) {
        self.gregorian = gregorian
        self.hijri = hijri
        self.monthLength = monthLength
        self.calendar = calendar
        self.isTabular = isTabular
        self.offset = offset
        notableDays = NotableDay.days(on: hijri)
    }

    /// The weekday of the day in English: `"Sunday"`.
    public var weekday: String { gregorian.weekdayName }

    /// The weekday of the day in Arabic: `"الأحد"`.
    public var weekdayArabic: String {
        ["الإثنين", "الثلاثاء", "الأربعاء", "الخميس", "الجمعة", "السبت", "الأحد"][gregorian.isoWeekday - 1]
    }
}

/// A day of the Islamic year that people mark.
public struct NotableDay: Hashable, Sendable, CustomStringConvertible {
    /// Which day.
    public let kind: Kind
    /// The English name: `"Eid al-Fitr"`.
    public var name: String { kind.name }
    /// The Arabic name: `"عيد الفطر"`.
    public var arabicName: String { kind.arabicName }

    /// Creates a notable day.
    public init(_ kind: Kind) {
        self.kind = kind
    }

    /// The English name.
    public var description: String { name }

    /// The notable days.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// 1 Muharram.
        case islamicNewYear = "islamic-new-year"
        /// 10 Muharram.
        case ashura = "ashura"
        /// 12 Rabi al-Awwal, the Prophet's birthday (observed by many, not all).
        case mawlid = "mawlid"
        /// 27 Rajab, the Night Journey and Ascension.
        case israMiraj = "isra-miraj"
        /// 1 Ramadan.
        case ramadanBegins = "ramadan-begins"
        /// 27 Ramadan: the night commonly kept as Laylat al-Qadr (it begins at the maghrib before).
        case laylatAlQadr = "laylat-al-qadr"
        /// 1 Shawwal.
        case eidAlFitr = "eid-al-fitr"
        /// 9 Dhu al-Hijjah.
        case dayOfArafah = "day-of-arafah"
        /// 10 Dhu al-Hijjah.
        case eidAlAdha = "eid-al-adha"
        /// 11, 12 and 13 Dhu al-Hijjah.
        case daysOfTashreeq = "days-of-tashreeq"
        /// 13, 14 and 15 of every month, the "white days" of voluntary fasting — but not in Ramadan, whose
        /// every day is an obligatory fast, nor 13 Dhu al-Hijjah, a day of Tashreeq, on which fasting is
        /// not allowed.
        case whiteDays = "white-days"

        /// The English name.
        public var name: String {
            switch self {
            case .islamicNewYear: "Islamic New Year"
            case .ashura: "Ashura"
            case .mawlid: "Mawlid"
            case .israMiraj: "Isra and Mi'raj"
            case .ramadanBegins: "First of Ramadan"
            case .laylatAlQadr: "Laylat al-Qadr"
            case .eidAlFitr: "Eid al-Fitr"
            case .dayOfArafah: "Day of Arafah"
            case .eidAlAdha: "Eid al-Adha"
            case .daysOfTashreeq: "Days of Tashreeq"
            case .whiteDays: "White days"
            }
        }

        /// The Arabic name.
        public var arabicName: String {
            switch self {
            case .islamicNewYear: "رأس السنة الهجرية"
            case .ashura: "عاشوراء"
            case .mawlid: "المولد النبوي"
            case .israMiraj: "الإسراء والمعراج"
            case .ramadanBegins: "أول رمضان"
            case .laylatAlQadr: "ليلة القدر"
            case .eidAlFitr: "عيد الفطر"
            case .dayOfArafah: "يوم عرفة"
            case .eidAlAdha: "عيد الأضحى"
            case .daysOfTashreeq: "أيام التشريق"
            case .whiteDays: "الأيام البيض"
            }
        }

        /// The days (month, day) of the Hijri year this covers.
        public var dates: [(month: HijriMonth, day: Int)] {
            switch self {
            case .islamicNewYear: [(.muharram, 1)]
            case .ashura: [(.muharram, 10)]
            case .mawlid: [(.rabiAlAwwal, 12)]
            case .israMiraj: [(.rajab, 27)]
            case .ramadanBegins: [(.ramadan, 1)]
            case .laylatAlQadr: [(.ramadan, 27)]
            case .eidAlFitr: [(.shawwal, 1)]
            case .dayOfArafah: [(.dhuAlHijjah, 9)]
            case .eidAlAdha: [(.dhuAlHijjah, 10)]
            case .daysOfTashreeq: [(.dhuAlHijjah, 11), (.dhuAlHijjah, 12), (.dhuAlHijjah, 13)]
            case .whiteDays:
                HijriMonth.allCases.filter { $0 != .ramadan }.flatMap { month in
                    month == .dhuAlHijjah ? [(month, 14), (month, 15)] : [(month, 13), (month, 14), (month, 15)]
                }
            }
        }

        /// Whether the day is kept on the night before it: the Islamic day begins at maghrib, so
        /// Laylat al-Qadr (27 Ramadan) and Isra and Mi'raj (27 Rajab) are observed from the maghrib of
        /// the previous civil day.
        public var isObservedTheEveningBefore: Bool {
            self == .laylatAlQadr || self == .israMiraj
        }
    }

    /// The notable days that fall on `date`, in catalog order.
    public static func days(on date: HijriDate) -> [NotableDay] {
        // A switch rather than a search of `Kind.dates`: long tables convert tens of thousands of days.
        var kinds: [Kind] = []
        switch (date.month, date.day) {
        case (.muharram, 1): kinds.append(.islamicNewYear)
        case (.muharram, 10): kinds.append(.ashura)
        case (.rabiAlAwwal, 12): kinds.append(.mawlid)
        case (.rajab, 27): kinds.append(.israMiraj)
        case (.ramadan, 1): kinds.append(.ramadanBegins)
        case (.ramadan, 27): kinds.append(.laylatAlQadr)
        case (.shawwal, 1): kinds.append(.eidAlFitr)
        case (.dhuAlHijjah, 9): kinds.append(.dayOfArafah)
        case (.dhuAlHijjah, 10): kinds.append(.eidAlAdha)
        case (.dhuAlHijjah, 11...13): kinds.append(.daysOfTashreeq)
        default: break
        }
        // Ramadan is fasted every day, so it has no white days to single out; 13 Dhu al-Hijjah is a day of
        // Tashreeq, on which fasting is not allowed.
        if (13...15).contains(date.day), date.month != .ramadan, !(date.month == .dhuAlHijjah && date.day == 13) {
            kinds.append(.whiteDays)
        }
        return kinds.map(NotableDay.init)
    }
}
