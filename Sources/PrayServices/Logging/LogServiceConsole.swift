import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
        systemWriteAll(2, Array(LogLine.format(event, colour: colour).utf8))
    }
}

/// The one-line text of a log event, shared by the console and file loggers.
///
/// Messages and metadata carry text from outside — place names, imported files, servers — so every
/// part is escaped by ``escaped(_:)``: a line is always one line, a value in quotes always ends at
/// its closing quote, and no control character reaches a terminal or a log reader.
enum LogLine {
    /// `2026-11-29T16:37:13.120Z notice Message key=value key2="a value"` and a newline; `trace` and
    /// `debug` events end with `source=Module/File.swift:42`. A value is quoted when it is empty or
    /// holds a space, `"`, `=`, a backslash or a control character; inside quotes `"` is `\"`.
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
        var line = "\(PrayerLogEntry.timestamp(event.timestamp)) \(level) \(escaped(event.message))"
        for (key, value) in event.metadata.sorted(by: { $0.key < $1.key }) {
            let text = escaped(value)
            let needsQuotes = value.isEmpty || text != value || value.contains { $0 == " " || $0 == "\"" || $0 == "=" }
            line +=
                " \(escaped(key))=" + (needsQuotes ? "\"\(text.replacing("\"", with: "\\\""))\"" : value)
        }
        if event.level <= .debug { line += " source=\(escaped(event.file)):\(event.line)" }
        return line + "\n"
    }

    /// The one escaping of log text: backslashes doubled and control characters written out (`\n`,
    /// `\r`, `\t`, `\x1B`), so that no part of an event can end its line, break its quoting or reach
    /// a terminal.
    static func escaped(_ text: String) -> String {
        text.escapingControlCharacters(backslashes: true)
    }
}
