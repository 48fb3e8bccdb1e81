import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What ``SyncStoreSQLite`` and ``SyncStorePostgres`` do alike (SYNC.md §3, §5, §7), written once
/// over the SQL both speak: each store brings its transactions (``SyncSQLDatabase``) and its schema,
/// and answers ``SyncStore``'s requirements by calling this.
struct SyncStoreEngine<Database: SyncSQLDatabase>: Sendable {
    let database: Database
    let limits: SyncStoreLimits
    let log: LogManager
}

// MARK: - Administration

extension SyncStoreEngine {
    /// Adds a user and makes their first pairing code.
    func addUser(named name: String, now: Date) throws -> SyncPairingCode {
        try SyncServerRules.checkUserName(name)
        let limits = limits
        let code = try database.write(idempotent: false) { connection in
            // ON CONFLICT: two servers adding the same name at once give one user and one refusal.
            let inserted = try connection.first(
                """
                INSERT INTO users (name, created_at, kind, space_id) VALUES ($1, $2, 'person', $3)
                ON CONFLICT (name) DO NOTHING RETURNING id
                """, [.text(name), .integer(SyncServerRules.milliseconds(now)), .text(SyncID.newSpaceID())])
            guard let userID = inserted?.int64(0) else { throw SyncServerRules.userExists(name) }
            return try Self.insertPairingCode(connection, user: name, userID: userID, limits: limits, now: now)
        }
        log.info("Sync user added", metadata: ["sync.user": name])
        return code
    }

    /// Makes a new pairing code for an existing user.
    func newPairingCode(forUser name: String, now: Date) throws -> SyncPairingCode {
        let limits = limits
        let code = try database.write(idempotent: false) { connection in
            guard
                let userID = try connection.first(
                    "SELECT id FROM users WHERE name = $1 AND kind = 'person'", [.text(name)])?.int64(0)
            else { throw SyncServerRules.unknownUser(name) }
            return try Self.insertPairingCode(connection, user: name, userID: userID, limits: limits, now: now)
        }
        log.info("Sync pairing code made", metadata: ["sync.user": name])
        return code
    }

    /// The users, by name.
    func users() throws -> [SyncUser] {
        try database.read { connection in
            try connection.rows(
                """
                SELECT name, created_at, (SELECT COUNT(*) FROM devices WHERE user_id = users.id), row_count, version
                FROM users WHERE kind = 'person' ORDER BY name
                """, []
            ).map { row in
                SyncUser(
                    name: row.text(0) ?? "", createdAt: SyncServerRules.date(milliseconds: row.int64(1)),
                    deviceCount: Int(row.int64(2)), rowCount: Int(row.int64(3)), version: row.int64(4))
            }
        }
    }

    /// Every device, by user, then creation.
    func devices() throws -> [SyncDevice] {
        try database.read { connection in
            try connection.rows(
                """
                SELECT devices.id, users.name, devices.name, devices.created_at, devices.last_seen, devices.revoked_at
                FROM devices JOIN users ON users.id = devices.user_id
                ORDER BY users.name, devices.created_at, devices.id
                """, []
            ).map { row in
                SyncDevice(
                    id: row.text(0) ?? "", user: row.text(1) ?? "", name: row.text(2) ?? "",
                    createdAt: SyncServerRules.date(milliseconds: row.int64(3)),
                    lastSeen: row.optionalInt64(4).map(SyncServerRules.date(milliseconds:)),
                    revokedAt: row.optionalInt64(5).map(SyncServerRules.date(milliseconds:)))
            }
        }
    }

    /// Revokes a device; revoking it again changes nothing.
    func revokeDevice(_ deviceID: String, now: Date) throws {
        let found = try database.write(idempotent: true) { connection in
            try connection.first(
                "UPDATE devices SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING id",
                [.integer(SyncServerRules.milliseconds(now)), .text(deviceID)]) != nil
        }
        guard found else { throw SyncServerRules.unknownDevice(deviceID) }
        log.info("Sync device revoked", metadata: ["sync.device": deviceID])
    }

