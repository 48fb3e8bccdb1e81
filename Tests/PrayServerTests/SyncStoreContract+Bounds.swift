import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServer

/// The contract's cases of what one device can make a store keep (SYNC.md §7, the wave-3 security
/// review): client IDs per device and payload hashes per user are bounded, however many fresh client
/// IDs a device pushes under. Run by both stores with the rest of ``SyncStoreContract/cases``.
extension SyncStoreContract {
    static let boundsCases: [SyncStoreContractCase] = [
        .init(name: "client IDs are bounded per device", run: { try $0.clientIDsAreBoundedPerDevice() }),
        .init(name: "payload hashes are bounded per user", run: { try $0.payloadHashesAreBoundedPerUser() }),
    ]

    /// A client ID of 32 hex digits made of `index`.
    static func client(_ index: Int) -> String {
        "c_" + String(repeating: String(format: "%02x", index % 256), count: 16)
    }

    /// `count` puts from `client`, numbered from `first`, over the same three keys (so the rows stay
    /// three), each stamped later than the one before.
    static func churn(_ client: String, from first: Int = 1, count: Int, at start: Int64 = 0) throws -> [SyncAPI
        .Mutation]
    {
        try (0..<count).map { offset in
            let day = ["2026-12-01/fajr", "2026-12-01/dhuhr", "2026-12-01/asr"][offset % 3]
            return try put(first + offset, day, at: start + Int64(offset), client: client)
        }
    }

    // MARK: - Bounds

    func clientIDsAreBoundedPerDevice() throws {
        // Given: a device that pushes 500 mutations under a fresh client ID, six times over (the review
        // saw 40 such pushes add 20,000 payload hashes while the rows stayed at 36)
        let (store, _, device) = try storeWithDevice()
        let tablet = try pairDevice(store, name: "tablet")
        _ = try store.push(
            .init(clientID: Self.client(200), mutations: try Self.churn(Self.client(200), count: 5)), from: tablet,
            now: Self.now)
        for index in 1...6 {
            let client = Self.client(index)
            let response = try store.push(
                .init(clientID: client, mutations: try Self.churn(client, count: 500, at: Int64(index) * 1_000)),
                from: device, now: Self.now)
            #expect(response.lastMutationID == 500 && response.rejected.isEmpty)
        }
        // Then: the device keeps its 4 newest client IDs (the tablet's is untouched), the rows are 3,
        // and the payload hashes at most the user's 2,000
        let counts = try StoreRecords.counts(store)
        #expect(counts["clients"] == 4 + 1, "\(counts)")
        #expect(counts["sync_rows"] == 3)
        #expect((counts["recent_mutations"] ?? .max) <= 2_000, "\(counts)")
        #expect(
            try store.push(.init(clientID: Self.client(200), mutations: []), from: tablet, now: Self.now)
                .lastMutationID == 5)
        // A retired client that comes back is a new one: its next mutation is a gap from 0, and the
        // changes it then sends again from 1 change nothing (their stamps are not greater)
        let version = try store.users()[0].version
        let retired = refusal {
            try store.push(
                .init(clientID: Self.client(1), mutations: [try Self.put(501, client: Self.client(1))]), from: device,
                now: Self.now)
        }
        #expect(retired?.code == .mutationGap && retired?.lastMutationID == 0)
        let again = try store.push(
            .init(clientID: Self.client(1), mutations: try Self.churn(Self.client(1), count: 500, at: 1_000)),
            from: device, now: Self.now)
        #expect(try again.lastMutationID == 500 && store.users()[0].version == version)
        #expect(try StoreRecords.counts(store)["clients"] == 4 + 1)
        // The newest client was kept, with its last
        #expect(
            try store.pull(.init(clientID: Self.client(6), cursor: "0", limit: 1), from: device, now: Self.now)
                .lastMutationID == 500)
    }

    func payloadHashesAreBoundedPerUser() throws {
        // Given: a user whose window keeps 600 hashes, pushing 2 × 500 from one client
        let (store, _, device) = try storeWithDevice(limits: SyncStoreLimits(recentMutationsPerUser: 600))
        let first = try Self.churn(Self.clientA, count: 500)
        _ = try store.push(.init(clientID: Self.clientA, mutations: first), from: device, now: Self.now)
        _ = try store.push(
            .init(clientID: Self.clientA, mutations: try Self.churn(Self.clientA, from: 501, count: 500, at: 500)),
            from: device, now: Self.now)
        // Then: 600 hashes kept
        #expect(try StoreRecords.counts(store)["recent_mutations"] == 600)
        let version = try store.users()[0].version
        // An old retry whose hash is gone is still a retry: skipped, answered with the last, nothing applied
        let retry = try store.push(.init(clientID: Self.clientA, mutations: first), from: device, now: Self.now)
        #expect(try retry.lastMutationID == 1_000 && retry.rejected.isEmpty && store.users()[0].version == version)
        // One still in the window is checked: another payload under its ID is a conflict
        let reused = try Self.put(1_000, "2026-12-09/isha", at: 5, client: Self.clientA)
        #expect(
            refusal { try store.push(.init(clientID: Self.clientA, mutations: [reused]), from: device, now: Self.now) }?
                .code == .clientIDConflict)
    }
}

/// Reads and writes a store's tables directly, for what a test must see or prepare beneath the
/// protocol (how many records a table holds, how a code is kept).
enum StoreRecords {
    /// The tables a store has.
    static let tables = ["users", "devices", "pairing_codes", "failures", "clients", "sync_rows", "recent_mutations"]

    /// The rows `sql` returns, each column as text.
    static func rows(_ store: any SyncStore, _ sql: String, _ values: [SyncSQLValue] = []) throws -> [[String?]] {
        switch store {
        case let sqlite as SyncStoreSQLite:
            return try sqlite.write(idempotent: true) { connection in try connection.rows(sql, values).map(\.columns) }
        default:
            #if canImport(CPostgres)
                if let postgres = store as? SyncStorePostgres {
                    return try postgres.write(idempotent: true) { connection in
                        try connection.rows(sql, values).map(\.columns)
                    }
                }
            #endif
            Issue.record("not a SQL store: \(type(of: store))")
            return []
        }
    }

    /// Runs `sql` for its effect.
    static func run(_ store: any SyncStore, _ sql: String, _ values: [SyncSQLValue] = []) throws {
        _ = try rows(store, sql, values)
    }

    /// The number of records of each table.
    static func counts(_ store: any SyncStore) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in tables {
            let text = try rows(store, "SELECT COUNT(*) FROM \(table)").first?.first ?? nil
            counts[table] = Int(text ?? "") ?? -1
        }
        return counts
    }
}
