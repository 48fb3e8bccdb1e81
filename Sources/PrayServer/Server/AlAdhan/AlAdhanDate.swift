import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `gregorian` and `hijri` objects of AlAdhan's responses, with AlAdhan's keys and wording.
///
/// Keys, order and strings follow api.aladhan.com's `HijriDate::getFormattedResponse` and
/// islamic-network/islamic-calendar's `Calendar` helper (month and weekday names, the special days);
/// the dates themselves come from PrayKit's ``HijriService``.
enum AlAdhanDate {
    static let gregorianMonths = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// The first three letters of each Gregorian month, as `date.readable` writes them (`01 Mar 2027`).
    static let gregorianMonthAbbreviations: [StaticString] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// Hijri month names as AlAdhan writes them (transliteration with diacritics, and Arabic).
    static let hijriMonths: [(en: String, ar: String)] = [
        ("Muḥarram", "مُحَرَّم"), ("Ṣafar", "صَفَر"), ("Rabīʿ al-awwal", "رَبيع الأوّل"),
        ("Rabīʿ al-thānī", "رَبيع الثاني"), ("Jumādá al-ūlá", "جُمادى الأولى"),
        ("Jumādá al-ākhirah", "جُمادى الآخرة"), ("Rajab", "رَجَب"), ("Shaʿbān", "شَعْبان"), ("Ramaḍān", "رَمَضان"),
        ("Shawwāl", "شَوّال"), ("Dhū al-Qaʿdah", "ذوالقعدة"), ("Dhū al-Ḥijjah", "ذوالحجة"),
    ]

    /// Weekday names of the Hijri object, Monday first, as AlAdhan writes them.
    static let hijriWeekdays: [(en: String, ar: String)] = [
        ("Al Athnayn", "الاثنين"), ("Al Thalaata", "الثلاثاء"), ("Al Arba'a", "الاربعاء"), ("Al Khamees", "الخميس"),
        ("Al Juma'a", "الجمعة"), ("Al Sabt", "السبت"), ("Al Ahad", "الاحد"),
    ]

    /// The days AlAdhan lists in `holidays`: (month, day, name), in its order.
    static let specialDays: [(month: Int, day: Int, name: String)] = [
        (1, 10, "Ashura"), (2, 1, "End of the holy months"), (3, 12, "Mawlid al-Nabi"),
        (7, 1, "Beginning of the holy months"), (7, 8, "Urs of Mawlana Shaykh Nazim al-Haqqani (ق)"),
        (7, 13, "Birth of Sayyidina `Ali ibn Abi Talib (ر)"), (7, 15, "Urs of Sayyidina Jafar as-Sadiq (ق)"),
        (7, 15, "Urs of Zaynab bint Ali (ر)"), (7, 27, "Lailat-ul-Miraj"), (8, 15, "Lailat-ul-Bara'at"),
        (9, 1, "1st Day of Ramadan"), (9, 21, "Lailat-ul-Qadr"), (9, 23, "Lailat-ul-Qadr"), (9, 25, "Lailat-ul-Qadr"),
        (9, 27, "Lailat-ul-Qadr"), (9, 29, "Lailat-ul-Qadr"), (10, 1, "Eid-ul-Fitr"), (12, 8, "Hajj"), (12, 9, "Hajj"),
        (12, 9, "Arafa"), (12, 10, "Eid-ul-Adha"), (12, 10, "Hajj"), (12, 11, "Hajj"), (12, 12, "Hajj"),
        (12, 13, "Hajj"),
    ]

    /// The names of ``specialDays`` by day of the year (month 1…12, day 1…30), in AlAdhan's order: a
    /// day's are looked up, not filtered out of the list for every date written.
    private static let specialDayNames: [[String]] = {
        var names = [[String]](repeating: [], count: 12 * 30)
        for day in specialDays { names[(day.month - 1) * 30 + day.day - 1].append(day.name) }
        return names
    }()

    /// `DD-MM-YYYY`.
    static func dayMonthYear(_ date: CivilDate) -> String {
        "\(date.day.zeroPadded(2))-\(date.month.zeroPadded(2))-\(date.year.zeroPadded(4))"
    }

    /// Writes the `date` object of a day: `readable`, `timestamp`, then `hijri` and `gregorian` in the
    /// order AlAdhan uses for the route (`hijri` first for `/v1/timings`, last in calendars).
    static func writeDate(
        _ date: CivilDate, timestamp: Int, hijri day: HijriDay, hijriFirst: Bool, to json: inout JSONWriter
    ) {
        json.beginObject()
        json.key("readable")
        writeReadable(date, to: &json)
        json.key("timestamp")
        json.intString(timestamp)
        // The weekday counted once for both objects (from the day number: a third of the date's cost).
        let weekday = date.isoWeekday
        let hijriWeekday = day.gregorian == date ? weekday : day.gregorian.isoWeekday
        if hijriFirst {
            json.key("hijri")
            writeHijri(day, isoWeekday: hijriWeekday, to: &json)
        }
        json.key("gregorian")
        writeGregorian(date, isoWeekday: weekday, to: &json)
        if !hijriFirst {
            json.key("hijri")
            writeHijri(day, isoWeekday: hijriWeekday, to: &json)
        }
        json.endObject()
    }

    /// Writes `01 Mar 2027`, the `date.readable` string.
    private static func writeReadable(_ date: CivilDate, to json: inout JSONWriter) {
        json.quoted { text in
            text.digits(date.day, width: 2)
            text.text(UInt8(ascii: " "))
            text.text(gregorianMonthAbbreviations[date.month - 1])
            text.text(UInt8(ascii: " "))
            text.digits(date.year, width: 4)
        }
    }

