import PrayCore

extension TimetableHTML {
    /// The words of the page in one language. Digits stay Western in both, as many Arabic
    /// timetables print them.
    struct Words {
        let language: Language

        init(_ language: Language) {
            self.language = language
        }

        private func pick(_ english: String, _ arabic: String) -> String {
            language == .ar ? arabic : english
        }

        var prayerTimes: String { pick("Prayer times", "مواقيت الصلاة") }
        var date: String { pick("Date", "التاريخ") }
        var hijri: String { pick("Hijri", "الهجري") }
        var adhan: String { pick("Adhan", "الأذان") }
        var iqama: String { pick("Iqama", "الإقامة") }
        var jumuah: String { pick("Jumu'ah", "الجمعة") }
        var hijriEra: String { pick("AH", "هـ") }
        var place: String { pick("Place", "المكان") }
        var zone: String { pick("Time zone", "المنطقة الزمنية") }
        var method: String { pick("Method", "طريقة الحساب") }
        var source: String { pick("Source", "المصدر") }
        var mosque: String { pick("Mosque timetable", "جدول المسجد") }
        var mosqueDays: String { pick("days", "أيام") }
        var hijriCalendar: String { pick("Hijri calendar", "التقويم الهجري") }
        var tabular: String { pick("tabular (civil)", "الحسابي") }
        var offset: String { pick("offset", "إزاحة") }
        /// Between the parts of a footer line.
        var separator: String { pick("; ", "؛ ") }

        /// `elevation 12 m`.
        func elevation(_ metres: String) -> String { pick("elevation \(metres) m", "الارتفاع \(metres) م") }
        var calculatedBy: String { pick("Calculated by", "حُسبت بواسطة") }
        var ruleNote: String {
            pick(
                "* set by a rule: high-latitude rule, Moonsighting Committee season, or held back to keep the day in order",
                "* وقت حدّدته قاعدة: قاعدة خطوط العرض العليا أو مواسم لجنة رؤية الهلال، أو أُبقي ليبقى ترتيب اليوم")
        }

        /// The Gregorian months, January first.
        var months: [String] {
            language == .ar
                ? [
                    "يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر",
                    "ديسمبر",
                ]
                : [
                    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                    "November", "December",
                ]
        }

        /// The weekdays, Monday first (ISO 8601).
        var weekdays: [String] {
            language == .ar
                ? ["الإثنين", "الثلاثاء", "الأربعاء", "الخميس", "الجمعة", "السبت", "الأحد"]
                : ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        }

        /// The heading of a time.
        func prayer(_ prayer: Prayer) -> String {
            guard language == .ar else { return prayer.name }
            switch prayer {
            case .fajr: return "الفجر"
            case .sunrise: return "الشروق"
            case .dhuhr: return "الظهر"
            case .asr: return "العصر"
            case .sunset: return "الغروب"
            case .maghrib: return "المغرب"
            case .isha: return "العشاء"
            case .imsak: return "الإمساك"
            case .midnight: return "منتصف الليل"
            case .firstThird: return "الثلث الأول"
            case .lastThird: return "الثلث الأخير"
            }
        }

        /// Where the zone came from.
        func zoneSource(_ source: LocationAPI.TimeZoneSource) -> String {
            switch source {
            case .option: pick("from --tz", "من الخيار ‎--tz")
            case .saved: pick("saved with the place", "المحفوظة مع المكان")
            case .coordinates: pick("the zone at the coordinates", "منطقة الإحداثيات")
            case .city: pick("the city's zone", "منطقة المدينة")
            case .system: pick("the system's", "منطقة النظام")
            }
        }

        /// Why the method.
        func methodSource(_ source: MethodChoice.Source) -> String {
            switch source {
            case .option: pick("given with --method", "من الخيار ‎--method")
            case .saved: pick("saved", "المحفوظة")
            case .country(let code): pick("chosen for \(code)", "المعتمدة في \(code)")
            case .default: pick("the default", "الافتراضية")
            }
        }
    }
}
