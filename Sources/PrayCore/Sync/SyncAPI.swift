#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The wire protocol of sync (SYNC.md §3, §8; `docs/sync-protocol.md`): JSON over HTTP under
/// `/sync/v1/`, the same types on the client and the server. Unknown fields are ignored when decoding.
public enum SyncAPI {
    /// The protocol version this build speaks: 2 adds spaces (SYNC.md §8). A server answers protocol
    /// 1 clients as before, in their personal space.
    public static let protocolVersion = 2
    /// The schema of the synced rows: 1 for `log`, `pref` and `place`; 2 adds `qada`, `fast`,
    /// `hijri-start` and `mosque`; 3 the mosque spaces' `mosque-month`, `mosque-settings` and `notice`
    /// (``SyncCollection/schema``). A server sends a client only the collections of its schema.
    public static let schemaVersion = 3
    /// The most spaces one user may belong to (their personal space included).
    public static let maximumSpacesPerUser = 100
    /// The most mutations one push may carry.
    public static let maximumMutationsPerPush = 500
    /// The most rows one pull page may hold.
    public static let maximumPullLimit = 1_000
    /// The largest request body accepted, bytes.
    public static let maximumBodyBytes = 2 * 1024 * 1024
    /// How far ahead of the server a stamp may be, milliseconds.
    public static let maximumClockLead: Int64 = 5 * 60 * 1000

    /// `POST /sync/v1/devices`: a one-time code for this device.
    public struct PairRequest: Codable, Hashable, Sendable {
        /// The pairing code.
        public var code: String
        /// A name for the device, shown in `serve sync devices list`.
        public var deviceName: String

        /// Creates a request.
        public init(code: String, deviceName: String) {
            self.code = code
            self.deviceName = deviceName
        }
    }

    /// The answer to a pairing: the device's token, shown once.
    public struct PairResponse: Codable, Hashable, Sendable {
        /// The device token, `pkd_…`.
        public var token: String
        /// The device's ID, `d_…`.
        public var deviceID: String
        /// The user's name (for a device paired with a follow code, the follower's own name, `f_…`).
        public var user: String
        /// With a follow code: the one space the device follows, as a viewer. Absent otherwise.
        public var space: SyncSpace?

        /// Creates a response.
        public init(token: String, deviceID: String, user: String, space: SyncSpace? = nil) {
            self.token = token
            self.deviceID = deviceID
            self.user = user
            self.space = space
        }
    }

    /// The answer to `POST /sync/v1/devices/retire`: the device of the token, now retired.
    public struct RetireResponse: Codable, Hashable, Sendable {
        /// The device's ID, `d_…`.
        public var deviceID: String

        /// Creates a response.
        public init(deviceID: String) {
            self.deviceID = deviceID
        }
    }

    /// What a mutation does.
    public enum Operation: String, Codable, Hashable, Sendable {
        /// Write the value.
        case put
        /// Write a tombstone.
        case delete
    }

    /// One change of a client, numbered without gaps.
    public struct Mutation: Codable, Hashable, Sendable {
        /// The client's number of this change: 1, 2, 3…
        public var id: Int
        /// The row changed.
        public var collection: SyncCollection
        /// The row's key.
        public var key: String
        /// Put or delete.
        public var op: Operation
        /// The stamp of the change.
        public var hlc: HLC
        /// The value of a put.
        public var value: SyncValue?
        /// The space written (protocol 2), or `nil` for the user's personal space.
        public var space: String?

        /// Creates a mutation.
        public init(
            id: Int, collection: SyncCollection, key: String, op: Operation, hlc: HLC, value: SyncValue?,
            space: String? = nil
        ) {
            self.id = id
            self.collection = collection
            self.key = key
            self.op = op
            self.hlc = hlc
            self.value = value
            self.space = space
        }

        /// The row this mutation writes.
        public var row: SyncRow {
            SyncRow(collection: collection, key: key, hlc: hlc, deleted: op == .delete, value: op == .put ? value : nil)
        }

        private enum CodingKeys: String, CodingKey { case id, collection, key, op, hlc, value, space }

        /// Decodes a mutation; the value's shape follows the collection.
        /// - Throws: `DecodingError` for a malformed mutation.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            collection = try container.decode(SyncCollection.self, forKey: .collection)
            key = try container.decode(String.self, forKey: .key)
            op = try container.decode(Operation.self, forKey: .op)
            hlc = try container.decode(HLC.self, forKey: .hlc)
            let hasValue = container.contains(.value) ? !(try container.decodeNil(forKey: .value)) : false
            value = op == .put && hasValue ? try SyncValue.decode(collection, from: container, forKey: .value) : nil
            space = try container.decodeIfPresent(String.self, forKey: .space)
        }