    /// Writes the `gregorian` object; `isoWeekday` is the date's, when the caller has it.
    static func writeGregorian(_ date: CivilDate, isoWeekday: Int? = nil, to json: inout JSONWriter) {
        let weekday = isoWeekday ?? date.isoWeekday
        json.value { text in
            text.text(#"{"date":""#)
            text.dayMonthYear(date.day, date.month, date.year, yearWidth: 4)
            text.text(#"","format":"DD-MM-YYYY","day":""#)
            text.digits(date.day, width: 2)
            text.text(gregorianWeekdays[weekday - 1])
            text.text(gregorianMonthObjects[date.month - 1])
            text.digits(date.year, width: 4)
            // `lunarSighting`: whether Saudi Arabia's High Judicial Council announced a sighting on this
            // day; this server uses the Umm al-Qura table, not the announcements.
            text.text(#"","designation":{"abbreviated":"AD","expanded":"Anno Domini"},"lunarSighting":false}"#)
        }
    }

    /// Writes the `hijri` object of `day`; `isoWeekday` is its Gregorian day's, when the caller has it.
    static func writeHijri(_ day: HijriDay, isoWeekday: Int? = nil, to json: inout JSONWriter) {
        let date = day.hijri
        let weekday = isoWeekday ?? day.gregorian.isoWeekday
        json.value { text in
            text.text(#"{"date":""#)
            text.dayMonthYear(date.day, date.monthNumber, date.year, yearWidth: 1)
            text.text(#"","format":"DD-MM-YYYY","day":""#)
            // Two digits, as api.aladhan.com writes it ("day":"08") and as the Gregorian day is.
            text.digits(date.day, width: 2)
            text.text(hijriWeekdayObjects[weekday - 1])
            // The month object without its closing brace, then its length.
            text.text(hijriMonthObjects[date.monthNumber - 1])
            text.digits(day.monthLength)
            text.text(#"},"year":""#)
            text.digits(date.year)
            text.text(#"","designation":{"abbreviated":"AH","expanded":"Anno Hegirae"},"holidays":["#)
            for (index, name) in holidays(day, isoWeekday: weekday).enumerated() {
                if index > 0 { text.text(UInt8(ascii: ",")) }
                text.quotedText(name)
            }
            // `method`: AlAdhan's `calendarMethod` code of the calendar that gave the day, UAQ for the
            // Umm al-Qura table, MATHEMATICAL for the tabular calendar (also used beyond the table's years).
            text.text(
                day.isTabular
                    ? #"],"adjustedHolidays":[],"method":"MATHEMATICAL"}"# : #"],"adjustedHolidays":[],"method":"UAQ"}"#
            )
        }
    }

    // The pieces below carry the text around them (keys, quotes), so that a date is written in fewer
    // pieces: each piece costs a call and a copy.

    /// `","weekday":{"en":"Monday"},"month":` … by ISO weekday.
    private static let gregorianWeekdays: [[UInt8]] = [
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
    ].map {
        Array(#"","weekday":"#.utf8) + JSONValue.object([("en", .string($0))]).renderedBytes + Array(#","month":"#.utf8)
    }

    /// `{"number":3,"en":"March"},"year":"` … by month.
    private static let gregorianMonthObjects: [[UInt8]] = gregorianMonths.enumerated().map {
        JSONValue.object([("number", .int($0.offset + 1)), ("en", .string($0.element))]).renderedBytes
            + Array(#","year":""#.utf8)
    }

    /// `","weekday":{"en":"Al Athnayn","ar":"الاثنين"},"month":` … by ISO weekday.
    private static let hijriWeekdayObjects: [[UInt8]] = hijriWeekdays.map {
        Array(#"","weekday":"#.utf8) + JSONValue.object([("en", .string($0.en)), ("ar", .string($0.ar))]).renderedBytes
            + Array(#","month":"#.utf8)
    }

    /// `{"number":9,"en":"Ramaḍān","ar":"رَمَضان","days":` (open: the month's length follows) … by month.
    private static let hijriMonthObjects: [[UInt8]] = hijriMonths.enumerated().map {
        Array(
            JSONValue.object([
                ("number", .int($0.offset + 1)), ("en", .string($0.element.en)), ("ar", .string($0.element.ar)),
            ])
            .renderedBytes.dropLast()) + Array(#","days":"#.utf8)
    }

    /// The special days on `day`, and Lailat-ul-Ragha'ib on the first Friday of Rajab (`isoWeekday`: the
    /// day's weekday, when the caller has it).
    static func holidays(_ day: HijriDay, isoWeekday: Int? = nil) -> [String] {
        let month = day.hijri.monthNumber
        let date = day.hijri.day
        guard (1...12).contains(month), (1...30).contains(date) else { return [] }
        let names = specialDayNames[(month - 1) * 30 + date - 1]
        if month == 7, date <= 7, (isoWeekday ?? day.gregorian.isoWeekday) == 5 {
            return names + ["Lailat-ul-Ragha'ib"]
        }
        return names
    }

    /// The pair `{hijri, gregorian}` that `/v1/gToH` and `/v1/hToG` answer.
    static func pair(_ day: HijriDay) -> JSONValue {
        .written { json in
            json.beginObject()
            json.key("hijri")
            writeHijri(day, to: &json)
            json.key("gregorian")
            writeGregorian(day.gregorian, to: &json)
            json.endObject()
        }
    }
}
