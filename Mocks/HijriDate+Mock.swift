import PrayCore

extension HijriDate {
    /// A Hijri date for tests: 19 Jumada al-Akhirah 1448 unless told otherwise.
    public static func mock(year: Int = 1448, month: Int = 6, day: Int = 19) -> HijriDate {
        do { return try HijriDate(year: year, month: month, day: day) } catch { fatalError("\(error)") }
    }
}
