#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One log call: what happened, how important it is, where in the code, and when.
///
/// Messages are constant sentences; the values that vary go in ``metadata`` under dotted keys
/// (`"prayer.rule"`, `"http.status"`), so logs can be searched.
public struct LogEvent: Hashable, Sendable {
    /// How important the event is.
    public let level: LogLevel
    /// A constant sentence describing the event.
    public let message: String
    /// Values that belong to the event, under dotted keys.
    public let metadata: [String: String]
    /// The source file that logged the event.
    public let file: String
    /// The line in ``file``.
    public let line: Int
    /// When the event was logged, from the logger's clock.
    public let timestamp: Date

    /// Creates an event.
    public init(
        level: LogLevel, message: String, metadata: [String: String] = [:], file: String, line: Int, timestamp: Date
    ) {
        self.level = level
        self.message = message
        self.metadata = metadata
        self.file = file
        self.line = line
        self.timestamp = timestamp
    }
}
