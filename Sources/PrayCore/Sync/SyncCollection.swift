#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A collection of synced rows (SYNC.md §1): its name on the wire, the schema that brought it, and the
/// type of its values.
///
/// Each collection is declared beside its model — `SyncCollection.log` with the prayer log,
/// `SyncCollection.fast` with the fasts — and registered once, in ``all``. A value type says which
/// collection it belongs to (``SyncRowValue/collection``), and its rules are the collection's rules on
/// the server and on every device.
public struct SyncCollection: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The name on the wire: `log`, `pref`, `hijri-start`, …
    public let rawValue: String
    /// The schema that brought the collection: a client of an older schema is never sent its rows.
    public let schema: Int
    /// The type of the collection's values.
    public let valueType: any SyncRowValue.Type
    /// The kinds of space whose rows it may be (SYNC.md §8): a person's log only in their personal
    /// space, a mosque's notices only in a mosque's. The server refuses a mutation elsewhere.
    public let spaceKinds: Set<SyncSpaceKind>

    /// Declares a collection; each is a `static let` beside its model, registered in ``all``.
    package init(
        name: String, schema: Int, valueType: any SyncRowValue.Type, spaceKinds: Set<SyncSpaceKind> = [.personal]
    ) {
        self.rawValue = name
        self.schema = schema
        self.valueType = valueType
        self.spaceKinds = spaceKinds
    }

    /// The collection of that name, or `nil` for one this build does not know.
    public init?(rawValue: String) {
        guard let known = Self.byName[rawValue] else { return nil }
        self = known
    }

    /// Every collection, in the order a first login and a backup go through them: the one registration
    /// of a new collection.
    public static let all: [SyncCollection] = [
        .log, .pref, .place, .qada, .fast, .hijriStart, .mosque, .mosqueMonth, .mosqueSettings, .notice,
    ]

    /// Every collection (``all``).
    public static var allCases: [SyncCollection] { all }

    private static let byName: [String: SyncCollection] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.rawValue, $0) })

    /// The raw value.
    public var description: String { rawValue }

    /// Collections are equal when their names are.
    public static func == (lhs: SyncCollection, rhs: SyncCollection) -> Bool { lhs.rawValue == rhs.rawValue }

    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

extension SyncCollection: Codable {
    /// Decodes a collection's name.
    /// - Throws: `DecodingError` for a name this build does not know.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let collection = SyncCollection(rawValue: name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown collection '\(name)'")
        }
        self = collection
    }

    /// Encodes the name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
