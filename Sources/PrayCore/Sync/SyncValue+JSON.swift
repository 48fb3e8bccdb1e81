import Foundation

extension SyncValue {
    /// The value's wire JSON as text (`{"status":"prayed",…}`), as a store keeps it.
    /// - Throws: `EncodingError` (not for a value that was decoded or validated: JSON has no NaN).
    package func jsonText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data
        switch self {
        case .log(let value): data = try encoder.encode(value)
        case .pref(let value): data = try encoder.encode(value)
        case .place(let value): data = try encoder.encode(value)
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads a value of `collection` back from ``jsonText()``.
    /// - Throws: `DecodingError` for text that is not a value of the collection.
    package init(collection: SyncCollection, jsonText: String) throws {
        let decoder = JSONDecoder()
        let data = Data(jsonText.utf8)
        switch collection {
        case .log: self = .log(try decoder.decode(SyncLogValue.self, from: data))
        case .pref: self = .pref(try decoder.decode(SyncPrefValue.self, from: data))
        case .place: self = .place(try decoder.decode(SyncPlaceValue.self, from: data))
        }
    }
}