    /// Stores the hash of a new code for `userID` (under the store's secret, made at the first code)
    /// and returns the code, shown once. An invitation's code is for a role in a space (`userID` is
    /// then the space's row) and lasts `lifetime`; a pairing code lasts the limits' lifetime.
    static func insertPairingCode(
        _ connection: Database.Connection, user: String, userID: Int64, limits: SyncStoreLimits, now: Date,
        lifetime: TimeInterval? = nil, invitation: (space: Int64, role: SyncRole)? = nil
    ) throws -> SyncPairingCode {
        var random = SystemRandomNumberGenerator()
        let code = SyncServerRules.newPairingCode(using: &random)
        let stored = SyncServerRules.normalizedPairingCode(code) ?? code
        let key = try pairingKey(connection, creating: true) ?? []
        let expiresAt = now.addingTimeInterval(lifetime ?? limits.pairingCodeLifetime)
        let milliseconds = SyncServerRules.milliseconds(now)
        // Codes spent or expired for a day are of no more use, even to count attempts.
        try connection.run("DELETE FROM pairing_codes WHERE expires_at < $1", [.integer(milliseconds - 86_400_000)])
        try connection.run(
            """
            INSERT INTO pairing_codes (user_id, lookup, code_hash, created_at, expires_at, space, role)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """,
            [
                .integer(userID), .text(String(stored.prefix(SyncServerRules.pairingLookupLength))),
                .text(SyncServerRules.pairingCodeHash(stored, key: key)), .integer(milliseconds),
                .integer(SyncServerRules.milliseconds(expiresAt)), invitation.map { .integer($0.space) } ?? .null,
                invitation.map { .text($0.role.rawValue) } ?? .null,
            ])
        return SyncPairingCode(user: user, code: code, expiresAt: expiresAt)
    }

    /// The store's secret for pairing codes: made once, from the system's CSPRNG, when `creating` and
    /// there is none (`ON CONFLICT`: of two servers making the first code at once, both keep the
    /// first's); `nil` when there is none and it is not made (no code was made with one yet).
    static func pairingKey(_ connection: Database.Connection, creating: Bool) throws -> [UInt8]? {
        if creating {
            var random = SystemRandomNumberGenerator()
            try connection.run(
                "INSERT INTO store (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
                [.text(SyncServerRules.pairingKeyName), .text(SyncServerRules.newPairingKey(using: &random))])
        }
        let text = try connection.first(
            "SELECT value FROM store WHERE key = $1", [.text(SyncServerRules.pairingKeyName)])?.text(0)
        guard let text else { return nil }
        guard let key = SyncServerRules.pairingKey(hex: text) else {
            throw StorageError(kind: .invalidData, message: "the sync store's pairing secret is malformed")
        }
        return key
    }
}

// MARK: - Devices

