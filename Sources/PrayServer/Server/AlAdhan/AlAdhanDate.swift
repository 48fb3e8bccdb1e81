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

    /// The months that have special days.
    /// The months that have special days, a bit by month number: most days have none, and a bit says
    /// so without hashing the month for a set.
    private static let specialDayMonths: UInt16 = specialDays.reduce(0) { $0 | 1 << UInt16($1.month) }

    /// `DD-MM-YYYY`.
    static func dayMonthYear(_ date: CivilDate) -> String {
        "\(date.day.zeroPadded(2))-\(date.month.zeroPadded(2))-\(date.year.zeroPadded(4))"
    }

    /// Writes the `date` object of a day: `readable`, `timestamp`, then `hijri` and `gregorian` in the
    /// order AlAdhan uses for the route (`hijri` first for `/v1/timings`, last in calendars).
    ///
    /// All but the timestamp (which depends on the zone) is the same for every request about the day:
    /// its text is made once and kept (``dateTexts``), and the timestamp written into it.
    static func writeDate(
        _ date: CivilDate, timestamp: Int, hijri day: HijriDay, hijriFirst: Bool, to json: inout JSONWriter
    ) {
        // A Hijri day of another civil day (never met) is written afresh rather than kept.
        guard day.gregorian == date else {
            writeDateAfresh(date, timestamp: timestamp, hijri: day, hijriFirst: hijriFirst, to: &json)
            return
        }
        let key = DateKey(date: date, hijri: day, hijriFirst: hijriFirst)
        let text =
            dateTexts.read { $0[key] }
            ?? {
                let text = DateText(date, hijri: day, hijriFirst: hijriFirst)
                dateTexts.write { texts in
                    if texts.count >= dateTextCapacity { texts.removeAll(keepingCapacity: true) }
                    texts[key] = text
                }
                return text
            }()
        json.value { json in
            json.text(text.beforeTimestamp)
            json.digits(timestamp)
            json.text(text.afterTimestamp)
        }
    }

    /// Everything a `date` object's text is made of but the timestamp, packed into one word (hashed
    /// once, rather than field by field): the day (22 bits), the Hijri year (15), month (4) and day
    /// (5), the month's length (5), whether the date is tabular and whether `hijri` comes first.
    private struct DateKey: Hashable {
        let bits: UInt64

        init(date: CivilDate, hijri day: HijriDay, hijriFirst: Bool) {
            // Days from 0001-01-01 (0…3.7 million); Hijri years of civil years 1…9999 are −640…9666.
            let days = UInt64(truncatingIfNeeded: date.daysSince1970 + 719_162)
            let year = UInt64(truncatingIfNeeded: day.hijri.year + 1024) & 0x7FFF
            bits =
                days << 42 | year << 27 | UInt64(day.hijri.monthNumber & 15) << 23 | UInt64(day.hijri.day & 31) << 18
                | UInt64(day.monthLength & 31) << 13 | (day.isTabular ? 2 : 0) | (hijriFirst ? 1 : 0)
        }
    }

    /// A `date` object's text on either side of its timestamp's digits.
    private struct DateText {
        let beforeTimestamp: [UInt8]
        let afterTimestamp: [UInt8]

        init(_ date: CivilDate, hijri day: HijriDay, hijriFirst: Bool) {
            var json = JSONWriter(capacity: 1024)
            // An empty timestamp, cut between its quotes.
            let cut = writeDateAfresh(date, timestamp: nil, hijri: day, hijriFirst: hijriFirst, to: &json)
            let bytes = json.bytes
            (beforeTimestamp, afterTimestamp) = (Array(bytes[..<cut]), Array(bytes[cut...]))
        }
    }

    /// The `date` objects' texts made so far: a server is asked about the same few days over and over
    /// (today and tomorrow, this month), each the same text for every place. About 700 bytes each; at
    /// most ``dateTextCapacity`` (22 years of days, 6 MB), then the cache starts again.
    private static let dateTexts = ReadMostly<[DateKey: DateText]>([:])
    private static let dateTextCapacity = 8192

    /// Writes the `date` object of a day, every member afresh; with a `nil` timestamp, an empty one.
    /// Returns where in the writer the timestamp's digits begin.
    @discardableResult
    private static func writeDateAfresh(
        _ date: CivilDate, timestamp: Int?, hijri day: HijriDay, hijriFirst: Bool, to json: inout JSONWriter
    ) -> Int {
        var cut = 0
        json.beginObject()
        json.key("readable")
        writeReadable(date, to: &json)
        json.key("timestamp")
        json.quoted { text in
            cut = text.count
            if let timestamp { text.digits(timestamp) }
        }
        if hijriFirst {
            json.key("hijri")
            writeHijri(day, to: &json)
        }
        json.key("gregorian")
        writeGregorian(date, to: &json)
        if !hijriFirst {
            json.key("hijri")
            writeHijri(day, to: &json)
        }
        json.endObject()
        return cut
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

    /// Writes the text `DD-MM-YYYY` (inside a string), the year padded to `yearWidth` digits.
    private static func writeDayMonthYear(
        _ day: Int, _ month: Int, _ year: Int, yearWidth: Int, to text: inout JSONWriter
    ) {
        text.digits(day, width: 2)
        text.text(UInt8(ascii: "-"))
        text.digits(month, width: 2)
        text.text(UInt8(ascii: "-"))
        text.digits(year, width: yearWidth)
    }

    /// Writes the `gregorian` object.
    static func writeGregorian(_ date: CivilDate, to json: inout JSONWriter) {
        json.value { text in
            text.text(#"{"date":""#)
            writeDayMonthYear(date.day, date.month, date.year, yearWidth: 4, to: &text)
            text.text(#"","format":"DD-MM-YYYY","day":""#)
            text.digits(date.day, width: 2)
            text.text(#"","weekday":"#)
            text.text(gregorianWeekdays[date.isoWeekday - 1])
            text.text(#","month":"#)
            text.text(gregorianMonthObjects[date.month - 1])
            text.text(#","year":""#)
            text.digits(date.year, width: 4)
            // `lunarSighting`: whether Saudi Arabia's High Judicial Council announced a sighting on this
            // day; this server uses the Umm al-Qura table, not the announcements.
            text.text(#"","designation":{"abbreviated":"AD","expanded":"Anno Domini"},"lunarSighting":false}"#)
        }
    }

    /// Writes the `hijri` object of `day`.
    static func writeHijri(_ day: HijriDay, to json: inout JSONWriter) {
        let date = day.hijri
        json.value { text in
            text.text(#"{"date":""#)
            writeDayMonthYear(date.day, date.monthNumber, date.year, yearWidth: 1, to: &text)
            text.text(#"","format":"DD-MM-YYYY","day":""#)
            text.digits(date.day)
            text.text(#"","weekday":"#)
            text.text(hijriWeekdayObjects[day.gregorian.isoWeekday - 1])
            text.text(#","month":"#)
            // The month object without its closing brace, then its length.
            text.text(hijriMonthObjects[date.monthNumber - 1])
            text.text(#","days":"#)
            text.digits(day.monthLength)
            text.text(#"},"year":""#)
            text.digits(date.year)
            text.text(#"","designation":{"abbreviated":"AH","expanded":"Anno Hegirae"},"holidays":["#)
            for (index, name) in holidays(day).enumerated() {
                if index > 0 { text.text(UInt8(ascii: ",")) }
                text.quotedText(name)
            }
            // `method`: AlAdhan's `calendarMethod` code of the calendar that gave the day, UAQ for the
            // Umm al-Qura table, MATHEMATICAL for the tabular calendar (also used beyond the table's years).
            text.text(#"],"adjustedHolidays":[],"method":"#)
            text.text(day.isTabular ? #""MATHEMATICAL"}"# : #""UAQ"}"#)
        }
    }

    /// `{"en":"Monday"}` … by ISO weekday.
    private static let gregorianWeekdays: [[UInt8]] = [
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
    ].map { JSONValue.object([("en", .string($0))]).renderedBytes }

    /// `{"number":3,"en":"March"}` … by month.
    private static let gregorianMonthObjects: [[UInt8]] = gregorianMonths.enumerated().map {
        JSONValue.object([("number", .int($0.offset + 1)), ("en", .string($0.element))]).renderedBytes
    }

    /// `{"en":"Al Athnayn","ar":"الاثنين"}` … by ISO weekday.
    private static let hijriWeekdayObjects: [[UInt8]] = hijriWeekdays.map {
        JSONValue.object([("en", .string($0.en)), ("ar", .string($0.ar))]).renderedBytes
    }

    /// `{"number":9,"en":"Ramaḍān","ar":"رَمَضان"` (open: the month's length follows) … by month.
    private static let hijriMonthObjects: [[UInt8]] = hijriMonths.enumerated().map {
        Array(
            JSONValue.object([
                ("number", .int($0.offset + 1)), ("en", .string($0.element.en)), ("ar", .string($0.element.ar)),
            ])
            .renderedBytes.dropLast())
    }

    /// The special days on `day`, and Lailat-ul-Ragha'ib on the first Friday of Rajab.
    static func holidays(_ day: HijriDay) -> [String] {
        let month = day.hijri.monthNumber
        let date = day.hijri.day
        // Most days have none: no array is made for them.
        guard specialDayMonths & 1 << UInt16(month) != 0 else { return [] }
        var names = specialDays.filter { $0.month == month && $0.day == date }.map(\.name)
        if month == 7, date <= 7, day.gregorian.isoWeekday == 5 { names.append("Lailat-ul-Ragha'ib") }
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
