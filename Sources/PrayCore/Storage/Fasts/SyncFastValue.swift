#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SyncCollection {
    /// Fasts: key `YYYY-MM-DD`.
    public static let fast = SyncCollection(name: "fast", schema: 2, valueType: SyncFastValue.self)
}

/// The value of a `fast` row: how the day's fast was kept.
public struct SyncFastValue: SyncRowValue {
    /// `fasted`, `missed`, `excused`, `made-up` or `voluntary`.
    public var status: String
    /// When it was recorded, to the millisecond.
    public var recordedAt: Date
    /// A note of at most ``SyncRules/maximumNoteLength`` characters, or `nil`.
    public var note: String?

    /// Creates a value; `recordedAt` is kept to the millisecond.
    public init(status: String, recordedAt: Date, note: String?) {
        self.status = status
        self.recordedAt = SyncTime.millisecond(recordedAt)
        self.note = note
    }

    private enum CodingKeys: String, CodingKey { case status, recordedAt, note }

    /// Decodes the wire form (`recordedAt` ISO 8601 UTC with milliseconds).
    /// - Throws: `DecodingError` for a malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            status: try container.decode(String.self, forKey: .status),
            recordedAt: try SyncTime.decode(container, forKey: .recordedAt),
            note: try container.decodeIfPresent(String.self, forKey: .note))
    }

    /// Encodes the wire form; `note` is `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(PrayerLogEntry.timestamp(recordedAt), forKey: .recordedAt)
        try container.encode(note, forKey: .note)
    }
}

extension SyncFastValue {
    /// The status, and the note when there is one.
    public var summary: String { status + (note.map { " (\($0))" } ?? "") }

    /// The `fast` collection.
    public static var collection: SyncCollection { .fast }

    /// A day `YYYY-MM-DD` and a value ``FastEntry`` accepts for it.
    /// - Throws: ``ValidationError`` saying what is wrong.
    public static func validate(key: String, value: SyncFastValue?) throws(ValidationError) {
        let date = try CivilDate(parsing: key)
        if let value { _ = try FastEntry(date: date, value) }
    }
}

extension SyncValue {
    /// A `fast` value.
    public static func fast(_ value: SyncFastValue) -> SyncValue { SyncValue(value) }
}

extension SyncFastValue {
    /// The value of an entry (its day is the row's key).
    public init(_ entry: FastEntry) {
        self.init(status: entry.status.rawValue, recordedAt: entry.recordedAt, note: entry.note)
    }
}

extension FastEntry {
    /// The entry of a `fast` row of `date`, checked as every entry is.
    /// - Throws: ``ValidationError`` for a status that does not read, or what
    ///   ``init(date:status:recordedAt:note:)`` throws.
    public init(date: CivilDate, _ value: SyncFastValue) throws(ValidationError) {
        guard let status = FastStatus(rawValue: value.status) else {
            throw ValidationError(
                field: "status",
                message: "a fast is fasted, missed, excused, made-up or voluntary, got '\(value.status)'")
        }
        try self.init(date: date, status: status, recordedAt: value.recordedAt, note: value.note)
    }
}
