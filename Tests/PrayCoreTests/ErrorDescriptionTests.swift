import Foundation
import PrayCore
import Testing

/// Every error of the library reads as its message through `localizedDescription`, the way apps show
/// errors — never "The operation could not be completed. (PrayCore.ValidationError error 1.)".
@Suite struct ErrorDescriptionTests {
    @Test func localizedDescriptionIsTheMessage() throws {
        let url = try #require(URL(string: "https://example.org/v1"))
        let network = NetworkError(kind: .timeout, url: url, message: "slow")
        let errors: [(any Error, String)] = [
            (
                ValidationError(field: "latitude", message: "latitude must be between -90 and 90 degrees, got 91"),
                "latitude must be between -90 and 90 degrees, got 91"
            ),
            (
                PrayError(.unsupportedDate, message: "prayer times are calculated for the years 1000–3000"),
                "prayer times are calculated for the years 1000–3000"
            ),
            (
                HijriError(.invalidOffset, message: "the Hijri offset must be between -2 and 2 days, got 5"),
                "the Hijri offset must be between -2 and 2 days, got 5"
            ),
            (ServerError(.startFailed, message: "the port is in use"), "the port is in use"),
            (
                NotificationError(.timedOut, message: "the notify hook ran longer than 60 s"),
                "the notify hook ran longer than 60 s"
            ),
            (
                StorageError(kind: .busy, message: "database is locked", path: "/tmp/p.sqlite"),
                "/tmp/p.sqlite is busy: another process kept it locked for too long (database is locked); try again"
            ),
            (network, network.description),
        ]
        for (error, message) in errors {
            #expect(error.localizedDescription.hasSuffix(message), "\(type(of: error))")
            #expect(!error.localizedDescription.contains("could not be completed"), "\(type(of: error))")
        }
    }

    @Test func libraryMessagesSpeakOfTheLibraryNotOfOptions() throws {
        // A message a library error carries names settings and values, never a command-line option.
        var given = CalculationSettings()
        given.ishaAngle = 17
        given.ishaInterval = 90
        let conflict = #expect(throws: ValidationError.self) {
            try CalculationSettings.resolve(given: given, saved: Preferences(), country: nil)
        }
        #expect(conflict.map { !$0.localizedDescription.contains("--") } == true)
        #expect(!TimeZoneName.unknown("Mars/Olympus").localizedDescription.contains("--"))
    }
}
