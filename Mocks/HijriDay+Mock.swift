import PrayCore

extension HijriDay {
    /// A Hijri day for tests: 19 Jumada al-Akhirah 1448 on 2026-11-29 unless told otherwise.
    public static func mock(
        gregorian: CivilDate = .mockDate, year: Int = 1448, month: Int = 6, day: Int = 19, monthLength: Int = 30,
        calendar: HijriCalendar = .ummAlQura
    ) -> HijriDay {
        HijriDay(
            gregorian: gregorian, hijri: .mock(year: year, month: month, day: day), monthLength: monthLength,
            calendar: calendar,
            isTabular: calendar == .civil
        )
    }
}
