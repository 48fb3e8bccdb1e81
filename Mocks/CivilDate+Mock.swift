import PrayCore

extension CivilDate {
    /// 2026-11-29, the day the mocks use unless told otherwise.
    public static let mockDate = CivilDate(daysSince1970: 20_786)
}
