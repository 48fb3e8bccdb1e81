import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - Push and pull

extension SyncStoreEngine {
    /// Applies a push in one transaction (SYNC.md §3, §8); a refused push writes nothing. Each
    /// mutation goes to its space (the personal space without one), refused by itself when the user
    /// may not write there (`read_only`, `not_a_member`) or the collection is not one of that kind of
    /// space (`invalid`); a refused mutation still advances the client's last.
    func push(_ request: SyncAPI.PushRequest, from device: SyncDeviceIdentity, now: Date) throws
        -> SyncAPI.PushResponse
    {
        try SyncServerRules.check(request)
        let limits = limits
        let userLock = database.userLock
        // Idempotent: run again after a commit whose answer was lost, its mutations are retries.
        let response = try database.write(idempotent: true) { connection in
            // The user's row, locked until the commit where the database needs it: the pushes of one
            // user take turns, and commit in the order of the versions they take.
            let caller = try Self.caller(of: device, connection: connection, lock: userLock)
            let last =
                try Self.client(
                    request.clientID, of: device, connection: connection,
                    register: (now, limits.maximumClientsPerDevice)
                ) ?? 0
            let plan = try SyncServerRules.plan(
                request, last: last,
                storedHash: { id in
                    try connection.first(
                        "SELECT payload_hash FROM recent_mutations WHERE client_id = $1 AND id = $2",
                        [.text(request.clientID), .integer(Int64(id))]
                    ).map { $0.text(0) ?? "" }
                }, now: now)
            // Where each mutation goes, decided before anything is written.
            var spaces: [String: SyncMembership?] = [:]
            let targets = try plan.steps.map { step -> SyncPushTarget in
                if let reason = step.rejection {
                    return .refused(SyncAPI.Rejection(id: step.mutation.id, reason: reason, code: .invalid))
                }
                return try Self.target(of: step.mutation, caller: caller, spaces: &spaces, connection)
            }
            // The other spaces written, locked in the order of their rows (so two pushes never wait
            // for each other's), after the user's own.
            let written = Set(targets.compactMap(\.row)).subtracting([caller.id]).sorted()
            for row in written where !userLock.isEmpty {
                try connection.run("SELECT id FROM users WHERE id = $1" + userLock, [.integer(row)])
            }
            var appliers: [Int64: SyncApplier<Database.Connection>] = [:]
            var rejected: [SyncAPI.Rejection] = []
            var superseded: [Int] = []
            for (step, target) in zip(plan.steps, targets) {
                try connection.run(
                    """
                    INSERT INTO recent_mutations (user_id, client_id, id, payload_hash) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (client_id, id) DO UPDATE SET payload_hash = excluded.payload_hash
                    """,
                    [
                        .integer(caller.id), .text(request.clientID), .integer(Int64(step.mutation.id)),
                        .text(step.payloadHash),
                    ])
                switch target {
                case .refused(let rejection):
                    rejected.append(rejection)
                case .row(let row):
                    var applier = appliers[row] ?? SyncApplier(connection: connection, userID: row)
                    if try !applier.apply(step.mutation.row) { superseded.append(step.mutation.id) }
                    appliers[row] = applier
                }
            }
            for applier in appliers.values { try applier.checkQuota(limits.maximumRowsPerUser) }
            CrashPoint.reach(.serverPushApplying)
            try connection.run(
                "UPDATE clients SET last_mutation_id = $1 WHERE id = $2",
                [.integer(Int64(plan.lastMutationID)), .text(request.clientID)])
            try Self.forgetOldMutations(
                of: request.clientID, last: plan.lastMutationID, user: caller.id, limits: limits,
                connection: connection)
            var response = SyncAPI.PushResponse(
                lastMutationID: plan.lastMutationID, rejected: rejected, serverTime: SyncAPI.timestamp(now))
            response.superseded = superseded
            return response
        }
        CrashPoint.reach(.serverPushCommitted)
        return response
    }

    /// The `users` row a mutation writes, or why it may not: the personal space of a person (no
    /// `space`, or its own ID), a mosque space where the user is an owner or an editor; each for the
    /// collections of its kind.
    private static func target(
        of mutation: SyncAPI.Mutation, caller: SyncCaller, spaces: inout [String: SyncMembership?],
        _ connection: Database.Connection
    ) throws -> SyncPushTarget {
        func refused(_ reason: String, _ code: SyncAPI.Rejection.Code) -> SyncPushTarget {
            .refused(SyncAPI.Rejection(id: mutation.id, reason: reason, code: code))
        }
        let id = mutation.space ?? caller.spaceID
        let membership: SyncMembership?
        if let known = spaces[id] {
            membership = known
        } else {
            membership = try Self.membership(id, of: caller, connection)
            spaces[id] = membership
        }
        guard let membership else {
            return caller.isPerson || mutation.space != nil
                ? refused(SyncSpaceRows.notAMember.message, .notAMember)
                : refused(SyncSpaceRows.followerOnly.message, .readOnly)
        }
        guard membership.role.canWrite else {
            return refused("a viewer of this space writes nothing: ask its owner to make you an editor", .readOnly)
        }
        guard mutation.collection.spaceKinds.contains(membership.kind) else {
            return refused(
                "'\(mutation.collection)' rows do not belong in a \(membership.kind) space", .invalid)
        }
        return .row(membership.row)
    }

