import Foundation
import PrayCore

/// Writes each log event as one line on standard error, so standard output stays clean for results:
///
/// ```
/// 2026-11-29T16:37:13Z notice High-latitude rule applied prayer.days=92 prayer.rule=seventh-of-the-night
/// ```
///
/// Metadata is sorted by key. Lines are written with a single `write(2)` each, so lines from
/// several threads never interleave.
public struct LogServiceConsole: LogService {
    /// Creates a console logger.
    public init() {}

    /// Writes `event` to standard error.
    public func write(_ event: LogEvent) {
        var line = "\(Self.timestamp(event.timestamp)) \(event.level.rawValue) \(event.message)"
        for (key, value) in event.metadata.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(value.contains(" ") ? "\"\(value)\"" : value)"
        }
        line += "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` in UTC.
    static func timestamp(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let time = seconds - days * 86400
        func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(CivilDate(daysSince1970: days))T\(pad(time / 3600)):\(pad(time / 60 % 60)):\(pad(time % 60))Z"
    }
}
