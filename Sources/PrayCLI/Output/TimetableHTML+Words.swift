import PrayCore

extension TimetableHTML {
    /// The words of the page in one language, and its numbers in the chosen digits.
    struct Words {
        let language: Language
        let digits: Digits

        init(_ language: Language, digits: Digits = .latin) {
            self.language = language
            self.digits = digits
        }

        /// `text` (a number, a time, a date) in the page's digits.
        func number(_ text: String) -> String { digits.apply(text) }

        /// `value` in the page's digits.
        func number(_ value: Int) -> String { digits.apply(String(value)) }

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
        var ummAlQura: String { pick("Umm al-Qura", "أم القرى") }
        /// Between the parts of a footer line.
        var separator: String { pick("; ", "؛ ") }
        /// Between the items of a list.
        var listSeparator: String { pick(", ", "، ") }
        /// `from` before the first day of a zone's new offset.
        var from: String { pick("from", "من") }
        /// Before noon and after, on a 12-hour clock.
        var am: String { pick("am", "ص") }
        var pm: String { pick("pm", "م") }

        /// `21.4225, 39.8262` as the command line takes them; in Arabic with the hemispheres
        /// (`٢١٫٤٢٢٥ شمالًا، ٣٩٫٨٢٦٢ شرقًا`), which also keeps a minus sign out of right-to-left text.
        func coordinates(latitude: Double, longitude: Double) -> String {
            guard language == .ar else { return "\(latitude.formattedCompactly), \(longitude.formattedCompactly)" }
            let north = number(abs(latitude).formattedCompactly) + (latitude < 0 ? " جنوبًا" : " شمالًا")
            let east = number(abs(longitude).formattedCompactly) + (longitude < 0 ? " غربًا" : " شرقًا")
            return north + listSeparator + east
        }

        /// `elevation 12 m`.
        func elevation(_ metres: String) -> String { pick("elevation \(metres) m", "الارتفاع \(metres) م") }
        var calculatedBy: String { pick("Calculated by", "حُسبت بواسطة") }

        // MARK: High latitudes and the legend

        var highLatitudes: String { pick("High latitudes", "خطوط العرض العليا") }
        var rule: String { pick("rule", "القاعدة:") }
        var polarResolution: String { pick("polar resolution", "المعالجة القطبية:") }
        var seasons: String { pick("Moonsighting Committee seasons", "مواسم لجنة رؤية الهلال") }

        /// The name of a high-latitude rule: its option value in English.
        func ruleName(_ rule: HighLatitudeRule) -> String {
            guard language == .ar else { return rule.rawValue }
            switch rule {
            case .none: return "بلا قاعدة"
            case .middleOfTheNight: return "منتصف الليل"
            case .seventhOfTheNight: return "سُبع الليل"
            case .twilightAngle: return "زاوية الشفق"
            case .recommended: return "الموصى بها"
            }
        }

        /// The name of a polar resolution: its option value in English.
        func resolutionName(_ resolution: PolarResolution) -> String {
            guard language == .ar else { return resolution.rawValue }
            switch resolution {
            case .unresolved: return "بلا معالجة"
            case .nearestLatitude: return "أقرب خط عرض"
            case .nearestDay: return "أقرب يوم"
            }
        }

        /// `on 30 days (1–30 June)`, with the Arabic plural for the count.
        func onDays(_ count: Int, _ days: String) -> String {
            guard language == .ar else { return "on \(count) day\(count == 1 ? "" : "s") (\(days))" }
            let counted =
                switch count {
                case 1: "يوم واحد"
                case 2: "يومين"
                case 3...10: "\(number(count)) أيام"
                default: "\(number(count)) يومًا"
                }
            return "في \(counted) (\(days))"
        }

        /// `the times of latitudes 65.73°–68.99° N`.
        func fromLatitudes(_ range: String, north: Bool) -> String {
            pick(
                "the times of latitudes \(range) \(north ? "N" : "S")",
                "بأوقات خطوط العرض \(range) \(north ? "شمالًا" : "جنوبًا")")
        }

        /// `the times of 17 May – 27 July`.
        func fromDays(_ days: String) -> String { pick("the times of \(days)", "بأوقات \(days)") }

