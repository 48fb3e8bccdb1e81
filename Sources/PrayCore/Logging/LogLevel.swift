/// How important a log event is, from `trace` (most detail) to `critical`.
public enum LogLevel: String, CaseIterable, Codable, Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Step-by-step detail for following a computation.
    case trace
    /// Detail useful when debugging.
    case debug
    /// A normal event worth recording: a database opened, a request sent.
    case info
    /// A normal but significant event: a fallback taken, a rule applied.
    case notice
    /// Something unexpected that the program handled.
    case warning
    /// An operation failed.
    case error
    /// The program cannot go on.
    case critical

    /// Orders levels from `trace` to `critical`.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.rank < rhs.rank
    }

    /// The raw value.
    public var description: String { rawValue }

    private var rank: Int {
        switch self {
        case .trace: 0
        case .debug: 1
        case .info: 2
        case .notice: 3
        case .warning: 4
        case .error: 5
        case .critical: 6
        }
    }
}
