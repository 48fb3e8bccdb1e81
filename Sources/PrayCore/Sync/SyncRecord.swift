import Foundation

/// The identifiers of sync (SYNC.md §2): client IDs (`c_` and 128 random bits in hex), device IDs
/// (`d_…`), device tokens (`pkd_` and 256 random bits in base64url).
public enum SyncID {
    /// Whether `text` is a client ID: `c_` and 32 lowercase hex digits.
    public static func isClientID(_ text: String) -> Bool {
        text.hasPrefix("c_") && text.utf8.count == 34
            && text.utf8.dropFirst(2).allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// A new client ID from the system's random generator.
    public static func newClientID() -> String {
        // The standard library's own generator, not `SystemRandomNumberGenerator` passed `inout`:
        // ThreadSanitizer's runtime faults on an `inout` access to that empty struct.
        "c_" + hex((0..<16).map { _ in UInt8.random(in: 0...255) })
    }

    /// `count` random bytes as lowercase hex.
    package static func hex<G: RandomNumberGenerator>(count: Int, using generator: inout G) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for _ in 0..<count { bytes.append(UInt8.random(in: 0...255, using: &generator)) }
        return hex(bytes)
    }

    /// Bytes as lowercase hex.
    package static func hex(_ bytes: [UInt8]) -> String {
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes { text += String(byte >> 4, radix: 16) + String(byte & 15, radix: 16) }
        return text
    }
}

/// What syncs (SYNC.md §1).
public enum SyncCollection: String, Codable, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The prayer log: key `YYYY-MM-DD/<prayer>`.
    case log
    /// A setting on the allowlist: key the setting's name.
    case pref
    /// The saved place, as one record: key `current`.
    case place

    /// The raw value.
    public var description: String { rawValue }
}

/// The value of a `log` row: how the prayer was kept, when that was recorded, and a note.
public struct SyncLogValue: Hashable, Sendable, Codable {
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
        let timeText = try container.decode(String.self, forKey: .recordedAt)
        guard let recordedAt = PrayerLogEntry.parseTimestamp(timeText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .recordedAt, in: container, debugDescription: "recordedAt must be ISO 8601 UTC")
        }
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

/// The value of a `pref` row: the setting's stored text.
public struct SyncPrefValue: Hashable, Sendable, Codable {
    /// The stored, normalised text.
    public var value: String

    /// Creates a value.
    public init(value: String) {
        self.value = value
    }
}

/// The value of the `place` row: the saved place as one record.
public struct SyncPlaceValue: Hashable, Sendable, Codable {
    /// The place's name, or `nil`.
    public var name: String?
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// Elevation in metres, or `nil` when unknown.
    public var elevation: Double?
    /// The zone saved with the place, or `nil`.
    public var timeZone: String?

    /// Creates a value.
    public init(name: String?, latitude: Double, longitude: Double, elevation: Double?, timeZone: String?) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.timeZone = timeZone
    }
}

/// The value of a row, by its collection.
public enum SyncValue: Hashable, Sendable {
    /// A log entry.
    case log(SyncLogValue)
    /// A setting.
    case pref(SyncPrefValue)
    /// The saved place.
    case place(SyncPlaceValue)

    /// The collection a value belongs to.
    public var collection: SyncCollection {
        switch self {
        case .log: .log
        case .pref: .pref
        case .place: .place
        }
    }

    /// The value as its JSON object (the wire form), for storing.
    /// - Throws: `EncodingError` (never, for values made by the initialisers).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        switch self {
        case .log(let value): return try encoder.encode(value)
        case .pref(let value): return try encoder.encode(value)
        case .place(let value): return try encoder.encode(value)
        }
    }

    /// Reads a value of `collection` from its JSON object.
    /// - Throws: `DecodingError` for a malformed value.
    public init(_ collection: SyncCollection, json: Data) throws {
        let decoder = JSONDecoder()
        switch collection {
        case .log: self = .log(try decoder.decode(SyncLogValue.self, from: json))
        case .pref: self = .pref(try decoder.decode(SyncPrefValue.self, from: json))
        case .place: self = .place(try decoder.decode(SyncPlaceValue.self, from: json))
        }
    }

    /// Decodes the value of `collection` from a container's `key`.
    static func decode<Key: CodingKey>(
        _ collection: SyncCollection, from container: KeyedDecodingContainer<Key>, forKey key: Key
    ) throws -> SyncValue {
        switch collection {
        case .log: .log(try container.decode(SyncLogValue.self, forKey: key))
        case .pref: .pref(try container.decode(SyncPrefValue.self, forKey: key))
        case .place: .place(try container.decode(SyncPlaceValue.self, forKey: key))
        }
    }

    /// Encodes the value under a container's `key`.
    func encode<Key: CodingKey>(to container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        switch self {
        case .log(let value): try container.encode(value, forKey: key)
        case .pref(let value): try container.encode(value, forKey: key)
        case .place(let value): try container.encode(value, forKey: key)
        }
    }
}