        /// Encodes the wire form (`space` only when set, so a protocol 1 mutation reads as before).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(collection, forKey: .collection)
            try container.encode(key, forKey: .key)
            try container.encode(op, forKey: .op)
            try container.encode(hlc, forKey: .hlc)
            if let value { try value.encode(to: &container, forKey: .value) }
            try container.encodeIfPresent(space, forKey: .space)
        }
    }

    /// `POST /sync/v1/push`.
    public struct PushRequest: Codable, Hashable, Sendable {
        /// The protocol version.
        public var `protocol`: Int
        /// The schema of the rows.
        public var schema: Int
        /// The pushing client.
        public var clientID: String
        /// The changes, in order.
        public var mutations: [Mutation]

        /// Creates a push of the current protocol and schema.
        public init(clientID: String, mutations: [Mutation]) {
            self.protocol = SyncAPI.protocolVersion
            schema = SyncAPI.schemaVersion
            self.clientID = clientID
            self.mutations = mutations
        }
    }

    /// A mutation the server refused; it still counts as applied, so a queue never blocks.
    public struct Rejection: Codable, Hashable, Sendable {
        /// The mutation's number.
        public var id: Int
        /// Why.
        public var reason: String
        /// What kind of refusal (protocol 2): ``Code/invalid`` for a value its collection's rules
        /// refuse, ``Code/readOnly`` for a space the user only views, ``Code/notAMember`` for a space
        /// the user does not belong to (or that does not exist). Absent from older servers' answers.
        public var code: Code?

        /// Why a mutation was refused.
        public enum Code: String, Codable, Hashable, Sendable {
            /// The value or key breaks its collection's rules, or the collection is not one of the space's.
            case invalid
            /// The user's role in the space is `viewer`.
            case readOnly = "read_only"
            /// The user is not a member of the space, or there is no such space.
            case notAMember = "not_a_member"
        }

        /// Creates a rejection.
        public init(id: Int, reason: String, code: Code? = nil) {
            self.id = id
            self.reason = reason
            self.code = code
        }
    }

    /// The answer to a push.
    public struct PushResponse: Codable, Hashable, Sendable {
        /// The last mutation of this client the server has.
        public var lastMutationID: Int
        /// The mutations refused.
        public var rejected: [Rejection]
        /// The server's clock, ISO 8601 with milliseconds.
        public var serverTime: String
        /// The mutations of this push that a newer row (a greater stamp, from another device) kept from
        /// changing anything: the device keeps their values in its conflicts list (SYNC.md §8, I15).
        /// Absent from older servers' answers.
        public var superseded: [Int] = []

        /// Creates a response.
        public init(lastMutationID: Int, rejected: [Rejection], serverTime: String) {
            self.lastMutationID = lastMutationID
            self.rejected = rejected
            self.serverTime = serverTime
        }

        private enum CodingKeys: String, CodingKey { case lastMutationID, rejected, serverTime, superseded }

        /// Decodes an answer; `superseded` may be absent.
        /// - Throws: `DecodingError` for a malformed answer.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            lastMutationID = try container.decode(Int.self, forKey: .lastMutationID)
            rejected = try container.decode([Rejection].self, forKey: .rejected)
            serverTime = try container.decode(String.self, forKey: .serverTime)
            superseded = try container.decodeIfPresent([Int].self, forKey: .superseded) ?? []
        }
    }

    /// `POST /sync/v1/pull`.
    public struct PullRequest: Codable, Hashable, Sendable {
        /// The protocol version.
        public var `protocol`: Int
        /// The schema of the rows.
        public var schema: Int
        /// The pulling client.
        public var clientID: String
        /// Where the last page ended (`"0"` at first); opaque.
        public var cursor: String
        /// The most rows wanted, in the personal space and in each other space.
        public var limit: Int
        /// The other spaces to pull (protocol 2), each with where its last page ended (`"0"` at
        /// first); at most ``SyncAPI/maximumSpacesPerUser``. `nil` or empty: the personal space only.
        public var spaces: [String: String]?

        /// Creates a pull of the current protocol and schema.
        public init(
            clientID: String, cursor: String, limit: Int = SyncAPI.maximumPullLimit, spaces: [String: String]? = nil
        ) {
            self.protocol = SyncAPI.protocolVersion
            schema = SyncAPI.schemaVersion
            self.clientID = clientID
            self.cursor = cursor
            self.limit = limit
            self.spaces = spaces
        }
    }

    /// A page of one space's rows in a pull (protocol 2).
    public struct SpacePage: Codable, Hashable, Sendable {
        /// The space.
        public var space: String
        /// Where this page ends; the space's next cursor.
        public var cursor: String
        /// Whether more rows of the space follow.
        public var hasMore: Bool
        /// The rows, in version order.
        public var rows: [PulledRow]
        /// `true` when the user may no longer read the space (removed, the space deleted, or never a
        /// member): the device keeps its copy, marked no longer updated.
        public var gone: Bool
        /// The user's role in the space, while not gone.
        public var role: SyncRole?

        /// Creates a page.
        public init(
            space: String, cursor: String, hasMore: Bool, rows: [PulledRow], gone: Bool = false, role: SyncRole? = nil
        ) {
            self.space = space
            self.cursor = cursor
            self.hasMore = hasMore
            self.rows = rows
            self.gone = gone
            self.role = role
        }
    }

    /// A row as a pull sends it.
    public struct PulledRow: Codable, Hashable, Sendable {
        /// The row.
        public var row: SyncRow

        /// Creates a pulled row.
        public init(_ row: SyncRow) {
            self.row = row
        }

        private enum CodingKeys: String, CodingKey { case collection, key, hlc, deleted, value }

        /// Decodes `{"collection", "key", "hlc", "deleted", "value"}`.
        /// - Throws: `DecodingError` for a malformed row.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let collection = try container.decode(SyncCollection.self, forKey: .collection)
            let deleted = try container.decode(Bool.self, forKey: .deleted)
            let hasValue = container.contains(.value) ? !(try container.decodeNil(forKey: .value)) : false
            let value = !deleted && hasValue ? try SyncValue.decode(collection, from: container, forKey: .value) : nil
            row = SyncRow(
                collection: collection, key: try container.decode(String.self, forKey: .key),
                hlc: try container.decode(HLC.self, forKey: .hlc), deleted: deleted, value: value)
        }

        /// Encodes the wire form (`value` is `null` for a tombstone).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(row.collection, forKey: .collection)
            try container.encode(row.key, forKey: .key)
            try container.encode(row.hlc, forKey: .hlc)
            try container.encode(row.deleted, forKey: .deleted)
            if let value = row.value {
                try value.encode(to: &container, forKey: .value)
            } else {
                try container.encodeNil(forKey: .value)
            }
        }
    }

    /// The answer to a pull: a page of rows in version order.
    public struct PullResponse: Codable, Hashable, Sendable {
        /// Where this page ends; the next pull's cursor.
        public var cursor: String
        /// Whether more rows follow.
        public var hasMore: Bool
        /// The last mutation of this client the server has.
        public var lastMutationID: Int
        /// The server's clock, ISO 8601 with milliseconds.
        public var serverTime: String
        /// The rows of the personal space.
        public var rows: [PulledRow]
        /// A page of each other space the pull asked for (protocol 2), in the order of their IDs;
        /// absent when it asked for none.
        public var spaces: [SpacePage]?

        /// Creates a response.
        public init(
            cursor: String, hasMore: Bool, lastMutationID: Int, serverTime: String, rows: [PulledRow],
            spaces: [SpacePage]? = nil
        ) {
            self.cursor = cursor
            self.hasMore = hasMore
            self.lastMutationID = lastMutationID
            self.serverTime = serverTime
            self.rows = rows
            self.spaces = spaces
        }
    }

    /// An error's body: `{"error": "<code>", "message": "…"}`, with what the code needs.
    public struct ErrorBody: Codable, Hashable, Sendable {
        /// The code: `mutation_gap`, `clock_ahead`, `client_id_conflict`, `cursor_expired`, …
        public var error: String
        /// A sentence.
        public var message: String
        /// With `mutation_gap`: the last mutation the server has.
        public var lastMutationID: Int?
        /// With `clock_ahead`: the server's clock.
        public var serverTime: String?

        /// Creates an error body.
        public init(error: String, message: String, lastMutationID: Int? = nil, serverTime: String? = nil) {
            self.error = error
            self.message = message
            self.lastMutationID = lastMutationID
            self.serverTime = serverTime
        }
    }

    /// The server's time as the protocol writes it: ISO 8601 UTC with milliseconds.
    public static func timestamp(_ date: Date) -> String { PrayerLogEntry.timestamp(date) }

    /// A time the protocol wrote.
    public static func parseTimestamp(_ text: String) -> Date? { PrayerLogEntry.parseTimestamp(text) }
}
