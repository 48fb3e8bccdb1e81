/// A destination for log events: the console, a file, memory in tests.
///
/// Services never create one; they receive a ``LogManager`` that fans events out to the
/// destinations the app chose.
public protocol LogService: Sendable {
    /// Records one event. Called only for events at or above the manager's minimum level.
    func write(_ event: LogEvent)
}
