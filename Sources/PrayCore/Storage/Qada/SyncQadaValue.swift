#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SyncCollection {
    /// Prayers to make up: key `opening/<prayer>` (the opening count, the later one wins) or
    /// `made-up/<32 hex digits>` (one record of make-ups, so two devices' records both count).
    public static let qada = SyncCollection(name: "qada", schema: 2, valueType: SyncQadaValue.self)
}

/// The value of a `qada` row: an opening count of prayers owed, or prayers made up.
public struct SyncQadaValue: SyncRowValue {
    /// `opening` or `made-up`.
    public var kind: String
    /// One of the five prayers, by name.
    public var prayer: String
    /// An opening: 0 to 100,000 prayers owed; made up: 1 to 1,000.
    public var count: Int
    /// An opening: the first day the log counts after it; made up: the day they were prayed.
    public var date: CivilDate
    /// An opening: `set` or `estimate`; made up: `nil`.
    public var source: String?
    /// When it was recorded, to the millisecond.
    public var recordedAt: Date
    /// A note of at most ``SyncRules/maximumNoteLength`` characters, or `nil`.
    public var note: String?

    /// Creates a value; `recordedAt` is kept to the millisecond.
    public init(
        kind: String, prayer: String, count: Int, date: CivilDate, source: String?, recordedAt: Date, note: String?
    ) {
        self.kind = kind
        self.prayer = prayer
        self.count = count
        self.date = date
        self.source = source
        self.recordedAt = SyncTime.millisecond(recordedAt)
        self.note = note
    }

    private enum CodingKeys: String, CodingKey { case kind, prayer, count, date, source, recordedAt, note }

    /// Decodes the wire form (`recordedAt` ISO 8601 UTC with milliseconds).
    /// - Throws: `DecodingError` for a malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kind: try container.decode(String.self, forKey: .kind),
            prayer: try container.decode(String.self, forKey: .prayer),
            count: try container.decode(Int.self, forKey: .count),
            date: try container.decode(CivilDate.self, forKey: .date),
            source: try container.decodeIfPresent(String.self, forKey: .source),
            recordedAt: try SyncTime.decode(container, forKey: .recordedAt),
            note: try container.decodeIfPresent(String.self, forKey: .note))
    }

    /// Encodes the wire form; `source` and `note` are `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(prayer, forKey: .prayer)
        try container.encode(count, forKey: .count)
        try container.encode(date, forKey: .date)
        try container.encode(source, forKey: .source)
        try container.encode(PrayerLogEntry.timestamp(recordedAt), forKey: .recordedAt)
        try container.encode(note, forKey: .note)
    }
}

extension SyncQadaValue {
    /// `80 fajr owed from 2026-01-01` or `2 fajr made up on 2026-12-01`.
    public var summary: String {
        kind == "opening" ? "\(count) \(prayer) owed from \(date)" : "\(count) \(prayer) made up on \(date)"
    }

    /// The `qada` collection.
    public static var collection: SyncCollection { .qada }

    /// `opening/<prayer>` or `made-up/<32 hex digits>`, and a value ``QadaEntry`` accepts under that id.
    /// - Throws: ``ValidationError`` saying what is wrong.
    public static func validate(key: String, value: SyncQadaValue?) throws(ValidationError) {
        try QadaEntry.validateID(key)
        if let value { _ = try QadaEntry(key: key, value) }
    }
}

extension SyncValue {
    /// A `qada` value.
    public static func qada(_ value: SyncQadaValue) -> SyncValue { SyncValue(value) }
}

extension SyncQadaValue {
    /// The value of an entry (its id is the row's key).
    public init(_ entry: QadaEntry) {
        self.init(
            kind: entry.kind.rawValue, prayer: entry.prayer.rawValue, count: entry.count, date: entry.date,
            source: entry.source, recordedAt: entry.recordedAt, note: entry.note)
    }
}

extension QadaEntry {
    /// The entry of a `qada` row, checked as every entry is.
    /// - Throws: ``ValidationError`` for a kind or prayer that does not read, or what
    ///   ``init(id:kind:prayer:count:date:source:recordedAt:note:)`` throws.
    public init(key: String, _ value: SyncQadaValue) throws(ValidationError) {
        guard let kind = Kind(rawValue: value.kind) else {
            throw ValidationError(field: "kind", message: "a qada entry is opening or made-up, got '\(value.kind)'")
        }
        guard let prayer = Prayer(rawValue: value.prayer) else {
            throw ValidationError(field: "prayer", message: "'\(value.prayer)' is not a prayer")
        }
        try self.init(
            id: key, kind: kind, prayer: prayer, count: value.count, date: value.date, source: value.source,
            recordedAt: value.recordedAt, note: value.note)
    }
}