extension SyncStoreEngine {
    /// Redeems a pairing code once for a new device. Failures are counted for the address (a locked
    /// address is refused even the right code, or the limit would not limit guessing) and, apart, for
    /// each live code the attempt could have aimed at; a code that had too many is delayed, not spent.
    func pair(_ request: SyncAPI.PairRequest, address: String, now: Date) throws -> SyncAPI.PairResponse {
        let deviceName = try SyncServerRules.checkedDeviceName(request.deviceName)
        let address = SyncServerRules.addressKey(address)
        var random = SystemRandomNumberGenerator()
        let token = SyncServerRules.newToken(using: &random)
        let deviceID = SyncServerRules.newDeviceID(using: &random)
        let code = SyncServerRules.normalizedPairingCode(request.code)
        let limits = limits
        // A refusal is a value, not a throw, so that the failure it counts is committed.
        let outcome: Result<SyncAPI.PairResponse, SyncServerError> = try database.write(idempotent: false) {
            connection in
            let failures = SyncFailures(
                connection: connection, scope: "pair", key: address,
                limit: limits.maximumPairingFailuresPerAddress, window: limits.failureWindow, now: now)
            if let refusal = try failures.refusal() { return .failure(refusal) }
            let user: (id: Int64, name: String)
            var followed: SyncSpace?
            // A pairing code, or a follow code: an invitation as a viewer, which pairs the device alone.
            let redemption =
                try code.map {
                    try Self.redeem(
                        $0, connection: connection, limits: limits, now: now,
                        accepting: { $0 == nil || $0 == .viewer })
                } ?? .wrong
            switch redemption {
            case .redeemed(let redeemed):
                if let space = redeemed.space {
                    let follower = SyncSpaceRows.newFollowerName()
                    let row =
                        try connection.first(
                            """
                            INSERT INTO users (name, created_at, kind, space_id) VALUES ($1, $2, 'follower', $3)
                            RETURNING id
                            """,
                            [.text(follower), .integer(SyncServerRules.milliseconds(now)), .text(SyncID.newSpaceID())]
                        )?.int64(0) ?? 0
                    try Self.addMember(row, to: space, role: .viewer, now: now, connection)
                    let title = try connection.first(
                        "SELECT space_id, title FROM users WHERE id = $1", [.integer(space)])
                    followed = SyncSpace(
                        id: title?.text(0) ?? "", kind: .mosque, name: title?.text(1) ?? "", role: .viewer)
                    user = (row, follower)
                } else {
                    user = (redeemed.userID, redeemed.user)
                }
            case .delayed(let refusal): return .failure(refusal)
            case .wrong:
                try failures.record()
                return .failure(SyncServerRules.wrongPairingCode)
            }
            let milliseconds = SyncServerRules.milliseconds(now)
            try connection.run(
                """
                INSERT INTO devices (id, user_id, name, token_lookup, token_hash, created_at, last_seen)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                """,
                [
                    .text(deviceID), .integer(user.id), .text(deviceName),
                    .text(SyncServerRules.tokenLookup(token) ?? ""), .text(SHA256.hexHash(token)),
                    .integer(milliseconds), .integer(milliseconds),
                ])
            return .success(SyncAPI.PairResponse(token: token, deviceID: deviceID, user: user.name, space: followed))
        }
        let response = try outcome.get()
        log.info("Sync device paired", metadata: ["sync.user": response.user, "sync.device": deviceID])
        return response
    }

    /// Finds the device of a token. A valid token is accepted whatever its address did: only refused
    /// tokens are counted, and an address past the limit gets `rate_limited` for the refused ones it
    /// sends, so that one client behind a NAT or a proxy cannot lock out the others (a token has 256
    /// bits: the count guards the store's work, not the token).
    ///
    /// A valid token is found by reading; the device's last-seen time (to the minute) is written with
    /// those of the other devices seen meanwhile (``SyncLastSeen``), so that many devices pulling one
    /// change at once do not each wait for a commit. Only a refused token writes in its own
    /// transaction (its failure is counted).
    func authenticate(token: String, address: String, now: Date) throws -> SyncDeviceIdentity {
        let address = SyncServerRules.addressKey(address)
        let lookup = SyncServerRules.tokenLookup(token)
        // Hashed whatever the token looks like, so a malformed one takes as long as an unknown one.
        let hash = SHA256.hexHash(token)
        let milliseconds = SyncServerRules.milliseconds(now)
        if let lookup,
            let device = try database.read({ try Self.device(lookup: lookup, hash: hash, connection: $0) })
        {
            // Last seen to the minute: a write per minute at most, not per request.
            if device.lastSeen.map({ milliseconds - $0 >= 60_000 }) ?? true {
                writeLastSeen(device.identity.deviceID, at: milliseconds)
            }
            return device.identity
        }
        let limits = limits
        let outcome: Result<SyncDeviceIdentity, SyncServerError> = try database.write(idempotent: false) {
            connection in
            // Paired between the read above and now.
            if let lookup, let device = try Self.device(lookup: lookup, hash: hash, connection: connection) {
                if device.lastSeen.map({ milliseconds - $0 >= 60_000 }) ?? true {
                    try connection.run(
                        "UPDATE devices SET last_seen = $1 WHERE id = $2",
                        [.integer(milliseconds), .text(device.identity.deviceID)])
                }
                return .success(device.identity)
            }
            let failures = SyncFailures(
                connection: connection, scope: "auth", key: address,
                limit: limits.maximumAuthenticationFailuresPerAddress, window: limits.failureWindow, now: now)
            // Past the limit, no more is written for the address until its window ends.
            if let refusal = try failures.refusal() { return .failure(refusal) }
            try failures.record()
            return .failure(SyncServerRules.unauthorized)
        }
        return try outcome.get()
    }

