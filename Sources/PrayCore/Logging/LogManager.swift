#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The logger that services receive: it sends each event at or above ``minLevel`` to every
/// ``LogService``, and builds nothing — no message, no metadata — for events below it.
///
/// ```swift
/// let log = LogManager(services: [LogServiceConsole()], minLevel: .info)
/// log.notice("High-latitude rule applied", metadata: ["prayer.rule": "seventh-of-the-night"])
/// ```
public struct LogManager: Sendable {
    /// The destinations.
    public let services: [any LogService]
    /// The least important level that is recorded.
    public let minLevel: LogLevel
    private let now: @Sendable () -> Date

    /// Creates a logger.
    /// - Parameters:
    ///   - services: The destinations.
    ///   - minLevel: The least important level that is recorded.
    ///   - now: The clock that stamps events; the system clock by default.
    public init(
        services: [any LogService], minLevel: LogLevel = .warning, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.services = services
        self.minLevel = minLevel
        self.now = now
    }

    /// A logger that records nothing.
    public static let silent = LogManager(services: [], minLevel: .critical)

    /// Whether an event at `level` would be recorded.
    public func isEnabled(_ level: LogLevel) -> Bool {
        level >= minLevel && !services.isEmpty
    }

    /// Records an event at `level` if it is enabled; the message and metadata are evaluated only then.
    public func log(
        _ level: LogLevel, _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> [String: String] = [:], file: String = #fileID, line: Int = #line
    ) {
        guard isEnabled(level) else { return }
        let event = LogEvent(
            level: level, message: message(), metadata: metadata(), file: file, line: line, timestamp: now()
        )
        for service in services { service.write(event) }
    }

    /// Records a `trace` event.
    public func trace(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:],
        file: String = #fileID, line: Int = #line
    ) { log(.trace, message(), metadata: metadata(), file: file, line: line) }

    /// Records a `debug` event.
    public func debug(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:],
        file: String = #fileID, line: Int = #line
    ) { log(.debug, message(), metadata: metadata(), file: file, line: line) }

    /// Records an `info` event.
    public func info(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:],
        file: String = #fileID, line: Int = #line
    ) { log(.info, message(), metadata: metadata(), file: file, line: line) }

    /// Records a `notice` event.
    public func notice(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:],
        file: String = #fileID, line: Int = #line
    ) { log(.notice, message(), metadata: metadata(), file: file, line: line) }

    /// Records a `warning` event.
    public func warning(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:],
        file: String = #fileID, line: Int = #line
    ) { log(.warning, message(), metadata: metadata(), file: file, line: line) }

    /// Records an `error` event.
    public func error(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:],
        file: String = #fileID, line: Int = #line
    ) { log(.error, message(), metadata: metadata(), file: file, line: line) }

    /// Records a `critical` event.
    public func critical(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:],
        file: String = #fileID, line: Int = #line
    ) { log(.critical, message(), metadata: metadata(), file: file, line: line) }
}