        var ruleMark: String {
            pick(
                "set by a rule: the high-latitude rule, the Moonsighting Committee's season, or held back to keep "
                    + "the day in order",
                "وقت حدّدته قاعدة: قاعدة خطوط العرض العليا أو مواسم لجنة رؤية الهلال، أو أُبقي ليبقى ترتيب اليوم")
        }

        /// What `~` means under `resolution`.
        func borrowedMark(_ resolution: PolarResolution) -> String {
            resolution == .nearestDay
                ? pick(
                    "taken from the nearest day on which the sun rises and sets here (polar resolution)",
                    "مأخوذ من أقرب يوم تشرق فيه الشمس وتغرب هنا (المعالجة القطبية)")
                : pick(
                    "taken from another latitude: the nearest one where the sun rises and sets that day "
                        + "(polar resolution)",
                    "مأخوذ من خط عرض آخر: أقرب خط تشرق فيه الشمس وتغرب في ذلك اليوم (المعالجة القطبية)")
        }

        var nextDayMark: String {
            pick("after midnight: on the day after the row's date", "بعد منتصف الليل: في اليوم التالي لتاريخ السطر")
        }
        var previousDayMark: String {
            pick("before midnight: on the day before the row's date", "قبل منتصف الليل: في اليوم السابق لتاريخ السطر")
        }

        /// What `–` means, and how to get the time when a polar resolution would give it.
        func missingMark(_ parameters: CalculationParameters) -> String {
            var text = pick(
                "unavailable: the sun does not rise, set or reach the time's angle that day",
                "غير متاح: لا تشرق الشمس أو لا تغرب أو لا تبلغ زاوية الوقت في ذلك اليوم")
            if parameters.highLatitudeRule == .none {
                text += pick(
                    " (--high-latitude-rule recommended gives fajr and isha)",
                    " (الخيار --high-latitude-rule recommended يعطي الفجر والعشاء)")
            } else if parameters.polarResolution == .unresolved {
                text += pick(
                    " (--polar-resolution nearest-latitude or nearest-day gives them)",
                    " (الخيار --polar-resolution nearest-latitude أو nearest-day يعطيها)")
            }
            return text
        }

        // MARK: Method

        /// The method's authority: its English name and option value, or its Arabic name.
        func methodName(_ method: CalculationMethod) -> String {
            guard language == .ar else {
                return method == .custom ? "custom" : "\(method.displayName) (\(method.rawValue))"
            }
            switch method {
            case .muslimWorldLeague: return "رابطة العالم الإسلامي"
            case .egyptian: return "الهيئة المصرية العامة للمساحة"
            case .karachi: return "جامعة العلوم الإسلامية، كراتشي"
            case .ummAlQura: return "جامعة أم القرى، مكة المكرمة"
            case .dubai: return "دبي (الهيئة العامة للشؤون الإسلامية والأوقاف)"
            case .moonsightingCommittee: return "لجنة رؤية الهلال العالمية"
            case .northAmerica: return "الجمعية الإسلامية لأمريكا الشمالية (إسنا)"
            case .kuwait: return "الكويت"
            case .qatar: return "قطر"
            case .singapore: return "مجلس سنغافورة الإسلامي (موئيس)"
            case .tehran: return "معهد الجيوفيزياء، جامعة طهران"
            case .turkey: return "رئاسة الشؤون الدينية، تركيا (تقريب)"
            case .gulf: return "منطقة الخليج"
            case .franceUOIF: return "اتحاد المنظمات الإسلامية في فرنسا (\(number(12))°)"
            case .france15: return "فرنسا (\(number(15))°)"
            case .france18: return "فرنسا (\(number(18))°)"
            case .russia: return "الإدارة الدينية لمسلمي روسيا"
            case .jakim: return "إدارة التنمية الإسلامية الماليزية (جاكيم)"
            case .kemenag: return "وزارة الشؤون الدينية الإندونيسية"
            case .tunisia: return "وزارة الشؤون الدينية التونسية"
            case .algeria: return "وزارة الشؤون الدينية والأوقاف الجزائرية"
            case .morocco: return "وزارة الأوقاف والشؤون الإسلامية المغربية"
            case .portugal: return "الجالية الإسلامية في لشبونة"
            case .jordan: return "وزارة الأوقاف والشؤون والمقدسات الإسلامية، الأردن"
            case .jafari: return "الشيعة الاثنا عشرية، معهد ليفا، قم"
            case .custom: return "مخصّصة"
            }
        }

