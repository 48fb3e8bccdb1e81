import PrayCore
import Testing

@testable import PrayServer

/// The hand-written parsers of the request hot path: dates and query parameters.
@Suite struct AlAdhanParsingTests {
    @Test func dayMonthYearTakesOneOrTwoDigitsOfDayAndMonthAndRefusesEverythingElse() {
        // Given / When / Then: the shapes accepted
        #expect(AlAdhanRoutes.dayMonthYear("01-03-2027", yearDigits: 4...4)! == (1, 3, 2027))
        #expect(AlAdhanRoutes.dayMonthYear("1-3-2027", yearDigits: 4...4)! == (1, 3, 2027))
        #expect(AlAdhanRoutes.dayMonthYear("9-12-1", yearDigits: 1...4)! == (9, 12, 1))
        // Then: wrong shapes, without overflowing on long runs of digits
        let refused = [
            "", "-", "--", "01-03", "01-03-2027-", "001-03-2027", "01-003-2027", "01-03-20270", "01-03-27",
            "a1-03-2027", "01-03-2O27", "01--2027", "-03-2027", "01-03-", String(repeating: "9", count: 40),
            "1-" + String(repeating: "9", count: 40) + "-2027", "1-1-" + String(repeating: "9", count: 40),
            "٠١-٠٣-٢٠٢٧", "01-03-2027 ",
        ]
        for text in refused { #expect(AlAdhanRoutes.dayMonthYear(text, yearDigits: 4...4) == nil, "\(text)") }
        #expect(AlAdhanRoutes.dayMonthYear("1-1-12345", yearDigits: 1...4) == nil)
    }

    @Test func theQueryKeepsTheParametersTheAPIReadsTrimmedWhenGiven() {
        // Given
        let query = AlAdhanQuery([
            "latitude": " 51.5 ", "method": "", "iso8601": "true", "Latitude": "9", "unknown": "x", "tune": "\t",
        ])
        // Then: values as sent, `given` trimmed and nil when empty; names are case-sensitive
        #expect(query[.latitude] == " 51.5 ")
        #expect(query.given(.latitude) == "51.5")
        #expect(query[.method] == "")
        #expect(query.given(.method) == nil)
        #expect(query.given(.tune) == nil)
        #expect(query[.iso8601] == "true")
        #expect(query[.longitude] == nil)
        #expect(AlAdhanQuery.Name.latitudeAdjustmentMethod.description == "latitudeAdjustmentMethod")
        #expect(AlAdhanQuery.Name.allCases.allSatisfy { AlAdhanQuery.Name(spelling: $0.description) == $0 })
    }

    @Test func theQueryHoldsEveryParameterAtOnce() {
        // Given: every parameter the API reads, each with its own name as its value
        let names = AlAdhanQuery.Name.allCases
        // When
        let query = AlAdhanQuery(
            ServerAPI.Fields(Dictionary(uniqueKeysWithValues: names.map { ($0.description, $0.description) })))
        // Then: each is kept in its own place
        #expect(names.count == AlAdhanQuery.Name.spellings.count)
        #expect(names.allSatisfy { query[$0] == $0.description })
    }
}