/// One synced row: `(collection, key) → value`, or a tombstone, with the stamp that orders writes.
public struct SyncRow: Hashable, Sendable {
    /// The collection.
    public var collection: SyncCollection
    /// The key within it.
    public var key: String
    /// The stamp of the write.
    public var hlc: HLC
    /// Whether this is a tombstone.
    public var deleted: Bool
    /// The value; `nil` for a tombstone.
    public var value: SyncValue?

    /// Creates a row.
    public init(collection: SyncCollection, key: String, hlc: HLC, deleted: Bool, value: SyncValue?) {
        self.collection = collection
        self.key = key
        self.hlc = hlc
        self.deleted = deleted
        self.value = value
    }

    /// Whether this write replaces `other` by the merge rule: only a greater stamp does.
    public func replaces(_ other: SyncRow?) -> Bool {
        guard let other else { return true }
        return hlc > other.hlc
    }
}

/// The rules a row must follow, the same on the client and the server (SYNC.md §1, §7).
public enum SyncRules {
    /// The settings that sync: the method and every calculation key, and the person's Hijri, iqama
    /// and reminder settings. Never `notify-hook` (a command of one machine), `clock` (a display
    /// choice per device), the place's keys (they sync as one `place` row), nor anything secret.
    public static let syncedPreferenceKeys: Set<Preferences.Key> = Set(Preferences.calculationKeys).union([
        .hijriCalendar, .hijriOffset, .hijriStarts, .iqama, .iqamaRounding, .jumuah, .reminderMinutes,
    ])

    /// The longest note on a log entry, characters.
    public static let maximumNoteLength = PrayerLogEntry.maximumNoteLength
    /// The longest key, bytes.
    public static let maximumKeyLength = 64

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

    /// Checks a put or a delete of `key` in `collection`, with the PrayCore validators.
    /// - Throws: ``ValidationError`` saying what is wrong.
    public static func validate(collection: SyncCollection, key: String, value: SyncValue?) throws(ValidationError) {
        guard !key.isEmpty, key.utf8.count <= maximumKeyLength else {
            throw ValidationError(field: "key", message: "a key has 1 to \(maximumKeyLength) bytes")
        }
        if let value, value.collection != collection {
            throw ValidationError(field: "value", message: "the value is not a \(collection) value")
        }
        switch collection {
        case .log:
            _ = try parseLogKey(key)
            if case .log(let entry)? = value, let note = entry.note, note.count > maximumNoteLength {
                throw ValidationError(field: "note", message: "a note has at most \(maximumNoteLength) characters")
            }
        case .pref:
            guard let setting = Preferences.Key(rawValue: key), syncedPreferenceKeys.contains(setting) else {
                throw ValidationError(field: "key", message: "'\(key)' is not a setting that syncs")
            }
            if case .pref(let pref)? = value {
                var check = Preferences()
                try check.set(pref.value, for: setting)
            }
        case .place:
            guard key == "current" else {
                throw ValidationError(field: "key", message: "the place's key is 'current'")
            }
            if case .place(let place)? = value {
                _ = try Coordinates(
                    latitude: place.latitude, longitude: place.longitude, elevation: place.elevation ?? 0)
                if let zone = place.timeZone, TimeZoneName(zone) == nil { throw TimeZoneName.unknown(zone) }
                if let name = place.name, name.isEmpty || name.count > 200 {
                    throw ValidationError(field: "name", message: "a place's name has 1 to 200 characters")
                }
            }
        }
    }
}
