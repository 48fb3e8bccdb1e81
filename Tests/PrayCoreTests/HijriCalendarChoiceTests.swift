import Foundation
import PrayCore
import PrayMocks
import Testing

/// Which Hijri calendar a person follows: their own settings, or their chosen mosque's.
@Suite struct HijriCalendarChoiceTests {
    let ramadan: HijriMonthStarts.Month
    let shawwal: HijriMonthStarts.Month

    init() throws {
        ramadan = try HijriMonthStarts.Month(year: 1448, month: 9)
        shawwal = try HijriMonthStarts.Month(year: 1448, month: 10)
    }

    func saved(mosque: String?) throws -> Preferences {
        var saved = Preferences()
        try saved.set("civil", for: .hijriCalendar)
        try saved.set("-1", for: .hijriOffset)
        try saved.set("1448-09=2027-02-09,1448-10=2027-03-10", for: .hijriStarts)
        if let mosque { try saved.set(mosque, for: .mosque) }
        return saved
    }

    @Test func withoutAMosqueTheSavedCalendarCounts() throws {
        let choice = try HijriCalendarChoice(saved: saved(mosque: nil), mosques: MosqueTimetableStoreFake())
        #expect(choice.calendar == .civil && choice.offset == -1 && choice.mosque == nil)
        #expect(choice.starts.sorted.map(\.month) == [ramadan, shawwal])
    }

    @Test func theChosenMosquesCalendarAndStartsWinAndTheOtherMonthsStayThePersons() throws {
        let mosques = MosqueTimetableStoreFake()
        try mosques.setSettings(
            SyncMosqueSettingsValue(
                latitude: 51.5, longitude: -0.07, timeZone: "Europe/London", hijriCalendar: .ummAlQura, hijriOffset: 1),
            of: "East London Mosque")
        try mosques.setHijriMonthStart(try CivilDate(parsing: "2027-02-08"), for: ramadan, of: "East London Mosque")
        let choice = try HijriCalendarChoice(saved: saved(mosque: "East London Mosque"), mosques: mosques)
        #expect(choice.calendar == .ummAlQura && choice.offset == 1 && choice.mosque == "East London Mosque")
        #expect(choice.starts[ramadan] == (try CivilDate(parsing: "2027-02-08")))
        #expect(choice.starts[shawwal] == (try CivilDate(parsing: "2027-03-10")))
        var request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 51.5, longitude: -0.07), timeZone: TimeZone(identifier: "UTC")!,
            date: try CivilDate(parsing: "2027-02-08"), parameters: CalculationParameters(method: .muslimWorldLeague))
        choice.apply(to: &request)
        #expect(request.hijriCalendar == HijriCalendar.ummAlQura && request.hijriOffset == 1)
        #expect(request.hijriMonthStarts == choice.starts)
    }

    @Test func aMosqueWithOnlyAnnouncedStartsKeepsThePersonsCalendar() throws {
        let mosques = MosqueTimetableStoreFake()
        try mosques.setHijriMonthStart(try CivilDate(parsing: "2027-02-08"), for: ramadan, of: "Masjid al-Noor")
        let choice = try HijriCalendarChoice(saved: saved(mosque: "Masjid al-Noor"), mosques: mosques)
        #expect(choice.calendar == .civil && choice.offset == -1 && choice.mosque == "Masjid al-Noor")
        #expect(choice.starts[ramadan] == (try CivilDate(parsing: "2027-02-08")))
        let unknown = try HijriCalendarChoice(saved: saved(mosque: "Elsewhere"), mosques: mosques)
        #expect(unknown == HijriCalendarChoice(saved: try saved(mosque: nil)))
    }

    @Test func theLocationManagersRequestFollowsTheChosenMosque() async throws {
        let mosques = MosqueTimetableStoreFake()
        try mosques.setSettings(
            SyncMosqueSettingsValue(latitude: 51.5, longitude: -0.07, timeZone: "Europe/London", hijriOffset: 2),
            of: "East London Mosque")
        let zones = TimeZoneServiceMock()
        zones.onTimeZone { _ in TimeZoneLookup(identifier: "Europe/London", source: .boundaries) }
        let places = PlaceServiceMock()
        places.onNearest { _, _ in [] }
        places.onCountryCodes { _ in [] }
        let manager = LocationManager(
            timeZoneService: zones, placeService: places,
            preferences: PreferencesStoreFake(try saved(mosque: "East London Mosque")),
            locationService: LocationServiceMock(), mosques: mosques, log: .silent)
        let prepared = try await manager.prayerRequest(
            for: LocationAPI.Request(.coordinates(try Coordinates(latitude: 51.5, longitude: -0.07))),
            at: Date(timeIntervalSince1970: 1_801_000_000))
        #expect(prepared.request.hijriCalendar == .ummAlQura && prepared.request.hijriOffset == 2)
        #expect(prepared.request.hijriMonthStarts == (try saved(mosque: nil)).hijriMonthStarts)
    }
}
