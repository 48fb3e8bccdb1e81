import Foundation
import PrayCore

// MARK: - Push and pull

extension SyncStoreSQLite {
    /// Applies a push in one transaction (SYNC.md §3); a refused push writes nothing.
    /// - Throws: ``SyncServerError``; ``StorageError``.
    public func push(_ request: SyncAPI.PushRequest, from device: SyncDeviceIdentity, now: Date) throws
        -> SyncAPI.PushResponse
    {
        try SyncServerRules.check(request)
        let limits = limits
        let response = try write { connection in
            let userID = try Self.activeUser(of: device, connection: connection)
            let last = try Self.client(request.clientID, of: device, connection: connection, register: now) ?? 0
            let plan = try SyncServerRules.plan(
                request, last: last,
                storedHash: { id in
                    try SyncSQL.first(
                        connection, "SELECT payload_hash FROM recent_mutations WHERE client_id = ? AND id = ?",
                        [.text(request.clientID), .integer(Int64(id))]
                    ) { $0.text(0) ?? "" }
                }, now: now)
            var applier = Applier(connection: connection, userID: userID)
            var rejected: [SyncAPI.Rejection] = []
            for step in plan.steps {
                try SyncSQL.run(
                    connection,
                    "INSERT OR REPLACE INTO recent_mutations (client_id, id, payload_hash) VALUES (?, ?, ?)",
                    [.text(request.clientID), .integer(Int64(step.mutation.id)), .text(step.payloadHash)])
                if let reason = step.rejection {
                    rejected.append(SyncAPI.Rejection(id: step.mutation.id, reason: reason))
                } else {
                    try applier.apply(step.mutation.row)
                }
            }
            try applier.checkQuota(limits.maximumRowsPerUser)
            CrashPoint.reach(.serverPushApplying)
            try SyncSQL.run(
                connection, "UPDATE clients SET last_mutation_id = ? WHERE id = ?",
                [.integer(Int64(plan.lastMutationID)), .text(request.clientID)])
            try SyncSQL.run(
                connection, "DELETE FROM recent_mutations WHERE client_id = ? AND id <= ?",
                [.text(request.clientID), .integer(Int64(plan.lastMutationID - limits.recentMutationsKept))])
            return SyncAPI.PushResponse(
                lastMutationID: plan.lastMutationID, rejected: rejected, serverTime: SyncAPI.timestamp(now))
        }
        CrashPoint.reach(.serverPushCommitted)
        return response
    }

    /// A page of the user's rows after the cursor, never ending inside a version.
    /// - Throws: ``SyncServerError``; ``StorageError``.
    public func pull(_ request: SyncAPI.PullRequest, from device: SyncDeviceIdentity, now: Date) throws
        -> SyncAPI.PullResponse
    {
        let limit = try SyncServerRules.check(request)
        return try read { connection in
            // One snapshot for every statement of the page: an administrator's command in another
            // process (or another server) may write meanwhile. Nothing is written, so it ends with a
            // rollback.
            try connection.execute("BEGIN DEFERRED")
            defer { try? connection.execute("ROLLBACK") }
            let userID = try Self.activeUser(of: device, connection: connection)
            let last = try Self.client(request.clientID, of: device, connection: connection, register: nil) ?? 0
            let storeID = try SyncSQL.first(connection, "SELECT value FROM store WHERE key = 'id'") { $0.text(0) ?? "" }
            let latest = try SyncSQL.first(connection, "SELECT version FROM users WHERE id = ?", [.integer(userID)]) {
                $0.int64(0)
            }
            let after = try SyncServerRules.version(
                ofCursor: request.cursor, storeID: storeID ?? "", latest: latest ?? 0)
            let columns = "SELECT collection, key, value, deleted, hlc, version FROM sync_rows"
            let (rows, hasMore) = try SyncServerRules.page(
                limit: limit, version: \.version,
                first: { count in
                    try SyncSQL.all(
                        connection,
                        "\(columns) WHERE user_id = ? AND version > ? ORDER BY version, collection, key LIMIT ?",
                        [.integer(userID), .integer(after), .integer(Int64(count))], Self.storedRow)
                },
                wholeVersion: { version in
                    try SyncSQL.all(
                        connection, "\(columns) WHERE user_id = ? AND version = ? ORDER BY collection, key",
                        [.integer(userID), .integer(version)], Self.storedRow)
                },
                anyAfter: { version in
                    try SyncSQL.first(
                        connection, "SELECT 1 FROM sync_rows WHERE user_id = ? AND version > ? LIMIT 1",
                        [.integer(userID), .integer(version)]
                    ) { _ in true } ?? false
                })
            return SyncAPI.PullResponse(
                cursor: SyncServerRules.cursor(storeID: storeID ?? "", version: rows.last?.version ?? after),
                hasMore: hasMore, lastMutationID: last, serverTime: SyncAPI.timestamp(now),
                rows: rows.map { SyncAPI.PulledRow($0.row) })
        }
    }

