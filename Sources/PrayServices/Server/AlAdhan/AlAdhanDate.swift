import Foundation
import PrayCore

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

    /// `DD-MM-YYYY`.
    static func dayMonthYear(_ date: CivilDate) -> String {
        "\(date.day.zeroPadded(2))-\(date.month.zeroPadded(2))-\(date.year.zeroPadded(4))"
    }

    /// `01 Mar 2027`, as `date.readable`.
    static func readable(_ date: CivilDate) -> String {
        "\(date.day.zeroPadded(2)) \(gregorianMonths[date.month - 1].prefix(3)) \(date.year.zeroPadded(4))"
    }

    /// The `gregorian` object.
    static func gregorian(_ date: CivilDate) -> JSONValue {
        .object([
            ("date", .string(dayMonthYear(date))),
            ("format", .string("DD-MM-YYYY")),
            ("day", .string(date.day.zeroPadded(2))),
            ("weekday", .object([("en", .string(date.weekdayName))])),
            ("month", .object([("number", .int(date.month)), ("en", .string(gregorianMonths[date.month - 1]))])),
            ("year", .string(date.year.zeroPadded(4))),
            ("designation", .object([("abbreviated", .string("AD")), ("expanded", .string("Anno Domini"))])),
            // Whether Saudi Arabia's High Judicial Council announced a sighting on this day: this server
            // uses the Umm al-Qura table, not the announcements.
            ("lunarSighting", .bool(false)),
        ])
    }

    /// The `hijri` object of `day`.
    static func hijri(_ day: HijriDay) -> JSONValue {
        let date = day.hijri
        let month = hijriMonths[date.monthNumber - 1]
        let weekday = hijriWeekdays[day.gregorian.isoWeekday - 1]
        return .object([
            ("date", .string("\(date.day.zeroPadded(2))-\(date.monthNumber.zeroPadded(2))-\(date.year)")),
            ("format", .string("DD-MM-YYYY")),
            ("day", .string(String(date.day))),
            ("weekday", .object([("en", .string(weekday.en)), ("ar", .string(weekday.ar))])),
            (
                "month",
                .object([
                    ("number", .int(date.monthNumber)), ("en", .string(month.en)), ("ar", .string(month.ar)),
                    ("days", .int(day.monthLength)),
                ])
            ),
            ("year", .string(String(date.year))),
            ("designation", .object([("abbreviated", .string("AH")), ("expanded", .string("Anno Hegirae"))])),
            ("holidays", .array(holidays(day).map(JSONValue.string))),
            ("adjustedHolidays", .array([])),
            ("method", .string(calendarMethod(day))),
        ])
    }

    /// AlAdhan's `calendarMethod` code of the calendar that gave `day`: `UAQ` for the Umm al-Qura table,
    /// `MATHEMATICAL` for the tabular calendar (also used beyond the table's years).
    static func calendarMethod(_ day: HijriDay) -> String {
        day.isTabular ? "MATHEMATICAL" : "UAQ"
    }

    /// The special days on `day`, and Lailat-ul-Ragha'ib on the first Friday of Rajab.
    static func holidays(_ day: HijriDay) -> [String] {
        let month = day.hijri.monthNumber
        let date = day.hijri.day
        var names = specialDays.filter { $0.month == month && $0.day == date }.map(\.name)
        if month == 7, date <= 7, day.gregorian.isoWeekday == 5 { names.append("Lailat-ul-Ragha'ib") }
        return names
    }

    /// The pair `{hijri, gregorian}` that `/v1/gToH` and `/v1/hToG` answer.
    static func pair(_ day: HijriDay) -> JSONValue {
        .object([("hijri", hijri(day)), ("gregorian", gregorian(day.gregorian))])
    }
}
