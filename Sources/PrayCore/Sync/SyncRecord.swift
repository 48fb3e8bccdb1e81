#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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

/// Times as sync and backups write them: ISO 8601 UTC to the millisecond.
enum SyncTime {
    /// `date` kept to the millisecond.
    static func millisecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(PrayerLogEntry.milliseconds(date)) / 1000)
    }

    /// Decodes a time written by ``PrayerLogEntry/timestamp(_:)``.
    static func decode<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> Date {
        let text = try container.decode(String.self, forKey: key)
        guard let date = PrayerLogEntry.parseTimestamp(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(key.stringValue) must be ISO 8601 UTC, got '\(text)'")
        }
        return date
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

/// The rules every row follows, the same on the client and the server (SYNC.md §1, §7); each
/// collection's own rules are its value type's ``SyncRowValue/validate(key:value:)``.
public enum SyncRules {
    /// The longest note on a log entry, qada entry or fast, characters.
    public static let maximumNoteLength = PrayerLogEntry.maximumNoteLength
    /// The longest key, bytes: a mosque's name (100 characters, up to 400 bytes) and its month.
    public static let maximumKeyLength = 512

    /// Checks a put or a delete of `key` in `collection`, with the PrayCore validators.
    /// - Throws: ``ValidationError`` saying what is wrong.
    public static func validate(collection: SyncCollection, key: String, value: SyncValue?) throws(ValidationError) {
        guard !key.isEmpty, key.utf8.count <= maximumKeyLength else {
            throw ValidationError(field: "key", message: "a key has 1 to \(maximumKeyLength) bytes")
        }
        if let value, value.collection != collection {
            throw ValidationError(field: "value", message: "the value is not a \(collection) value")
        }
        try collection.valueType.validate(key: key, anyValue: value)
    }

    /// Checks a note's length.
    /// - Throws: ``ValidationError`` for a note longer than ``maximumNoteLength``.
    package static func checkNote(_ note: String?) throws(ValidationError) {
        if let note, note.count > maximumNoteLength {
            throw ValidationError(field: "note", message: "a note has at most \(maximumNoteLength) characters")
        }
    }
}