    /// Notes that `device` was seen, and writes every device noted when nobody else is writing. A
    /// failed write is logged and dropped: when a device was last seen is for the operator's list,
    /// and must not fail the request.
    private func writeLastSeen(_ device: String, at milliseconds: Int64) {
        let lastSeen = database.lastSeen
        guard lastSeen.note(device, at: milliseconds) else { return }
        for _ in 0..<SyncLastSeen.maximumRounds {
            guard let batch = lastSeen.take() else { return }
            do {
                try database.write(idempotent: true) { connection in
                    // In the order of their IDs: two servers writing at once never wait for each other.
                    for (device, seen) in batch.sorted(by: { $0.key < $1.key }) {
                        try connection.run(
                            "UPDATE devices SET last_seen = $1 WHERE id = $2 AND (last_seen IS NULL OR last_seen < $1)",
                            [.integer(seen), .text(device)])
                    }
                }
            } catch {
                log.warning("Sync devices' last-seen times not written", metadata: ["error": "\(error)"])
                lastSeen.stop()
                return
            }
        }
        lastSeen.stop()
    }

    /// A code redeemed: the user it pairs a device for (a space's row, for an invitation), and an
    /// invitation's space and role.
    struct RedeemedCode {
        let userID: Int64
        let user: String
        let space: Int64?
        let role: SyncRole?
    }

    /// What an attempt at a pairing code did.
    enum Redemption {
        /// The code was live and is now spent.
        case redeemed(RedeemedCode)
        /// No live code matches (the attempt is counted against each live code it could have aimed at).
        case wrong
        /// A live code the attempt could have aimed at had too many wrong attempts in its window:
        /// nothing was compared, so a right code tells nothing until the window ends.
        case delayed(SyncServerError)
    }

    /// Redeems `code`: the user of a live code matching it, which is then spent. Wrong attempts are
    /// counted for each live code that shares the attempt's first characters (in `failures`, scope
    /// `code`, apart from the address's), in windows of ``SyncStoreLimits/pairingCodeFailureWindow``;
    /// after ``SyncStoreLimits/maximumAttemptsPerCode`` in one window, every attempt at such a code is
    /// refused until the window ends, and the code stays valid: guessing is slowed to that many
    /// attempts a window per code, and a stranger cannot spend a code someone is about to type.
    ///
    /// `accepting` says which codes the attempt may redeem, by the role of an invitation (`nil` for a
    /// pairing code): a code it does not accept is not a candidate (it is neither compared nor spent).
    static func redeem(
        _ code: String, connection: Database.Connection, limits: SyncStoreLimits, now: Date,
        accepting: (SyncRole?) -> Bool
    ) throws -> Redemption {
        let key = try pairingKey(connection, creating: false)
        let milliseconds = SyncServerRules.milliseconds(now)
        let candidates = try connection.rows(
            """
            SELECT pairing_codes.id, user_id, users.name, code_hash, expires_at, used_at, space, role
            FROM pairing_codes JOIN users ON users.id = pairing_codes.user_id WHERE lookup = $1
            """, [.text(String(code.prefix(SyncServerRules.pairingLookupLength)))]
        ).map { row in
            (
                id: row.int64(0),
                code: RedeemedCode(
                    userID: row.int64(1), user: row.text(2) ?? "", space: row.optionalInt64(6),
                    role: row.text(7).flatMap(SyncRole.init(rawValue:))),
                matches: SyncServerRules.pairingHash(row.text(3) ?? "", matches: code, key: key),
                live: row.int64(4) > milliseconds && row.optionalInt64(5) == nil
            )
        }.filter { $0.live && accepting($0.code.role) && ($0.code.space == nil) == ($0.code.role == nil) }
        let counters = candidates.map { candidate in
            SyncFailures(
                connection: connection, scope: "code", key: String(candidate.id), limit: limits.maximumAttemptsPerCode,
                window: limits.pairingCodeFailureWindow, now: now)
        }
        // Every counter read, whatever the first says: the time does not tell which code is delayed.
        let delays = try counters.compactMap { try $0.refusal(SyncServerRules.codeRateLimited) }
        if let longest = delays.max(by: { ($0.retryAfter ?? 0) < ($1.retryAfter ?? 0) }) { return .delayed(longest) }
        if let match = candidates.first(where: \.matches) {
            // `used_at IS NULL` again: of two servers redeeming the same code at once, the second
            // waits for the first's row lock, then finds the code spent.
            let spent = try connection.first(
                "UPDATE pairing_codes SET used_at = $1 WHERE id = $2 AND used_at IS NULL RETURNING id",
                [.integer(milliseconds), .integer(match.id)])
            return spent == nil ? .wrong : .redeemed(match.code)
        }
        for counter in counters { try counter.record() }
        return .wrong
    }

