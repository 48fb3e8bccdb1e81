import PrayCore
import PrayMocks
import XCTest

/// A forgotten mock fails an XCTest test too, not only a Swift Testing one: an app whose tests are
/// XCTest cases gets the same loud failure.
final class MockXCTestTests: XCTestCase {
    /// The failures this test case recorded, kept instead of failing the run.
    private var failures: [String] = []
    /// Whether failures are being captured (only around the call that should fail).
    private var capturing = false

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        guard capturing else {
            return super.recordFailure(
                withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        failures.append(description)
    }

    func testAnUnsetMockFailsTheXCTestThatCallsIt() async {
        // Given: a prayer service mock with no answer
        let prayers = PrayerServiceMock()
        let request = PrayerAPI.Request(
            coordinates: .mockMakkah, timeZone: .gmt, date: .mockDate,
            parameters: CalculationParameters(method: .ummAlQura))
        // When: the code under test calls it and swallows the error
        capturing = true
        _ = try? await prayers.prayerTimes(for: request)
        capturing = false
        // Then: the XCTest case recorded a failure naming the requirement
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.contains("PrayerServiceMock.prayerTimes(for:)") == true, "\(failures)")
    }
}