    // MARK: - Helpers

    /// The user's ID of a device that is still paired.
    /// - Throws: ``SyncServerError`` `unauthorized` for a device revoked (or removed) since its token
    ///   was checked.
    static func activeUser(of device: SyncDeviceIdentity, connection: SQLiteConnection) throws -> Int64 {
        let userID = try SyncSQL.first(
            connection,
            """
            SELECT devices.user_id FROM devices JOIN users ON users.id = devices.user_id
            WHERE devices.id = ? AND users.name = ? AND devices.revoked_at IS NULL
            """, [.text(device.deviceID), .text(device.user)]
        ) { $0.int64(0) }
        guard let userID else { throw SyncServerRules.unauthorized }
        return userID
    }

    /// The client's last mutation ID, or `nil` for a client not seen yet (registered to the device
    /// when `register` gives the time).
    /// - Throws: ``SyncServerError`` `forbidden` for a client ID of another device.
    static func client(
        _ clientID: String, of device: SyncDeviceIdentity, connection: SQLiteConnection, register now: Date?
    ) throws -> Int? {
        let known = try SyncSQL.first(
            connection, "SELECT device_id, last_mutation_id FROM clients WHERE id = ?", [.text(clientID)]
        ) { (device: $0.text(0) ?? "", last: Int($0.int64(1))) }
        if let known {
            guard known.device == device.deviceID else { throw SyncServerRules.foreignClientID }
            return known.last
        }
        if let now {
            try SyncSQL.run(
                connection, "INSERT INTO clients (id, device_id, last_mutation_id, created_at) VALUES (?, ?, 0, ?)",
                [.text(clientID), .text(device.deviceID), .integer(SyncServerRules.milliseconds(now))])
        }
        return nil
    }

    /// A row as stored, with its version.
    struct StoredRow {
        let row: SyncRow
        let version: Int64
    }

    /// Reads `collection, key, value, deleted, hlc, version`.
    /// - Throws: ``StorageError`` (`invalidData`) for a row this store could not have written.
    static func storedRow(_ statement: SQLiteStatement) throws -> StoredRow {
        StoredRow(
            row: try SyncServerRules.storedRow(
                collection: statement.text(0), key: statement.text(1), value: statement.text(2),
                deleted: statement.int64(3) != 0, hlc: statement.text(4)),
            version: statement.int64(5))
    }
}

/// Writes a push's rows by the merge rule, taking the user's next version at the first change, so a
/// push that changes nothing takes none.
struct Applier {
    let connection: SQLiteConnection
    let userID: Int64
    private(set) var version: Int64?
    private(set) var newRows = 0

    init(connection: SQLiteConnection, userID: Int64) {
        self.connection = connection
        self.userID = userID
    }

    /// Writes `row` if its stamp is greater than the stored row's (or there is none).
    mutating func apply(_ row: SyncRow) throws {
        let stored = try SyncSQL.first(
            connection, "SELECT hlc FROM sync_rows WHERE user_id = ? AND collection = ? AND key = ?",
            [.integer(userID), .text(row.collection.rawValue), .text(row.key)]
        ) { $0.text(0) ?? "" }
        if let stored {
            // A stored stamp that does not parse cannot be greater than anything: replace it.
            if let storedStamp = try? HLC(parsing: stored), row.hlc <= storedStamp { return }
        } else {
            newRows += 1
        }
        let version = try version ?? nextVersion()
        self.version = version
        try SyncSQL.run(
            connection,
            """
            INSERT INTO sync_rows (user_id, collection, key, value, deleted, hlc, version) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, collection, key) DO UPDATE SET
                value = excluded.value, deleted = excluded.deleted, hlc = excluded.hlc, version = excluded.version
            """,
            [
                .integer(userID), .text(row.collection.rawValue), .text(row.key),
                try row.value.map { .text(String(decoding: try $0.jsonData(), as: UTF8.self)) } ?? .null,
                .integer(row.deleted ? 1 : 0),
                .text(row.hlc.description), .integer(version),
            ])
    }

    /// Counts the new rows; more than the quota refuses the push (the transaction rolls back).
    /// - Throws: ``SyncServerError`` `too_large`.
    func checkQuota(_ maximum: Int) throws {
        guard newRows > 0 else { return }
        let count =
            try SyncSQL.first(
                connection, "UPDATE users SET row_count = row_count + ? WHERE id = ? RETURNING row_count",
                [.integer(Int64(newRows)), .integer(userID)]
            ) { $0.int64(0) } ?? 0
        guard count <= Int64(maximum) else { throw SyncServerRules.tooManyRows(count, maximum: maximum) }
    }

    /// The user's next version: the counter in the user's row, taken inside the push's transaction.
    private func nextVersion() throws -> Int64 {
        try SyncSQL.first(
            connection, "UPDATE users SET version = version + 1 WHERE id = ? RETURNING version", [.integer(userID)]
        ) { $0.int64(0) } ?? 0
    }
}