    /// A page of the user's rows after the cursor and of each space asked for (protocol 2), each never
    /// ending inside a version; rows of collections newer than the client's schema are left out (the
    /// cursor still passes them). A space the user may not read answers `gone`, with no rows, whether
    /// it exists or not.
    func pull(_ request: SyncAPI.PullRequest, from device: SyncDeviceIdentity, now: Date) throws
        -> SyncAPI.PullResponse
    {
        let limit = try SyncServerRules.check(request)
        let asked = request.spaces ?? [:]
        guard asked.count <= SyncAPI.maximumSpacesPerUser,
            asked.allSatisfy({ $0.key.utf8.count <= 64 && $0.value.utf8.count <= 64 })
        else {
            throw SyncServerError(
                .badRequest, message: "a pull asks for at most \(SyncAPI.maximumSpacesPerUser) spaces, by ID and cursor"
            )
        }
        // One snapshot for every statement of the page: another server or an administrator's command
        // may write meanwhile.
        return try database.read { connection in
            let caller = try Self.caller(of: device, connection: connection, lock: "")
            let last = try Self.client(request.clientID, of: device, connection: connection, register: nil) ?? 0
            let storeID = try connection.first("SELECT value FROM store WHERE key = 'id'")?.text(0) ?? ""
            let personal = try Self.page(
                of: caller.id, after: request.cursor, limit: limit, schema: request.schema, storeID: storeID,
                strict: true, connection)
            var pages: [SyncAPI.SpacePage]?
            if !asked.isEmpty {
                pages = try asked.keys.sorted().map { id in
                    let cursor = asked[id] ?? "0"
                    guard let space = try Self.membership(id, of: caller, connection), space.kind == .mosque else {
                        return SyncAPI.SpacePage(space: id, cursor: cursor, hasMore: false, rows: [], gone: true)
                    }
                    let page = try Self.page(
                        of: space.row, after: cursor, limit: limit, schema: request.schema, storeID: storeID,
                        strict: false, connection)
                    return SyncAPI.SpacePage(
                        space: id, cursor: page.cursor, hasMore: page.hasMore, rows: page.rows, role: space.role)
                }
            }
            return SyncAPI.PullResponse(
                cursor: personal.cursor, hasMore: personal.hasMore, lastMutationID: last,
                serverTime: SyncAPI.timestamp(now), rows: personal.rows, spaces: pages)
        }
    }

    /// The version of every space the device may read, as the cursor a pull that has read all of it
    /// returns: the person's own space and each mosque it is a member of.
    func versions(for device: SyncDeviceIdentity) throws -> (personal: String?, versions: [String: String]) {
        try database.read { connection in
            let caller = try Self.caller(of: device, connection: connection, lock: "")
            let storeID = try connection.first("SELECT value FROM store WHERE key = 'id'")?.text(0) ?? ""
            var versions: [String: String] = [:]
            if caller.isPerson {
                let version =
                    try connection.first("SELECT version FROM users WHERE id = $1", [.integer(caller.id)])?.int64(0)
                    ?? 0
                versions[caller.spaceID] = SyncServerRules.cursor(storeID: storeID, version: version)
            }
            let mosques = try connection.rows(
                """
                SELECT users.space_id, users.version FROM members JOIN users ON users.id = members.space
                WHERE members.member = $1 AND users.kind = 'mosque'
                """, [.integer(caller.id)])
            for row in mosques {
                versions[row.text(0) ?? ""] = SyncServerRules.cursor(storeID: storeID, version: row.int64(1))
            }
            return (caller.isPerson ? caller.spaceID : nil, versions)
        }
    }

