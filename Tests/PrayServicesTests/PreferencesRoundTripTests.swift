import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

/// Config set → get for every `Preferences.Key` at its boundary values: what is read back is the
/// value set (normalised), setting it again changes nothing, it survives the storage text, JSON and
/// the database, and a value just outside the bounds is refused without changing anything.
@Suite(.tags(.concurrency)) struct PreferencesRoundTripTests {
    /// Values a key accepts (as given, and as stored) and values it refuses.
    struct Samples {
        let accepted: [(given: String, stored: String)]
        let refused: [String]
    }

    /// The boundary values of every key. The switch has no default, so a new key does not compile
    /// until its bounds are listed here.
    static func samples(for key: Preferences.Key) -> Samples {
        let degrees = Samples(
            accepted: [("0", "0"), ("89", "89"), ("18.5", "18.5"), ("19.50", "19.5"), (" 12 ", "12")],
            refused: ["-0.1", "89.000001", "90", "nan", "inf", "", "eighteen"]
        )
        let minutes = Samples(
            accepted: [("0", "0"), ("1440", "1440"), ("90", "90"), ("007", "7")],
            refused: ["-1", "1441", "1.5", "", "ninety"]
        )
        func choices<T: RawRepresentable & CaseIterable>(_: T.Type) -> Samples where T.RawValue == String {
            Samples(
                accepted: T.allCases.map { ($0.rawValue, $0.rawValue) }
                    + T.allCases.map { ($0.rawValue.uppercased(), $0.rawValue) },
                refused: ["", "nope"]
            )
        }
        switch key {
        case .latitude:
            return Samples(
                accepted: [
                    ("-90", "-90"), ("90", "90"), ("0", "0"), ("-0", "0"), ("89.999999", "89.999999"),
                    ("21.42250", "21.4225"), (" 21.4225 ", "21.4225"), ("1e1", "10"),
                ],
                refused: ["90.000001", "-90.000001", "91", "nan", "inf", "-inf", "", "north", "1,5"]
            )
        case .longitude:
            return Samples(
                accepted: [("-180", "-180"), ("180", "180"), ("39.8262", "39.8262"), ("-0.1278", "-0.1278")],
                refused: ["180.0000001", "-181", "nan", ""]
            )
        case .elevation:
            return Samples(
                accepted: [("-1000", "-1000"), ("10000", "10000"), ("277.5", "277.5"), ("0", "0")],
                refused: ["-1000.5", "10000.01", "inf", ""]
            )
        case .fajrAngle, .ishaAngle, .maghribAngle, .imsakAngle:
            return degrees
        case .ishaInterval, .maghribInterval:
            return minutes
        case .imsakMinutes:
            return Samples(accepted: [("0", "0"), ("120", "120"), ("10", "10")], refused: ["-1", "121", "1.5", ""])
        case .hijriOffset:
            return Samples(
                accepted: [("-2", "-2"), ("2", "2"), ("0", "0"), ("+1", "1")], refused: ["-3", "3", "1.0", ""])
        case .hijriStarts:
            return Samples(
                accepted: [
                    ("1448-09=2027-02-09", "1448-09=2027-02-09"),
                    ("1448-10=2027-03-10, 1448-09=2027-02-09", "1448-09=2027-02-09,1448-10=2027-03-10"),
                ],
                refused: [
                    "", "1448-09", "1448-13=2027-02-09", "1448-09=2027-02-30", "1448-09=x",
                    "1448-09=2027-02-09,1448-09=2027-02-10",
                ])
        case .timeZone:
            return Samples(
                accepted: ["Asia/Riyadh", "UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kathmandu"].map {
                    ($0, $0)
                },
                refused: ["Mars/Olympus", "", "Asia/Riyad"]
            )
        case .placeName:
            let longest = String(repeating: "م", count: 200)
            return Samples(
                accepted: [("M", "M"), (longest, longest), ("Makkah al-Mukarramah", "Makkah al-Mukarramah")],
                refused: ["", "   ", longest + "م"]
            )
        case .method:
            return Samples(
                accepted: CalculationMethod.allCases.map { ($0.rawValue, $0.rawValue) } + [
                    ("mwl", "muslim-world-league"), ("Umm al Qura", "umm-al-qura"), ("ISNA", "north-america"),
                ],
                refused: ["nope", ""]
            )
        case .madhab: return choices(Madhab.self)
        case .highLatitudeRule: return choices(HighLatitudeRule.self)
        case .polarResolution: return choices(PolarResolution.self)
        case .shafaq: return choices(Shafaq.self)
        case .night: return choices(NightMeasure.self)
        case .rounding: return choices(Rounding.self)
        case .hijriCalendar: return choices(HijriCalendar.self)
        case .adjust:
            return Samples(
                accepted: [
                    ("fajr=2,isha=-3", "fajr=2,isha=-3"), ("isha=-3, fajr=2", "fajr=2,isha=-3"),
                    ("fajr=1440", "fajr=1440"), ("maghrib=-1440", "maghrib=-1440"),
                    // A zero correction is no correction: stored as the empty list.
                    ("fajr=0", ""),
                ],
                refused: ["fajr=1441", "isha=-1441", "fajr", "dawn=2", "fajr=1.5"]
            )
        case .clock:
            return Samples(accepted: [("24h", "24h"), ("12H", "12h")], refused: ["13h", ""])
        case .iqama:
            return Samples(
                accepted: [
                    ("fajr=+20,dhuhr=13:30", "fajr=+20,dhuhr=13:30"), ("isha=+0", "isha=+0"),
                    ("asr=+180,fajr=00:00", "fajr=00:00,asr=+180"), ("maghrib=23:59", "maghrib=23:59"),
                ],
                refused: ["fajr=+181", "fajr=24:00", "sunrise=+5", "fajr=+20,fajr=+10", "fajr", ""])
        case .iqamaRounding:
            return Samples(accepted: [("1", "1"), ("60", "60"), ("5", "5")], refused: ["0", "61", ""])
        case .jumuah:
            return Samples(
                accepted: [("13:15", "13:15"), ("14:00,12:45", "12:45,14:00"), ("00:00", "00:00")],
                refused: ["13", "25:00", "1:5", ""])
        case .reminderMinutes:
            return Samples(
                accepted: [("10", "10"), ("5,15", "15,5"), ("720", "720"), ("1", "1")],
                refused: ["0", "721", "", "ten"])
        case .notifyHook:
            let longest = String(repeating: "x", count: 2000)
            return Samples(accepted: [("true", "true"), (longest, longest)], refused: ["", longest + "x"])
        case .mosque:
            let longest = String(repeating: "م", count: 100)
            return Samples(
                accepted: [("East London Mosque", "East London Mosque"), (longest, longest)],
                refused: ["", "   ", longest + "م", "a\u{7}b"])
        case .fastSuggestions:
            return Samples(accepted: [("on", "on"), ("OFF", "off")], refused: ["yes", "", "1"])
        case .display:
            let all = "before-adhan=10,adhan=3,iqama=on,silence=1,prayer=10,jumuah=30,after=5,hijri=midnight"
            return Samples(
                accepted: [
                    ("adhan=3", all),
                    (
                        "before-adhan=120, adhan=OFF,iqama=off,silence=15,prayer=0,jumuah=120,after=60,hijri=maghrib",
                        "before-adhan=120,adhan=off,iqama=off,silence=15,prayer=off,jumuah=120,after=60,hijri=maghrib"
                    ),
                    (
                        "silence=on,after=0",
                        "before-adhan=10,adhan=3,iqama=on,silence=1,prayer=10,jumuah=30,after=off,hijri=midnight"
                    ),
                ],
                refused: [
                    "", "adhan=16", "before-adhan=-1", "iqama=5", "hijri=noon", "adhan=3,adhan=4", "adhn=3", "adhan",
                    "prayer=61", "jumuah=1.5",
                ])
        }
    }

    @Test(arguments: Preferences.Key.allCases)
    func setThenGetKeepsEveryBoundaryValue(_ key: Preferences.Key) throws {
        let samples = Self.samples(for: key)
        for (given, stored) in samples.accepted {
            // Given
            var preferences = Preferences()
            // When
            try preferences.set(given, for: key)
            // Then what is read is the value set, normalised, and setting that again changes nothing
            #expect(preferences[key] == stored, "\(key) '\(given)'")
            var again = preferences
            try again.set(stored, for: key)
            #expect(again == preferences, "\(key) '\(given)'")
            // and it survives the stored text and JSON.
            #expect(try Preferences(storedValues: preferences.storedValues) == preferences, "\(key) '\(given)'")
            let json = try JSONEncoder().encode(preferences)
            #expect(try JSONDecoder().decode(Preferences.self, from: json) == preferences, "\(key) '\(given)'")
        }
        // A refused value names the key and leaves the value that was there.
        var preferences = Preferences()
        let first = try #require(samples.accepted.first)
        try preferences.set(first.given, for: key)
        for bad in samples.refused {
            #expect("\(key) '\(bad)'") {
                try preferences.set(bad, for: key)
            } throws: { ($0 as? ValidationError)?.field == key.rawValue }
            #expect(preferences[key] == first.stored, "\(key) '\(bad)'")
            #expect(throws: ValidationError.self, "\(key) '\(bad)'") {
                try Preferences(storedValues: [key.rawValue: bad])
            }
        }
    }

    @Test func everyKeyAtItsBoundsSurvivesTheDatabase() throws {
        // Given a database
        let test = try TestDatabase()
        let rounds = Preferences.Key.allCases.map { Self.samples(for: $0).accepted.count }.max() ?? 0
        for round in 0..<rounds {
            // When every key is set to one of its boundary values, all in one update
            let saved = try test.preferences.update { preferences in
                for key in Preferences.Key.allCases {
                    let accepted = Self.samples(for: key).accepted
                    try preferences.set(accepted[round % accepted.count].given, for: key)
                }
            }
            // Then another handle on the file reads every value back as set
            let other = PreferencesStoreSQLite(database: SQLiteDatabase(path: test.path, log: .silent), log: .silent)
            let stored = try other.preferences()
            #expect(stored == saved, "round \(round)")
            for key in Preferences.Key.allCases {
                let accepted = Self.samples(for: key).accepted
                #expect(stored[key] == accepted[round % accepted.count].stored, "round \(round): \(key)")
            }
        }
    }
}
