import Foundation
import PrayCore
import Testing

/// The screen's settings (`DisplayAPI.Settings`): the text of `config set display` and `mosque set
/// --screen`, the JSON of a mosque space's `screen`, and the one rule both pass (the validator).
@Suite struct DisplaySettingsTests {
    @Test func theTextSwitchesPhasesOffAndKeepsWhatItDoesNotName() throws {
        // When
        let settings = try DisplayAPI.Settings(parsing: "adhan=off, Silence=2,iqama=off,hijri=maghrib")
        // Then
        #expect(settings.phases.adhan == 0 && settings.phases.silence == 2 && !settings.phases.iqama)
        #expect(settings.phases.beforeAdhan == 10 && settings.phases.prayer == 10 && settings.phases.jumuah == 30)
        #expect(settings.hijriAtMaghrib)
        #expect(
            settings.description
                == "before-adhan=10,adhan=off,iqama=off,silence=2,prayer=10,jumuah=30,after=5,hijri=maghrib")
        #expect(try DisplayAPI.Settings(parsing: settings.description) == settings)
        // A name left out keeps the value it had.
        let later = try DisplayAPI.Settings(parsing: "after=off,adhan=on", over: settings)
        #expect(later.phases.after == 0 && later.phases.adhan == 3 && later.phases.silence == 2 && later.hijriAtMaghrib)
    }

    @Test(arguments: [
        ("", "must be NAME=VALUE"), ("adhan=16", "adhan lasts 0 to 15 minutes"), ("adhn=3", "NAME one of"),
        ("iqama=3", "iqama is on or off"), ("hijri=dawn", "hijri is midnight or maghrib"),
        ("after=1,after=2", "after is given twice"), ("prayer=-1", "prayer lasts 0 to 60"),
    ])
    func badTextIsRefusedSayingWhy(_ text: String, _ message: String) {
        #expect {
            _ = try DisplayAPI.Settings(parsing: text)
        } throws: { error in
            (error as? ValidationError)?.field == "display"
                && (error as? ValidationError)?.message.contains(message) == true
        }
    }

    @Test func aMosquesScreenTravelsInItsSettingsAndOlderValuesStillRead() throws {
        // Given: settings with a screen, and a value written before the field existed
        var settings = SyncMosqueSettingsValue(latitude: 51.5177, longitude: -0.0653, timeZone: "Europe/London")
        settings.screen = try DisplayAPI.Settings(parsing: "silence=off,hijri=maghrib")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(settings)
        let old = Data(
            (#"{"latitude":51.5,"longitude":0,"elevation":0,"timeZone":"Europe/London","iqama":{},"jumuah":[],"#
                + #""eid":[],"hijriCalendar":"umm-al-qura","hijriOffset":0}"#).utf8)
        // When
        let decoded = try JSONDecoder().decode(SyncMosqueSettingsValue.self, from: data)
        let older = try JSONDecoder().decode(SyncMosqueSettingsValue.self, from: old)
        let partial = try JSONDecoder().decode(DisplayAPI.Settings.self, from: Data(#"{"adhan":0}"#.utf8))
        // Then
        #expect(decoded.screen == settings.screen)
        #expect(String(decoding: data, as: UTF8.self).contains(#""screen":{"adhan":3,"after":5,"beforeAdhan":10,"#))
        #expect(older.screen == nil)
        #expect(!String(decoding: try encoder.encode(older), as: UTF8.self).contains("screen"))
        #expect(
            partial.phases.adhan == 0 && partial.phases.iqama && partial.phases.after == 5 && !partial.hijriAtMaghrib)
    }

    @Test func theValidatorRefusesAScreenOutOfItsLimits() throws {
        var settings = SyncMosqueSettingsValue(latitude: 51.5177, longitude: -0.0653, timeZone: "Europe/London")
        settings.screen = DisplayAPI.Settings(phases: DisplayAPI.Phases(adhan: 90))
        #expect(throws: ValidationError.self) {
            try SyncMosqueSettingsValue.validate(key: "settings", value: settings)
        }
        settings.screen = DisplayAPI.Settings(phases: DisplayAPI.Phases(adhan: 0, iqama: false, prayer: 0))
        try SyncMosqueSettingsValue.validate(key: "settings", value: settings)
    }
}
