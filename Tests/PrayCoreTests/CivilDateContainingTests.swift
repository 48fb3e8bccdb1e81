import Foundation
import PrayCore
import Testing

@Suite struct CivilDateContainingTests {
    @Test func theDayInAZone() throws {
        let instant = Date(timeIntervalSince1970: 1_795_989_600)  // 2026-11-29T22:00:00Z
        #expect(try CivilDate(containing: instant, in: .gmt) == (try CivilDate(parsing: "2026-11-29")))
        let riyadh = try #require(TimeZone(identifier: "Asia/Riyadh"))
        #expect(try CivilDate(containing: instant, in: riyadh) == (try CivilDate(parsing: "2026-11-30")))
        let honolulu = try #require(TimeZone(identifier: "Pacific/Honolulu"))
        #expect(try CivilDate(containing: instant, in: honolulu) == (try CivilDate(parsing: "2026-11-29")))
        let before1970 = Date(timeIntervalSince1970: -1)
        #expect(try CivilDate(containing: before1970, in: .gmt) == (try CivilDate(parsing: "1969-12-31")))
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e15, -1e15])
    func impossibleInstantsAreErrors(_ seconds: Double) {
        #expect(throws: ValidationError.self) {
            try CivilDate(containing: Date(timeIntervalSince1970: seconds), in: .gmt)
        }
    }

    @Test func theEdgesOfTheRange() throws {
        let first = try CivilDate(parsing: "0001-01-01")
        let last = try CivilDate(parsing: "9999-12-31")
        let start = Date(timeIntervalSince1970: Double(first.daysSince1970) * 86_400)
        let end = Date(timeIntervalSince1970: Double(last.daysSince1970 + 1) * 86_400 - 1)
        #expect(try CivilDate(containing: start, in: .gmt) == first)
        #expect(try CivilDate(containing: end, in: .gmt) == last)
        #expect(throws: ValidationError.self) { try CivilDate(containing: start.addingTimeInterval(-1), in: .gmt) }
        #expect(throws: ValidationError.self) { try CivilDate(containing: end.addingTimeInterval(1), in: .gmt) }
    }
}
