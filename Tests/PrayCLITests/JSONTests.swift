import Foundation
import Testing

@testable import PrayCLI

/// The command line's JSON writer: never NaN or an infinity, which JSON cannot hold.
@Suite struct JSONTests {
    @Test func jsonNeverWritesNaN() {
        #expect(JSON.number(Double.nan).rendered() == "null")
        #expect(JSON.number(-Double.infinity).rendered() == "null")
        #expect(JSON.object([("x", .finite(.nan))]).rendered().contains("\"x\": null"))
        #expect(JSON.number(1.5).rendered() == "1.5")
    }
}