    /// The rows of one space (its `users` row) after a cursor. `strict`: a cursor of another store or
    /// ahead of the space is `cursor_expired` (the personal space, as in protocol 1); otherwise such
    /// a cursor reads from the start (a mosque space's page never fails the whole pull).
    private static func page(
        of row: Int64, after cursor: String, limit: Int, schema: Int, storeID: String, strict: Bool,
        _ connection: Database.Connection
    ) throws -> (rows: [SyncAPI.PulledRow], cursor: String, hasMore: Bool) {
        let latest = try connection.first("SELECT version FROM users WHERE id = $1", [.integer(row)])?.int64(0) ?? 0
        let after: Int64
        if strict {
            after = try SyncServerRules.version(ofCursor: cursor, storeID: storeID, latest: latest)
        } else {
            after = (try? SyncServerRules.version(ofCursor: cursor, storeID: storeID, latest: latest)) ?? 0
        }
        let columns = "SELECT collection, key, value, deleted, hlc, version FROM sync_rows"
        let (rows, hasMore) = try SyncServerRules.page(
            limit: limit, version: \.version,
            first: { count in
                try connection.rows(
                    "\(columns) WHERE user_id = $1 AND version > $2 ORDER BY version, collection, key LIMIT $3",
                    [.integer(row), .integer(after), .integer(Int64(count))]
                ).map(Self.storedRow)
            },
            wholeVersion: { version in
                try connection.rows(
                    "\(columns) WHERE user_id = $1 AND version = $2 ORDER BY collection, key",
                    [.integer(row), .integer(version)]
                ).map(Self.storedRow)
            },
            anyAfter: { version in
                try connection.first(
                    "SELECT 1 FROM sync_rows WHERE user_id = $1 AND version > $2 LIMIT 1",
                    [.integer(row), .integer(version)]) != nil
            })
        return (
            rows.filter { $0.row.collection.schema <= schema }.map { SyncAPI.PulledRow($0.row) },
            SyncServerRules.cursor(storeID: storeID, version: rows.last?.version ?? after), hasMore
        )
    }

    // MARK: - Helpers

    /// The client's last mutation ID, or `nil` for a client not seen yet (registered to the device
    /// when `register` gives the time, retiring the device's oldest clients beyond the most it keeps).
    /// - Throws: ``SyncServerError`` `forbidden` for a client ID of another device.
    static func client(
        _ clientID: String, of device: SyncDeviceIdentity, connection: Database.Connection,
        register: (now: Date, keep: Int)?
    ) throws -> Int? {
        if let register {
            // ON CONFLICT: a client ID another device registers at this moment is found below.
            let inserted = try connection.first(
                """
                INSERT INTO clients (id, device_id, last_mutation_id, created_at) VALUES ($1, $2, 0, $3)
                ON CONFLICT (id) DO NOTHING RETURNING id
                """, [.text(clientID), .text(device.deviceID), .integer(SyncServerRules.milliseconds(register.now))])
            if inserted != nil {
                try retireClients(of: device.deviceID, keeping: clientID, most: register.keep, connection: connection)
                return nil
            }
        }
        let known = try connection.first(
            "SELECT device_id, last_mutation_id FROM clients WHERE id = $1", [.text(clientID)])
        guard let known else { return nil }
        guard known.text(0) == device.deviceID else { throw SyncServerRules.foreignClientID }
        return Int(known.int64(1))
    }

    /// Forgets the device's clients but `current` and the newest `most - 1` others (by when each was
    /// registered), with their payload hashes: a device makes a client ID at each login and when its
    /// database turns out to be used twice, so it has few, and a device that makes one per request
    /// cannot grow the store. A retired client that comes back is a new one: its next push gets
    /// `mutation_gap` with `lastMutationID` 0, it numbers its changes from 1 again, and those the
    /// store applied already change nothing (the merge rule: a stamp applied is never greater than the
    /// stored one).
    static func retireClients(
        of deviceID: String, keeping current: String, most: Int, connection: Database.Connection
    ) throws {
        let retired = """
            SELECT id FROM clients WHERE device_id = $1 AND id <> $2 AND id NOT IN (
                SELECT id FROM clients WHERE device_id = $1 AND id <> $2 ORDER BY created_at DESC, id DESC LIMIT $3)
            """
        let values: [SyncSQLValue] = [.text(deviceID), .text(current), .integer(Int64(max(0, most - 1)))]
        try connection.run("DELETE FROM recent_mutations WHERE client_id IN (\(retired))", values)
        try connection.run("DELETE FROM clients WHERE id IN (\(retired))", values)
    }

