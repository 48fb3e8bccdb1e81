#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SyncCollection {
    /// The prayer log: key `YYYY-MM-DD/<prayer>`, one of the five prayers.
    public static let log = SyncCollection(name: "log", schema: 1, valueType: SyncLogValue.self)
}

/// The value of a `log` row: how the prayer was kept, when that was recorded, and a note.
public struct SyncLogValue: SyncRowValue {
    /// How the prayer was kept.
    public var status: PrayerStatus
    /// When the status was recorded, to the millisecond.
    public var recordedAt: Date
    /// A note of at most ``SyncRules/maximumNoteLength`` characters, or `nil`.
    public var note: String?

    /// Creates a value; `recordedAt` is kept to the millisecond.
    public init(status: PrayerStatus, recordedAt: Date, note: String? = nil) {
        self.status = status
        self.recordedAt = Date(timeIntervalSince1970: Double(PrayerLogEntry.milliseconds(recordedAt)) / 1000)
        self.note = note
    }

    private enum CodingKeys: String, CodingKey { case status, recordedAt, note }

    /// Decodes `{"status", "recordedAt": ISO 8601 UTC with ms, "note"}`.
    /// - Throws: `DecodingError` for a bad status or time.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let statusText = try container.decode(String.self, forKey: .status)
        guard let status = PrayerStatus(rawValue: statusText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .status, in: container, debugDescription: "unknown status '\(statusText)'")
        }
        let recordedAt = try SyncTime.decode(container, forKey: .recordedAt)
        self.init(
            status: status, recordedAt: recordedAt, note: try container.decodeIfPresent(String.self, forKey: .note))
    }

    /// Encodes the wire form; `note` is `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status.rawValue, forKey: .status)
        try container.encode(PrayerLogEntry.timestamp(recordedAt), forKey: .recordedAt)
        try container.encode(note, forKey: .note)
    }
}

extension SyncLogValue {
    /// The status, and the note when there is one.
    public var summary: String { status.rawValue + (note.map { " (\($0))" } ?? "") }

    /// The `log` collection.
    public static var collection: SyncCollection { .log }

    /// A key `YYYY-MM-DD/<one of the five prayers>` and a note of at most
    /// ``SyncRules/maximumNoteLength`` characters.
    /// - Throws: ``ValidationError`` saying what is wrong.
    public static func validate(key: String, value: SyncLogValue?) throws(ValidationError) {
        _ = try SyncRules.parseLogKey(key)
        try SyncRules.checkNote(value?.note)
    }

    /// The value of an entry (its day and prayer are the row's key).
    public init(_ entry: PrayerLogEntry) {
        self.init(status: entry.status, recordedAt: entry.recordedAt, note: entry.note)
    }
}

extension SyncValue {
    /// A `log` value.
    public static func log(_ value: SyncLogValue) -> SyncValue { SyncValue(value) }
}

extension SyncRules {
    /// `2026-12-01/fajr`.
    public static func logKey(date: CivilDate, prayer: Prayer) -> String { "\(date)/\(prayer.rawValue)" }

    /// The day and prayer of a log key.
    /// - Throws: ``ValidationError`` for anything but `YYYY-MM-DD/<one of the five prayers>`.
    public static func parseLogKey(_ key: String) throws(ValidationError) -> (date: CivilDate, prayer: Prayer) {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let prayer = Prayer(rawValue: String(parts[1])), prayer.isObligatory else {
            throw ValidationError(field: "key", message: "a log key is YYYY-MM-DD/<fajr|dhuhr|asr|maghrib|isha>")
        }
        return (try CivilDate(parsing: String(parts[0])), prayer)
    }
}