    /// The live device whose token hash is `hash`, among those of the lookup prefix.
    private static func device(
        lookup: String, hash: String, connection: Database.Connection
    ) throws -> (identity: SyncDeviceIdentity, lastSeen: Int64?)? {
        let expected = Array(hash.utf8)
        let devices = try connection.rows(
            """
            SELECT devices.id, users.name, token_hash, last_seen, revoked_at
            FROM devices JOIN users ON users.id = devices.user_id WHERE token_lookup = $1
            """, [.text(lookup)]
        ).map { row in
            (
                identity: SyncDeviceIdentity(user: row.text(1) ?? "", deviceID: row.text(0) ?? ""),
                matches: ConstantTime.equals(Array((row.text(2) ?? "").utf8), expected),
                lastSeen: row.optionalInt64(3), revoked: row.optionalInt64(4) != nil
            )
        }
        guard let device = devices.first(where: { $0.matches }), !device.revoked else { return nil }
        return (device.identity, device.lastSeen)
    }
}

/// Failures counted for one key in one scope — an address (``SyncServerRules/addressKey(_:)``) for
/// `pair` and `auth`, a pairing code's row ID for `code` — in a window that begins with the first
/// failure and lasts `window`.
struct SyncFailures<Connection: SyncSQLConnection> {
    let connection: Connection
    let scope: String
    let key: String
    let limit: Int
    let window: TimeInterval
    let now: Date

    private var milliseconds: Int64 { SyncServerRules.milliseconds(now) }
    private var windowMilliseconds: Int64 { Int64(window * 1000) }

    /// The window now running: when it began and how many failures it holds.
    private func current() throws -> (start: Int64, count: Int)? {
        let row = try connection.first(
            "SELECT window_start, count FROM failures WHERE scope = $1 AND address = $2",
            [.text(scope), .text(key)]
        ).map { (start: $0.int64(0), count: Int($0.int64(1))) }
        guard let row, row.start + windowMilliseconds > milliseconds else { return nil }
        return row
    }

    /// The refusal (`rateLimited` by default) with the seconds left in the window, when the key reached
    /// the limit.
    func refusal(
        _ refusal: (_ windowStart: Int64, _ window: TimeInterval, _ now: Date) -> SyncServerError =
            SyncServerRules.rateLimited
    ) throws -> SyncServerError? {
        guard let window = try current(), window.count >= limit else { return nil }
        return refusal(window.start, self.window, now)
    }

    /// Counts one more failure (`count + 1` in the statement, so failures counted at once by two
    /// servers both count).
    func record() throws {
        if try current() != nil {
            try connection.run(
                "UPDATE failures SET count = count + 1 WHERE scope = $1 AND address = $2", [.text(scope), .text(key)])
            return
        }
        // The scope's windows that ended (each scope has its own length).
        try connection.run(
            "DELETE FROM failures WHERE scope = $1 AND window_start <= $2",
            [.text(scope), .integer(milliseconds - windowMilliseconds)])
        try connection.run(
            """
            INSERT INTO failures (scope, address, window_start, count) VALUES ($1, $2, $3, 1)
            ON CONFLICT (scope, address) DO UPDATE SET window_start = excluded.window_start, count = 1
            """, [.text(scope), .text(key), .integer(milliseconds)])
    }
}
