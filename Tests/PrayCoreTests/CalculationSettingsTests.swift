import Foundation
import PrayCore
import Testing

/// The one rule from given values, saved preferences and the country's method to parameters.
@Suite struct CalculationSettingsTests {
    let pakistan = MethodChoice.forCountry("PK", latitude: 24.86)
    let britain = MethodChoice.forCountry("GB", latitude: 51.5)

    func saved(_ values: [String: String]) throws -> Preferences {
        try Preferences(storedValues: values)
    }

    @Test func nothingGivenOrSavedTakesTheCountrysMethod() throws {
        // When
        let resolved = try CalculationSettings.resolve(given: .init(), saved: Preferences(), country: pakistan)
        // Then
        #expect(resolved.method.method == .karachi)
        #expect(resolved.method.source == .country("PK"))
        #expect(resolved.parameters == CalculationParameters(method: .karachi))
        #expect(resolved.ignored.isEmpty)
    }

    @Test func aboveFortyEightDegreesTheCountrysMethodComesWithTheRecommendedRule() throws {
        let resolved = try CalculationSettings.resolve(given: .init(), saved: Preferences(), country: britain)
        #expect(resolved.parameters.highLatitudeRule == .recommended)
        // A saved rule wins over the recommendation
        let saved = try saved(["high-latitude-rule": "twilight-angle"])
        #expect(
            try CalculationSettings.resolve(given: .init(), saved: saved, country: britain).parameters.highLatitudeRule
                == .twilightAngle)
    }

    @Test func givenBeatsSavedBeatsCountry() throws {
        // Given: a saved method and madhab
        let stored = try saved(["method": "isna", "madhab": "hanafi"])
        // When: nothing given, then a method given
        let fromSaved = try CalculationSettings.resolve(given: .init(), saved: stored, country: pakistan)
        var given = CalculationSettings()
        given.method = .egyptian
        let fromOption = try CalculationSettings.resolve(given: given, saved: stored, country: pakistan)
        // Then
        #expect(fromSaved.method.method == .northAmerica && fromSaved.method.source == .saved)
        #expect(fromOption.method.method == .egyptian && fromOption.method.source == .option)
        #expect(fromOption.parameters.madhab == .hanafi, "a saved value fills what is not given")
        // Without a country, the Muslim World League by default
        let fallback = try CalculationSettings.resolve(given: .init(), saved: Preferences(), country: nil)
        #expect(fallback.method.method == .muslimWorldLeague && fallback.method.source == .default)
    }

    @Test func aSavedValueGivesWayToItsAlternativeGivenAndSaysWhy() throws {
        // Given: a saved isha angle; an isha interval given
        let stored = try saved(["isha-angle": "17", "imsak-minutes": "15"])
        var given = CalculationSettings()
        given.ishaInterval = 90
        given.imsakAngle = 19.5
        // When
        let resolved = try CalculationSettings.resolve(given: given, saved: stored, country: nil)
        // Then
        #expect(resolved.parameters.ishaInterval == 90)
        #expect(resolved.parameters.imsak == .angle(19.5))
        #expect(
            resolved.ignored == [
                .init(key: .ishaAngle, reason: .givenOtherwise(.ishaInterval)),
                .init(key: .imsakMinutes, reason: .givenOtherwise(.imsakAngle)),
            ])
        #expect(resolved.ignored[0].description == "isha-angle (isha-interval is given)")
    }

    @Test func aSavedShafaqIsIgnoredUnlessTheMethodIsTheCommittees() throws {
        let stored = try saved(["shafaq": "ahmer"])
        let other = try CalculationSettings.resolve(given: .init(), saved: stored, country: pakistan)
        #expect(other.parameters.seasonalTwilight == nil)
        #expect(other.ignored == [.init(key: .shafaq, reason: .notForMethod(.moonsightingCommittee))])
        var given = CalculationSettings()
        given.method = .moonsightingCommittee
        let committee = try CalculationSettings.resolve(given: given, saved: stored, country: pakistan)
        #expect(committee.parameters.seasonalTwilight == .ahmer && committee.ignored.isEmpty)
        // Given with another method, it is an error, not ignored
        var wrong = CalculationSettings()
        wrong.shafaq = .abyad
        #expect(throws: ValidationError.self) {
            try CalculationSettings.resolve(given: wrong, saved: Preferences(), country: pakistan)
        }
    }

    @Test func givingOneThingTwoWaysIsRefused() {
        var given = CalculationSettings()
        given.ishaAngle = 17
        given.ishaInterval = 90
        #expect {
            try CalculationSettings.resolve(given: given, saved: Preferences(), country: nil)
        } throws: { error in
            (error as? ValidationError)?.message == "isha-angle and isha-interval say the same thing two ways; give one"
        }
    }

    @Test func theSavedValuesReadAsSettings() throws {
        let stored = try saved([
            "method": "mwl", "madhab": "hanafi", "fajr-angle": "18.5", "isha-interval": "90", "adjust": "fajr=2",
            "rounding": "none", "night": "sunset-to-fajr",
        ])
        let settings = CalculationSettings(stored)
        #expect(settings.method == .muslimWorldLeague && settings.madhab == .hanafi && settings.fajrAngle == 18.5)
        #expect(settings.ishaInterval == 90 && settings.rounding == Rounding.none && settings.night == .sunsetToFajr)
        #expect(settings.adjustments?[.fajr] == 2)
        #expect(settings.givenKeys == [.method, .madhab, .fajrAngle, .ishaInterval, .night, .rounding, .adjust])
        var cleared = settings
        cleared.clear(.madhab)
        #expect(!cleared.isGiven(.madhab) && cleared.isGiven(.method))
        // The preferences' own parameters are the same rule with nothing given and no country
        #expect(try stored.calculationParameters() == settings.parameters())
    }
}
