#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The value of one collection's rows: its wire form (`Codable`), the collection it belongs to, and the
/// rules a put or a delete of a key must follow, the same on the client and the server (SYNC.md §1,
/// §7).
public protocol SyncRowValue: Codable, Hashable, Sendable {
    /// The collection whose rows hold this value.
    static var collection: SyncCollection { get }

    /// Checks a put (`value`) or a delete (`nil`) of `key` in ``collection``, with the PrayCore
    /// validators of the model the value carries.
    /// - Throws: ``ValidationError`` saying what is wrong.
    static func validate(key: String, value: Self?) throws(ValidationError)

    /// The value in a few words, for a list a person reads (`prayed`, `Makkah (21.4225, 39.8262)`).
    var summary: String { get }
}

/// The value of a row: one of the collections' value types (``SyncRowValue``).
///
/// ```swift
/// let value = SyncValue.fast(SyncFastValue(entry))
/// if let fast = value.payload(as: SyncFastValue.self) { print(fast.status) }
/// ```
public struct SyncValue: Hashable, Sendable {
    /// The typed value.
    public let payload: any SyncRowValue

    /// Wraps a typed value.
    public init(_ payload: some SyncRowValue) {
        self.payload = payload
    }

    /// The collection the value belongs to.
    public var collection: SyncCollection { type(of: payload).collection }

    /// The value in a few words (``SyncRowValue/summary``).
    public var summary: String { payload.summary }

    /// The typed value, when it is a `Value`.
    public func payload<Value: SyncRowValue>(as type: Value.Type) -> Value? { payload as? Value }

    /// Values are equal when their typed values are.
    public static func == (lhs: SyncValue, rhs: SyncValue) -> Bool {
        lhs.payload.hashable == rhs.payload.hashable
    }

    /// Hashes the typed value.
    public func hash(into hasher: inout Hasher) { hasher.combine(payload.hashable) }

    /// The value as its JSON object (the wire form), for storing.
    /// - Throws: `EncodingError` (never, for values made by the initialisers).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try payload.encoded(by: encoder)
    }

    /// Reads a value of `collection` from its JSON object.
    /// - Throws: `DecodingError` for a malformed value.
    public init(_ collection: SyncCollection, json: Data) throws {
        self = try collection.valueType.decodeValue(json)
    }

    /// Decodes the value of `collection` from a container's `key`.
    static func decode<Key: CodingKey>(
        _ collection: SyncCollection, from container: KeyedDecodingContainer<Key>, forKey key: Key
    ) throws -> SyncValue {
        try collection.valueType.decodeValue(from: container, forKey: key)
    }

    /// Encodes the value under a container's `key`.
    func encode<Key: CodingKey>(to container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        try payload.encode(to: &container, forKey: key)
    }
}

extension SyncRowValue {
    /// The value as an `AnyHashable`, for comparing values of unknown types.
    fileprivate var hashable: AnyHashable { AnyHashable(self) }

    /// The value's JSON.
    fileprivate func encoded(by encoder: JSONEncoder) throws -> Data { try encoder.encode(self) }

    /// Encodes the value under a container's `key`.
    fileprivate func encode<Key: CodingKey>(to container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        try container.encode(self, forKey: key)
    }

    /// A value of this type read from its JSON object.
    static func decodeValue(_ json: Data) throws -> SyncValue {
        SyncValue(try JSONDecoder().decode(Self.self, from: json))
    }

    /// A value of this type decoded from a container's `key`.
    static func decodeValue<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws
        -> SyncValue
    {
        SyncValue(try container.decode(Self.self, forKey: key))
    }

    /// ``validate(key:value:)`` of an untyped value, already known to belong to this collection.
    static func validate(key: String, anyValue value: SyncValue?) throws(ValidationError) {
        try validate(key: key, value: value?.payload(as: Self.self))
    }
}
