import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

/// `praykit config` in-process: a saved place that moves loses its name and finds its zone again,
/// `city` is a key of get and unset too, a setting that needs another (shafaq, the method) is refused
/// without it, unset says what it removed, and errors name the key and suggest a value. (On the real
/// binary and database: StorageCommandTests.)
@Suite struct ConfigCommandTests {
    @Test func movingTheSavedPlaceClearsItsNameAndFindsItsZoneAgain() async throws {
        // Given: Cairo saved
        let dependency = CLI.dependency()
        #expect(await CLI.run(["config", "set", "city", "Cairo"], dependency: dependency).status == 0)
        // When: the longitude moves the place into Algeria
        let moved = await CLI.run(["config", "set", "longitude", "2.5"], dependency: dependency)
        // Then: the old name goes, the zone is the one at the new point, and both are said
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout.contains("place-name removed (it named the old place: Cairo, EG)"), "\(moved.stdout)")
        #expect(moved.stdout.contains("tz = Africa/Algiers"), "\(moved.stdout)")
        let saved = try dependency.preferences().preferences()
        #expect(saved[.placeName] == nil && saved[.timeZone] == "Africa/Algiers")
        // The same value again changes nothing else
        let same = await CLI.run(["config", "set", "longitude", "2.5"], dependency: dependency)
        #expect(same.stdout == "longitude = 2.5\n")
    }

    @Test func cityIsAKeyOfGetAndUnsetToo() async throws {
        let dependency = CLI.dependency()
        _ = await CLI.run(["config", "set", "city", "Makkah"], dependency: dependency)
        let got = await CLI.run(["config", "get", "city"], dependency: dependency)
        #expect(got.status == 0 && got.stdout.contains("place-name = Makkah, SA"), "\(got.stderr)")
        let unset = await CLI.run(["config", "unset", "city"], dependency: dependency)
        #expect(unset.stdout.contains("Removed latitude") && unset.stdout.contains("Removed tz"), "\(unset.stdout)")
        #expect(try dependency.preferences().preferences().isEmpty)
    }

    @Test func configSetShafaqNeedsTheMoonsightingMethod() async throws {
        let dependency = CLI.dependency(preferences: try CLI.preferences([.method: "isna"]))
        let refused = await CLI.run(["config", "set", "shafaq", "ahmer"], dependency: dependency)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("moonsighting-committee"))
        #expect(try dependency.preferenceStore.preferences()[.shafaq] == nil)
        _ = await CLI.run(["config", "set", "method", "moonsighting"], dependency: dependency)
        let accepted = await CLI.run(["config", "set", "shafaq", "ahmer"], dependency: dependency)
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }

    @Test func aValueTheCalculationRefusesWithTheOthersIsPutBack() async throws {
        // Given: Makkah saved, with a fajr angle of 15° and an adjustment of isha
        let dependency = CLI.dependency()
        _ = await CLI.run(["config", "set", "city", "Makkah"], dependency: dependency)
        _ = await CLI.run(["config", "set", "fajr-angle", "15"], dependency: dependency)
        _ = await CLI.run(["config", "set", "adjust", "isha=2"], dependency: dependency)
        // When: values each valid alone, which no day can be calculated with
        let sunrise = await CLI.run(["config", "set", "adjust", "sunrise=-120"], dependency: dependency)
        let imsak = await CLI.run(["config", "set", "imsak-angle", "10"], dependency: dependency)
        let daylight = await CLI.run(["config", "set", "fajr-angle", "0.5"], dependency: dependency)
        // Then: each is refused saying why, and what was saved before stays: `times` still works
        #expect(sunrise.status == 64 && sunrise.stderr.contains("put sunrise before fajr"), "\(sunrise.stderr)")
        #expect(imsak.status == 64 && imsak.stderr.contains("below fajr-angle 15°"), "\(imsak.stderr)")
        #expect(daylight.status == 64 && daylight.stderr.contains("nothing was saved"), "\(daylight.stderr)")
        let saved = try dependency.preferences().preferences()
        #expect(saved[.adjust] == "isha=2" && saved[.imsakAngle] == nil && saved[.fajrAngle] == "15")
        #expect(await CLI.run(["times"], dependency: dependency).status == 0)
    }

    @Test func unsetConfirmsWhatItRemoved() async throws {
        let dependency = CLI.dependency(preferences: try CLI.preferences([.method: "isna"]))
        let removed = await CLI.run(["config", "unset", "method"], dependency: dependency)
        #expect(removed.stdout == "Removed method (was north-america)\n")
        let again = await CLI.run(["config", "unset", "method"], dependency: dependency)
        #expect(again.stdout == "method was not set; nothing changed\n")
    }

    @Test func configErrorsNameTheKeyAndSuggestAValue() async {
        let method = await CLI.run(["config", "set", "method", "isn"])
        #expect(method.status == 64 && method.stderr.contains("did you mean 'isna'?"), "\(method.stderr)")
        let latitude = await CLI.run(["config", "set", "latitude", "95"])
        #expect(latitude.stderr.hasPrefix("Error: latitude must be between -90 and 90"), "\(latitude.stderr)")
        let help = await CLI.run(["config", "set", "--help"])
        #expect(help.stdout.contains("KEYS:") && help.stdout.contains("hijri-offset"))
    }
}
