import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// ``MosqueTimetableCheck``: a mosque's times against the sun's at its place, on real calculations.
@Suite struct MosqueTimetableCheckTests {
    private static let calculator = PrayerServiceAstronomical(log: .silent)
    private static let london = Coordinates.mockLondon

    /// The findings of `csv` at `place` in London's zone, calculated with the Moonsighting Committee
    /// method (the one chosen for GB) and the Shafi'i asr.
    private func findings(_ csv: String, at place: Coordinates = london) throws -> [MosqueTimetableCheck.Finding] {
        let days = try MosqueTimetableCSV.days(from: Data(csv.utf8))
        let timetable = MosqueTimetable(name: "Test", coordinates: place, timeZone: "Europe/London", days: days)
        var request = PrayerAPI.Request(
            coordinates: place, timeZone: TimeZone(identifier: "Europe/London")!,
            date: days[0].date.adding(days: -1), days: days.count + 1,
            parameters: CalculationParameters(method: .moonsightingCommittee))
        let own = try Self.calculator.schedules(for: request)
        request.parameters.madhab = .hanafi
        return MosqueTimetableCheck.findings(
            in: timetable, calculated: own, otherMadhab: try Self.calculator.schedules(for: request))
    }

    @Test func realTimetablesOfEveryConventionPass() throws {
        // Given: London in winter and midsummer as mosques print them — a Hanafi asr, a 12° fajr, an isha
        // 80 minutes after maghrib, a Ja'fari maghrib 35 minutes after sunset; Lerwick's isha after midnight
        let winter = "date,fajr,sunrise,dhuhr,asr,maghrib,isha\n2026-12-01,05:50,07:45,12:05,13:50,16:00,18:15\n"
        let summer = "date,fajr,sunrise,dhuhr,asr,maghrib,isha\n2027-06-21,03:20,04:43,13:07,18:40,21:56,22:40\n"
        let north = "date,maghrib,isha\n2027-06-21,22:40,00:40\n"
        // Then
        #expect(try findings(winter).isEmpty)
        let inSummer = try findings(summer)
        #expect(inSummer.isEmpty, "\(inSummer.map(\.prayer))")
        #expect(try findings(north, at: try Coordinates(latitude: 60.155, longitude: -1.145)).isEmpty)
    }

    @Test func aWrongMonthZoneOrColumnIsFound() throws {
        // Given: June's maghrib of a winter file; every time an hour early (GMT in summer); asr and
        // maghrib swapped
        let month = "date,maghrib\n2027-06-14,17:50\n"
        let zone = "date,sunrise,dhuhr,maghrib\n2027-06-21,03:43,12:02,20:21\n"
        let columns = "date,asr,maghrib\n2026-12-01,15:55,13:40\n"
        // Then
        let found = try findings(month)
        #expect(found.map(\.prayer) == [.maghrib] && found.first?.date.description == "2027-06-14")
        #expect(try findings(zone).map(\.prayer) == [.sunrise, .dhuhr, .maghrib])
        #expect(throws: ValidationError.self) { try findings(columns) }  // out of order: refused before
        let swapped = "date,asr,maghrib\n2026-12-01,12:30,18:00\n"
        #expect(try findings(swapped).map(\.prayer) == [.asr, .maghrib])
    }
}
