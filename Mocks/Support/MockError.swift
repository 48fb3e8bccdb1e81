import Testing

#if canImport(XCTest)
    import XCTest
#endif

/// The error a mock throws when a test calls something it did not set up, so the test fails loudly
/// instead of receiving an invented value.
///
/// Creating one with ``unset(_:)`` also records a test failure — a Swift Testing issue and an XCTest
/// failure, whichever framework runs the test — so the running test fails even if the code under
/// test catches the error. A Swift Testing test that means to call an unset mock wraps the call in
/// `withKnownIssue { … }`.
public struct MockError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The mock member that was called, such as `"PrayerServiceMock.prayerTimes(for:)"`.
    public let member: String

    /// Creates the error for `member` without recording an issue.
    public init(notConfigured member: String) {
        self.member = member
    }

    /// Records a test failure for a call to `member`, which the test did not set up, and returns the
    /// error to throw. Each framework ignores a failure recorded outside its own tests, so recording
    /// both fails the test that runs, whichever it is.
    public static func unset(_ member: String) -> MockError {
        let error = MockError(notConfigured: member)
        Issue.record(Comment(rawValue: error.description))
        #if canImport(XCTest)
            XCTFail(error.description)
        #endif
        return error
    }

    /// A sentence naming the member.
    public var description: String { "\(member) was called but the test did not set a result for it" }
}
