import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// The Hijri look-ups' `async` views on the real service (the places' are in PrayPlacesTests), called from the main actor: the same answers as
/// the synchronous methods. (Where they run is checked on instrumented mocks in PrayCoreTests.)
@Suite(.tags(.concurrency)) struct AsyncLookupTests {
    @MainActor @Test func hijriDaysAnswerAsTheSynchronousConversionDoes() async throws {
        // Given
        let hijri = HijriServiceUmmAlQura(prayerService: PrayerServiceAstronomical(log: .silent), log: .silent)
        let year = HijriAPI.Request(date: .mockDate, days: 365)
        // When
        let days = try await hijri.async.days(for: year)
        let ramadan = try await hijri.async.month(.ramadan, of: 1448, calendar: .ummAlQura, offset: 1)
        // Then
        #expect(days == (try hijri.days(for: year)))
        #expect(ramadan == (try hijri.month(.ramadan, of: 1448, calendar: .ummAlQura, offset: 1)))
        await #expect(throws: HijriError.self) {
            try await hijri.async.days(for: HijriAPI.Request(date: .mockDate, offset: 3))
        }
    }
}
