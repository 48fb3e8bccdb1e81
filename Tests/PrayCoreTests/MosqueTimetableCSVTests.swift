import Foundation
import PrayCore
import PrayMocks
import Testing

/// The CSV format of `praykit timetable import`, and the overlay of a mosque's days on calculated ones.
@Suite struct MosqueTimetableCSVTests {
    private func parse(_ text: String) throws(ValidationError) -> [MosqueDay] {
        try MosqueTimetableCSV.days(from: Data(text.utf8))
    }

    private func message(_ bytes: Data) -> String? {
        do {
            _ = try MosqueTimetableCSV.days(from: bytes)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func readsEveryColumnWithABOMAndCRLF() throws {
        // Given: a BOM, CRLF line ends, columns in any order and case, empty cells, two Jumu'ah times
        let text =
            "\u{FEFF}Date,fajr,sunrise,dhuhr,asr,maghrib,isha,fajr_iqama,isha_iqama,jumuah\r\n"
            + "2026-12-04,05:52,07:47,12:06,13:50,16:01,18:16,06:30,,13:30 12:15\r\n"
            + "2026-12-01,05:50,,12:05,,16:00,18:15,,18:30,\r\n\r\n"
        // When
        let days = try parse(text)
        // Then: sorted by date, the times in minutes, empty cells left out
        #expect(days.map(\.date.description) == ["2026-12-01", "2026-12-04"])
        #expect(days[0].adhan == [.fajr: 350, .dhuhr: 725, .maghrib: 960, .isha: 1095])
        #expect(days[0].iqama == [.isha: 1110] && days[0].jumuah.isEmpty)
        #expect(days[1].adhan.count == 6 && days[1].iqama == [.fajr: 390])
        #expect(days[1].jumuah == [735, 810])
    }

    @Test(arguments: [
        ("date,fajr,sunrise\n2026-12-01,08:50,07:45\n", "line 2:", "not after fajr"),
        ("date,fajr,fajr_iqama\n2026-12-01,06:00,05:45\n", "line 2:", "before the fajr adhan"),
        (
            "date,fajr\n2026-12-01,05:50\n2026-12-02,05:51\n2026-12-01,05:52\n", "line 4:",
            "given twice (first on line 2)"
        ),
        ("fajr,dhuhr\n05:50,12:00\n", "line 1:", "no 'date' column"),
        ("date,fajr,tahajjud\n2026-12-01,05:50,03:00\n", "line 1:", "unknown column 'tahajjud'"),
        ("date,fajr\n2026-12-01,5:5\n", "line 2:", "fajr '5:5' is not a time"),
        ("date,fajr\n2026-12-01,24:00\n", "line 2:", "not a time"),
        ("date,fajr\n2026-02-30,05:50\n", "line 2:", "'2026-02-30' is not a day: February 2026 has 28 days"),
        ("date,fajr\n27-2-3,05:50\n", "line 2:", "the date '27-2-3' is not a day written YYYY-MM-DD"),
        ("date,jumuah\n2026-12-04,13:00 1pm\n", "line 2:", "jumuah '1pm'"),
        // Jumu'ah on a Thursday is a mistake; a fourth time is refused as in a mosque's settings.
        ("date,jumuah\n2026-12-04,12:15\n2026-12-10,12:15\n", "line 3:", "2026-12-10 is a Thursday, not a Friday"),
        ("date,jumuah\n2026-12-11,12:15 13:30 14:00 15:00\n", "line 2:", "4 Jumu'ah times; a mosque gives at most 3"),
        ("date,fajr\n2026-12-01\n", "line 2:", "1 cells, but the header names 2"),
        ("", "line 1:", "empty"),
        ("\n\n", "line 1:", "empty"),
        ("date,fajr\n", "line 1:", "no days"),
    ])
    func badInputNamesTheLine(_ text: String, _ line: String, _ reason: String) {
        let message = message(Data(text.utf8))
        #expect(message?.hasPrefix(line) == true, "\(message ?? "accepted")")
        #expect(message?.contains(reason) == true, "\(message ?? "accepted")")
    }

    @Test func anotherEncodingIsRefusedNamingItsLine() {
        // Given: Latin-1 'é' (0xE9) on line 3, and UTF-16
        var latin1 = Data("date,fajr\n2026-12-01,05:50\n".utf8)
        latin1.append(contentsOf: [0x32, 0x30, 0xE9, 0x0A])
        let utf16 = "date,fajr\n2026-12-01,05:50\n".data(using: .utf16) ?? Data()
        // Then
        #expect(message(latin1)?.hasPrefix("line 3: the file is not UTF-8") == true)
        #expect(message(utf16)?.contains("not UTF-8") == true)
    }

    @Test func aMistypedColumnIsSuggestedAndSemicolonsAreNamed() {
        // Given: 'dhur' for dhuhr; a file saved with semicolons (a spreadsheet in a comma-decimal locale)
        let typo = message(Data("date,fajr,dhur\n2026-12-01,05:50,12:00\n".utf8))
        let semicolons = message(Data("date;fajr;dhuhr\n2026-12-01;05:50;12:00\n".utf8))
        // Then
        #expect(typo?.contains("unknown column 'dhur' (did you mean 'dhuhr'?)") == true, "\(typo ?? "accepted")")
        #expect(semicolons?.hasPrefix("line 1: ") == true, "\(semicolons ?? "accepted")")
        #expect(semicolons?.contains("separated by semicolons") == true, "\(semicolons ?? "accepted")")
        #expect(semicolons?.contains("unknown column") == false, "\(semicolons ?? "accepted")")
    }

    @Test func anIshaAfterMidnightIsTheNextDays() throws {
        // Given: a Shetland midsummer: maghrib 22:40, isha 00:40 and its iqama 00:55 after midnight
        let days = try parse("date,maghrib,isha,isha_iqama\n2027-06-21,22:40,00:40,00:55\n")
        // Then: minutes after the day's own midnight, past 24 hours
        #expect(days[0].adhan[.isha] == 24 * 60 + 40 && days[0].iqama[.isha] == 24 * 60 + 55)
        // A fajr, or an isha after 06:00 before maghrib, is still out of order
        #expect(message(Data("date,maghrib,isha\n2027-06-21,22:40,07:00\n".utf8))?.contains("not after") == true)
        #expect(message(Data("date,fajr,sunrise\n2027-06-21,00:40,00:30\n".utf8))?.contains("not after") == true)
        // Laid over a day, it is the next civil day's 00:40
        let zone = TimeZone(identifier: "Europe/London")!
        let schedule = PrayerSchedule(
            date: days[0].date, timeZone: zone, coordinates: Self.london, times: [])
        let overlaid = PrayerServiceMosque.overlay(days[0], of: "Lerwick", on: schedule)
        #expect(overlaid[.isha]?.date == Date(timeIntervalSince1970: 1_813_621_200))  // 2027-06-22T00:40+01:00
    }

    // MARK: - Overlay

    private static let london = Coordinates.mockLondon
    private static let zone = TimeZone(identifier: "Europe/London")!

    private static func calculated(_ request: PrayerAPI.Request) -> PrayerAPI.Response {
        // Every day at 04:00 imsak, 04:10 fajr, 07:40 sunrise, 12:00 dhuhr, 13:30 asr, 15:55 maghrib, 17:30 isha
        let schedules = request.dates.map { date in
            let midnight = Double(date.daysSince1970) * 86_400
            func at(_ hour: Int, _ minute: Int) -> Date {
                Date(timeIntervalSince1970: midnight + Double(hour * 3600 + minute * 60))
            }
            let times = [
                PrayerTime(prayer: .imsak, date: at(4, 0), derivation: .interval(minutes: -10, from: .fajr)),
                PrayerTime(prayer: .fajr, date: at(4, 10), derivation: .altitude(-18)),
                PrayerTime(prayer: .sunrise, date: at(7, 40), derivation: .altitude(-0.8333)),
                PrayerTime(prayer: .dhuhr, date: at(12, 0), derivation: .transit),
                PrayerTime(prayer: .asr, date: at(13, 30), derivation: .shadow(factor: 1)),
                PrayerTime(prayer: .maghrib, date: at(15, 55), derivation: .altitude(-0.8333)),
                PrayerTime(prayer: .isha, date: at(17, 30), derivation: .altitude(-18)),
            ]
            return PrayerSchedule(date: date, timeZone: Self.zone, coordinates: Self.london, times: times)
        }
        return PrayerAPI.Response(schedules: schedules, source: .calculated)
    }

    private func service(chosen: String?, store: MosqueTimetableStoreFake) throws -> PrayerServiceMosque {
        let prayers = PrayerServiceMock()
        prayers.onPrayerTimes { request in Self.calculated(request) }
        var saved = Preferences()
        if let chosen { try saved.set(chosen, for: .mosque) }
        return PrayerServiceMosque(base: prayers, store: store, preferences: PreferencesStoreFake(saved))
    }

    private func store() throws -> MosqueTimetableStoreFake {
        let days = try parse(
            "date,fajr,dhuhr,fajr_iqama,jumuah\n2026-12-01,05:50,12:05,06:30,\n2026-12-04,05:52,,,12:15 13:30\n")
        let other = try parse("date,fajr\n2026-12-01,06:20\n")
        return MosqueTimetableStoreFake([
            MosqueTimetable(name: "East", coordinates: Self.london, timeZone: "Europe/London", days: days),
            MosqueTimetable(name: "West", coordinates: Self.london, timeZone: "Europe/London", days: other),
        ])
    }

    @Test func theChosenMosquesDaysReplaceTheCalculatedTimesAndTheRestFillTheGaps() async throws {
        // Given
        let request = PrayerAPI.Request(
            coordinates: Self.london, timeZone: Self.zone, date: try CivilDate(parsing: "2026-11-30"), days: 5,
            parameters: CalculationParameters(method: .muslimWorldLeague))
        // When
        let response = try await service(chosen: "East", store: store()).prayerTimes(for: request)
        // Then: 12-01 and 12-04 from the mosque, the other days and prayers calculated
        let days = response.schedules
        #expect(days.map(\.mosque) == [nil, "East", nil, nil, "East"])
        let first = days[1]
        #expect(first[.fajr]?.derivation == .published && first[.dhuhr]?.derivation == .published)
        #expect(first[.fajr]?.date == Date(timeIntervalSince1970: 1_796_083_200 + 350 * 60))
        #expect(first[.asr]?.derivation == .shadow(factor: 1))
        // imsak follows the mosque's fajr
        #expect(first[.imsak]?.date == first[.fajr]?.date.addingTimeInterval(-600))
        #expect(first.congregationTimes[.fajr] == Date(timeIntervalSince1970: 1_796_083_200 + 390 * 60))
        #expect(days[4].jumuahTimes.count == 2 && days[4][.dhuhr]?.derivation == .transit)
        #expect(days[0] == Self.calculated(request).schedules[0])
        // Friday's iqama for dhuhr is the mosque's first Jumu'ah, without any iqama settings
        let timer = PrayerTimer(schedules: days, iqama: nil)
        #expect(try timer.iqamaDate(of: #require(days[4][.dhuhr])) == days[4].jumuahTimes.first)
    }

    @Test func twoMosquesAreKeptByNameAndOnlyTheChosenOneApplies() async throws {
        let request = PrayerAPI.Request(
            coordinates: Self.london, timeZone: Self.zone, date: try CivilDate(parsing: "2026-12-01"),
            parameters: CalculationParameters(method: .muslimWorldLeague))
        let east = try await service(chosen: "East", store: store()).prayerTimes(for: request).schedules[0]
        let west = try await service(chosen: "West", store: store()).prayerTimes(for: request).schedules[0]
        let none = try await service(chosen: nil, store: store()).prayerTimes(for: request).schedules[0]
        #expect(east[.fajr]?.date != west[.fajr]?.date)
        #expect(west.mosque == "West" && west[.dhuhr]?.derivation == .transit)
        #expect(none.mosque == nil && none == Self.calculated(request).schedules[0])
    }

    @Test func aPlaceFarFromTheMosqueOrInAnotherZoneKeepsItsCalculatedTimes() async throws {
        let makkah = try Coordinates(latitude: 21.4225, longitude: 39.8262)
        var request = PrayerAPI.Request(
            coordinates: makkah, timeZone: Self.zone, date: try CivilDate(parsing: "2026-12-01"),
            parameters: CalculationParameters(method: .muslimWorldLeague))
        let far = try await service(chosen: "East", store: store()).prayerTimes(for: request).schedules[0]
        #expect(far.mosque == nil)
        request.coordinates = Self.london
        request.timeZone = TimeZone(identifier: "UTC")!
        let otherZone = try await service(chosen: "East", store: store()).prayerTimes(for: request).schedules[0]
        #expect(otherZone.mosque == nil)
    }

    @Test func anErrorQuotesAtMostFortyCharactersOfTheFileAndNoControlCharacter() {
        // Given: a time cell of 10,000 characters with an escape sequence, and a long unknown column
        let cell = "\u{1B}[2J" + String(repeating: "9", count: 10_000)
        for text in ["date,fajr\n2027-03-01,\(cell)\n", "date,\(cell)\n2027-03-01,05:00\n"] {
            // When
            var message = ""
            do {
                _ = try MosqueTimetableCSV.days(from: Data(text.utf8))
            } catch {
                message = error.message
            }
            // Then: the error names the cell, cut, with its escape written out
            #expect(message.count < 400 && message.contains("…") && message.contains("\\x1B"), "\(message)")
            #expect(!message.unicodeScalars.contains { $0.value == 0x1B })
        }
    }
}
