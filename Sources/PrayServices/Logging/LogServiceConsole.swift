import Foundation
import PrayCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes each log event as one line on standard error, so standard output stays clean for results:
///
/// ```
/// 2026-11-29T16:37:13Z notice High-latitude rule applied prayer.days=92 prayer.rule=seventh-of-the-night
/// ```
///
/// Metadata is sorted by key. The level is coloured only when standard error is a terminal. Each
/// line is written with a single `write(2)`, so lines from several threads never interleave.
public struct LogServiceConsole: LogService {
    private let colour: Bool

    /// Creates a console logger.
    /// - Parameter colour: Whether to colour the level; by default, when standard error is a terminal
    ///   and `NO_COLOR` is not set.
    public init(colour: Bool? = nil) {
        self.colour = colour ?? (isatty(2) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
    }

    /// Writes `event` to standard error.
    public func write(_ event: LogEvent) {
        FileHandle.standardError.write(Data(LogLine.format(event, colour: colour).utf8))
    }
}

/// The one-line text of a log event, shared by the console and file loggers.
enum LogLine {
    /// `2026-11-29T16:37:13.120Z notice Message key=value key2="a value"` and a newline; `trace` and
    /// `debug` events end with `source=Module/File.swift:42`. Control characters in the message and
    /// the metadata are written as escapes (`\n`, `\t`, `\u001B`).
    static func format(_ event: LogEvent, colour: Bool = false) -> String {
        var level = event.level.rawValue
        if colour {
            let code =
                switch event.level {
                case .trace, .debug: "2"
                case .info: "36"
                case .notice: "32"
                case .warning: "33"
                case .error, .critical: "31;1"
                }
            level = "\u{1B}[\(code)m\(level)\u{1B}[0m"
        }
        // One event, one line of plain text: a newline inside a message would break the format, and an
        // escape sequence from a hook's output or a place name would reach the terminal that shows it.
        var line = "\(PrayerLogEntry.timestamp(event.timestamp)) \(level) \(event.message.escapingControlCharacters)"
        for (key, value) in event.metadata.sorted(by: { $0.key < $1.key }) {
            let value = value.escapingControlCharacters
            let needsQuotes = value.isEmpty || value.contains { $0 == " " || $0 == "\"" || $0 == "=" }
            line +=
                " \(key.escapingControlCharacters)="
                + (needsQuotes ? "\"\(value.replacingOccurrences(of: "\"", with: "\\\""))\"" : value)
        }
        if event.level <= .debug { line += " source=\(event.file):\(event.line)" }
        return line + "\n"
    }
}