    /// Forgets payload hashes beyond the client's last ``SyncStoreLimits/recentMutationsKept`` and the
    /// user's newest ``SyncStoreLimits/recentMutationsPerUser``. A retry of a mutation whose hash is
    /// forgotten is still a retry (its ID is at most the client's last, which the store keeps): it is
    /// skipped and answered with the last, as any retry; only `client_id_conflict` is no longer told
    /// for an ID that old (a database used twice is told by its newer IDs).
    static func forgetOldMutations(
        of clientID: String, last: Int, user userID: Int64, limits: SyncStoreLimits, connection: Database.Connection
    ) throws {
        try connection.run(
            "DELETE FROM recent_mutations WHERE client_id = $1 AND id <= $2",
            [.text(clientID), .integer(Int64(last - limits.recentMutationsKept))])
        try connection.run(
            """
            DELETE FROM recent_mutations WHERE user_id = $1 AND seq <= (
                SELECT seq FROM recent_mutations WHERE user_id = $1 ORDER BY seq DESC LIMIT 1 OFFSET $2)
            """, [.integer(userID), .integer(Int64(max(1, limits.recentMutationsPerUser)))])
    }

    /// Reads `collection, key, value, deleted, hlc, version`.
    /// - Throws: ``StorageError`` (`invalidData`) for a row this store could not have written.
    static func storedRow(_ row: SyncSQLRow) throws -> (row: SyncRow, version: Int64) {
        (
            try SyncServerRules.storedRow(
                collection: row.text(0), key: row.text(1), value: row.text(2), deleted: row.int64(3) != 0,
                hlc: row.text(4)),
            row.int64(5)
        )
    }
}

/// Writes a push's rows by the merge rule, taking the user's next version at the first change, so a
/// push that changes nothing takes none.
struct SyncApplier<Connection: SyncSQLConnection> {
    let connection: Connection
    let userID: Int64
    private(set) var version: Int64?
    private(set) var newRows = 0

    init(connection: Connection, userID: Int64) {
        self.connection = connection
        self.userID = userID
    }

    /// Writes `row` if its stamp is greater than the stored row's (or there is none).
    /// - Returns: `false` when a newer row (a greater stamp) keeps its place: the write lost.
    @discardableResult
    mutating func apply(_ row: SyncRow) throws -> Bool {
        let stored = try connection.first(
            "SELECT hlc FROM sync_rows WHERE user_id = $1 AND collection = $2 AND key = $3",
            [.integer(userID), .text(row.collection.rawValue), .text(row.key)]
        ).map { $0.text(0) ?? "" }
        if let stored {
            // A stored stamp that does not parse cannot be greater than anything: replace it.
            // An equal stamp is the same write again (an outbox numbered anew after a conflict).
            if let storedStamp = try? HLC(parsing: stored), row.hlc <= storedStamp { return row.hlc == storedStamp }
        } else {
            newRows += 1
        }
        let version = try version ?? nextVersion()
        self.version = version
        // The WHERE keeps the merge rule in the statement too: stamps compare bytewise (SQLite's BINARY,
        // PostgreSQL's COLLATE "C"), which orders them as stamps (the text is fixed-width).
        try connection.run(
            """
            INSERT INTO sync_rows (user_id, collection, key, value, deleted, hlc, version)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (user_id, collection, key) DO UPDATE SET
                value = excluded.value, deleted = excluded.deleted, hlc = excluded.hlc, version = excluded.version
            WHERE sync_rows.hlc < excluded.hlc
            """,
            [
                .integer(userID), .text(row.collection.rawValue), .text(row.key),
                try row.value.map { .text(String(decoding: try $0.jsonData(), as: UTF8.self)) } ?? .null,
                .integer(row.deleted ? 1 : 0), .text(row.hlc.description), .integer(version),
            ])
        return true
    }

    /// Counts the new rows; more than the quota refuses the push (the transaction rolls back).
    /// - Throws: ``SyncServerError`` `too_large`.
    func checkQuota(_ maximum: Int) throws {
        guard newRows > 0 else { return }
        let count =
            try connection.first(
                "UPDATE users SET row_count = row_count + $1 WHERE id = $2 RETURNING row_count",
                [.integer(Int64(newRows)), .integer(userID)]
            )?.int64(0) ?? 0
        guard count <= Int64(maximum) else { throw SyncServerRules.tooManyRows(count, maximum: maximum) }
    }

    /// The user's next version: the counter in the user's row, taken inside the push's transaction.
    private func nextVersion() throws -> Int64 {
        try connection.first(
            "UPDATE users SET version = version + 1 WHERE id = $1 RETURNING version", [.integer(userID)]
        )?.int64(0) ?? 0
    }
}

/// Where a mutation of a push goes: the `users` row of its space, or its rejection.
enum SyncPushTarget {
    /// The space's row.
    case row(Int64)
    /// Refused by itself.
    case refused(SyncAPI.Rejection)

    /// The row, when it is one.
    var row: Int64? {
        if case .row(let row) = self { return row }
        return nil
    }
}