        /// `fajr 18°, isha 90 min after maghrib, Asr shafi` (the method's own words in English).
        func settings(_ parameters: CalculationParameters) -> String {
            var parts: [String] = []
            if let angle = parameters.fajrAngle {
                parts.append(pick("fajr", prayer(.fajr)) + " " + number("\(angle.formattedCompactly)°"))
            }
            if let minutes = parameters.ishaInterval {
                let ramadan = parameters.ramadanIshaInterval.map {
                    pick(" (\($0) in Ramadan)", " (\(number($0)) في رمضان)")
                }
                parts.append(
                    pick("isha \(minutes) min after maghrib", "العشاء بعد المغرب بـ\(minutesText(minutes))")
                        + (ramadan ?? ""))
            } else if let angle = parameters.ishaAngle {
                parts.append(pick("isha", prayer(.isha)) + " " + number("\(angle.formattedCompactly)°"))
            }
            if let angle = parameters.maghribAngle {
                parts.append(pick("maghrib", prayer(.maghrib)) + " " + number("\(angle.formattedCompactly)°"))
            }
            if let minutes = parameters.maghribInterval {
                parts.append(
                    pick("maghrib \(minutes) min after sunset", "المغرب بعد الغروب بـ\(minutesText(minutes))"))
            }
            let factor = parameters.asrShadowFactor.formattedCompactly
            switch (parameters.madhab, language) {
            case (let madhab?, .en): parts.append("Asr \(madhab.rawValue)")
            case (.shafi?, .ar): parts.append("العصر شافعي")
            case (.hanafi?, .ar): parts.append("العصر حنفي")
            case (nil, _): parts.append(pick("Asr factor \(factor)", "العصر بظل ×\(number(factor))"))
            }
            let adjustments = parameters.totalAdjustments
            if !adjustments.isEmpty {
                parts.append(
                    language == .ar
                        ? "تعديلات: "
                            + Prayer.allCases.compactMap { prayer in
                                adjustments.minutes[prayer].map {
                                    "\(self.prayer(prayer)) \($0 > 0 ? "+" : "")\(number($0))"
                                }
                            }.joined(separator: listSeparator)
                        : "adjustments \(adjustments)")
            }
            return parts.joined(separator: listSeparator)
        }

        /// `fajr=+20,dhuhr=13:30` in English; `الفجر +20، الظهر 13:30` in Arabic.
        func iqamaRules(_ iqama: IqamaSettings) -> String {
            guard language == .ar else { return iqama.description }
            return Prayer.obligatory.compactMap { prayer in
                iqama.rules[prayer].map { "\(self.prayer(prayer)) \(number($0.description))" }
            }.joined(separator: listSeparator)
        }

        /// ` 3 دقائق` with the Arabic plural for the number (1, 2, 3–10, 11 and more).
        private func minutesText(_ minutes: Int) -> String {
            let noun =
                switch minutes {
                case 1: "دقيقة واحدة"
                case 2: "دقيقتين"
                case 3...10: "\(number(minutes)) دقائق"
                default: "\(number(minutes)) دقيقة"
                }
            return " " + noun
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
            case .option: pick("from --tz", "من الخيار --tz")
            case .saved: pick("saved with the place", "المحفوظة مع المكان")
            case .coordinates: pick("the zone at the coordinates", "منطقة الإحداثيات")
            case .city: pick("the city's zone", "منطقة المدينة")
            case .system: pick("the system's", "منطقة النظام")
            }
        }

        /// Why the method.
        func methodSource(_ source: MethodChoice.Source) -> String {
            switch source {
            case .option: pick("given with --method", "من الخيار --method")
            case .saved: pick("saved", "المحفوظة")
            case .country(let code): pick("chosen for \(code)", "المعتمدة في \(code)")
            case .default: pick("the default", "الافتراضية")
            }
        }
    }
}
