/// The error a mock throws when a test calls something it did not set up, so the test fails loudly
/// instead of receiving an invented value.
public struct MockError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The mock member that was called, such as `"PrayerServiceMock.prayerTimes(for:)"`.
    public let member: String

    /// Creates the error for `member`.
    public init(notConfigured member: String) {
        self.member = member
    }

    /// A sentence naming the member.
    public var description: String { "\(member) was called but the test did not set a result for it" }
}
