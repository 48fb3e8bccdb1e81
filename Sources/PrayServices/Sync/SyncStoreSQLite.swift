import Foundation
import PrayCore
import Synchronization

/// The sync server's store in one SQLite file of its own (SYNC.md §5): users with their version
/// counters, devices with the SHA-256 of their tokens, hashed pairing codes, failure counts per
/// address, clients with their last mutation, the rows, and the payload hashes of recent mutations.
///
/// Every change runs in one `BEGIN IMMEDIATE` transaction, so pushes take turns and commit in the
/// order of the versions they take. The file is created 0600 in a folder created 0700, and a file
/// that belongs to another user or that others can read is refused.
///
/// ```swift
/// let store = SyncStoreSQLite(path: "/var/lib/praykit/sync.sqlite", log: log)
/// let code = try store.addUser(named: "amina", now: Date())
/// print("Pairing code for amina: \(code.code)")
/// ```
public final class SyncStoreSQLite: SyncStore {
    /// The store's file.
    public let path: String
    let database: SQLiteDatabase
    let limits: SyncStoreLimits
    let log: LogManager
    private let checkedFile = Mutex(false)

    /// Creates a handle on the store at `path`; nothing is opened or created until first use.
    /// - Parameters:
    ///   - path: The store's SQLite file (its folder is created 0700 when missing).
    ///   - limits: Quotas and failure counts; the standard ones by default.
    ///   - log: The logger: pairings and revocations at `info`, never a token or a code.
    public init(path: String, limits: SyncStoreLimits = .standard, log: LogManager) {
        self.path = path
        self.limits = limits
        self.log = log
        database = SQLiteDatabase(path: path, log: log, migrations: Self.migrations)
    }

    /// Runs `body` in one immediate transaction on the checked file.
    func write<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) throws -> T {
        try checkFile()
        return try database.write(body)
    }

    /// Runs `body` with the connection on the checked file.
    func read<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) throws -> T {
        try checkFile()
        return try database.read(body)
    }

    private func checkFile() throws(StorageError) {
        try checkedFile.withLock { (checked: inout Bool) throws(StorageError) in
            guard !checked else { return }
            try Self.preparePrivateFile(path)
            checked = true
        }
    }
}

// MARK: - Administration

extension SyncStoreSQLite {
    /// Adds a user and makes their first pairing code.
    /// - Throws: ``SyncServerError`` `bad_request` or `user_exists`; ``StorageError``.
    public func addUser(named name: String, now: Date) throws -> SyncPairingCode {
        try SyncServerRules.checkUserName(name)
        let limits = limits
        let code = try write { connection in
            let taken = try SyncSQL.first(connection, "SELECT 1 FROM users WHERE name = ?", [.text(name)]) { _ in true }
            if taken != nil {
                throw SyncServerRules.userExists(name)
            }
            let userID = try SyncSQL.first(
                connection, "INSERT INTO users (name, created_at) VALUES (?, ?) RETURNING id",
                [.text(name), .integer(SyncServerRules.milliseconds(now))]
            ) { $0.int64(0) }
            return try Self.insertPairingCode(connection, user: name, userID: userID ?? 0, limits: limits, now: now)
        }
        log.info("Sync user added", metadata: ["sync.user": name])
        return code
    }

    /// Makes a new pairing code for an existing user.
    /// - Throws: ``SyncServerError`` `not_found`; ``StorageError``.
    public func newPairingCode(forUser name: String, now: Date) throws -> SyncPairingCode {
        let limits = limits
        let code = try write { connection in
            guard
                let userID = try SyncSQL.first(
                    connection, "SELECT id FROM users WHERE name = ?", [.text(name)], { $0.int64(0) })
            else { throw SyncServerRules.unknownUser(name) }
            return try Self.insertPairingCode(connection, user: name, userID: userID, limits: limits, now: now)
        }
        log.info("Sync pairing code made", metadata: ["sync.user": name])
        return code
    }

    /// The users, by name.
    /// - Throws: ``StorageError``.
    public func users() throws -> [SyncUser] {
        try read { connection in
            try SyncSQL.all(
                connection,
                """
                SELECT name, created_at, (SELECT COUNT(*) FROM devices WHERE user_id = users.id), row_count, version
                FROM users ORDER BY name
                """
            ) { row in
                SyncUser(
                    name: row.text(0) ?? "", createdAt: SyncServerRules.date(milliseconds: row.int64(1)),
                    deviceCount: Int(row.int64(2)), rowCount: Int(row.int64(3)), version: row.int64(4))
            }
        }
    }

    /// Every device, by user, then creation.
    /// - Throws: ``StorageError``.
    public func devices() throws -> [SyncDevice] {
        try read { connection in
            try SyncSQL.all(
                connection,
                """
                SELECT devices.id, users.name, devices.name, devices.created_at, devices.last_seen, devices.revoked_at
                FROM devices JOIN users ON users.id = devices.user_id
                ORDER BY users.name, devices.created_at, devices.id
                """
            ) { row in
                SyncDevice(
                    id: row.text(0) ?? "", user: row.text(1) ?? "", name: row.text(2) ?? "",
                    createdAt: SyncServerRules.date(milliseconds: row.int64(3)),
                    lastSeen: SyncSQL.optionalInt64(row, 4).map(SyncServerRules.date(milliseconds:)),
                    revokedAt: SyncSQL.optionalInt64(row, 5).map(SyncServerRules.date(milliseconds:)))
            }
        }
    }

    /// Revokes a device; revoking it again changes nothing.
    /// - Throws: ``SyncServerError`` `not_found`; ``StorageError``.
    public func revokeDevice(_ deviceID: String, now: Date) throws {
        let found = try write { connection in
            try SyncSQL.first(
                connection, "UPDATE devices SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? RETURNING id",
                [.integer(SyncServerRules.milliseconds(now)), .text(deviceID)]
            ) { _ in true } ?? false
        }
        guard found else { throw SyncServerRules.unknownDevice(deviceID) }
        log.info("Sync device revoked", metadata: ["sync.device": deviceID])
    }

    /// Stores the hash of a new code for `userID` and returns the code, shown once.
    private static func insertPairingCode(
        _ connection: SQLiteConnection, user: String, userID: Int64, limits: SyncStoreLimits, now: Date
    ) throws -> SyncPairingCode {
        var random = SystemRandomNumberGenerator()
        let code = SyncServerRules.newPairingCode(using: &random)
        let stored = SyncServerRules.normalizedPairingCode(code) ?? code
        let expiresAt = now.addingTimeInterval(limits.pairingCodeLifetime)
        let milliseconds = SyncServerRules.milliseconds(now)
        // Codes spent or expired for a day are of no more use, even to count attempts.
        try SyncSQL.run(
            connection, "DELETE FROM pairing_codes WHERE expires_at < ?", [.integer(milliseconds - 86_400_000)])
        try SyncSQL.run(
            connection,
            "INSERT INTO pairing_codes (user_id, lookup, code_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
            [
                .integer(userID), .text(String(stored.prefix(SyncServerRules.pairingLookupLength))),
                .text(SHA256.hexHash(stored)), .integer(milliseconds),
                .integer(SyncServerRules.milliseconds(expiresAt)),
            ])
        return SyncPairingCode(user: user, code: code, expiresAt: expiresAt)
    }
}

// MARK: - Devices

extension SyncStoreSQLite {
    /// Redeems a pairing code once for a new device.
    /// - Throws: ``SyncServerError`` `bad_request`, `unauthorized` or `rate_limited`; ``StorageError``.
    public func pair(_ request: SyncAPI.PairRequest, address: String, now: Date) throws -> SyncAPI.PairResponse {
        let deviceName = try SyncServerRules.checkedDeviceName(request.deviceName)
        let address = SyncServerRules.addressKey(address)
        var random = SystemRandomNumberGenerator()
        let token = SyncServerRules.newToken(using: &random)
        let deviceID = SyncServerRules.newDeviceID(using: &random)
        let code = SyncServerRules.normalizedPairingCode(request.code)
        let limits = limits
        let outcome: Result<SyncAPI.PairResponse, SyncServerError> = try write { connection in
            let failures = Failures(
                connection: connection, scope: "pair", address: address,
                limit: limits.maximumPairingFailuresPerAddress, window: limits.failureWindow, now: now)
            if let refusal = try failures.refusal() { return .failure(refusal) }
            guard let code, let user = try Self.redeem(code, connection: connection, limits: limits, now: now) else {
                try failures.record()
                return .failure(SyncServerRules.wrongPairingCode)
            }
            try SyncSQL.run(
                connection,
                """
                INSERT INTO devices (id, user_id, name, token_lookup, token_hash, created_at, last_seen)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(deviceID), .integer(user.id), .text(deviceName),
                    .text(SyncServerRules.tokenLookup(token) ?? ""), .text(SHA256.hexHash(token)),
                    .integer(SyncServerRules.milliseconds(now)), .integer(SyncServerRules.milliseconds(now)),
                ])
            return .success(SyncAPI.PairResponse(token: token, deviceID: deviceID, user: user.name))
        }
        let response = try outcome.get()
        log.info("Sync device paired", metadata: ["sync.user": response.user, "sync.device": deviceID])
        return response
    }

    /// Finds the device of a token.
    /// - Throws: ``SyncServerError`` `unauthorized` or `rate_limited`; ``StorageError``.
    public func authenticate(token: String, address: String, now: Date) throws -> SyncDeviceIdentity {
        let address = SyncServerRules.addressKey(address)
        let lookup = SyncServerRules.tokenLookup(token)
        // Hashed whatever the token looks like, so a malformed one takes as long as an unknown one.
        let hash = SHA256.hexHash(token)
        let limits = limits
        let outcome: Result<SyncDeviceIdentity, SyncServerError> = try write { connection in
            let failures = Failures(
                connection: connection, scope: "auth", address: address,
                limit: limits.maximumAuthenticationFailuresPerAddress, window: limits.failureWindow, now: now)
            if let refusal = try failures.refusal() { return .failure(refusal) }
            if let lookup, let device = try Self.device(lookup: lookup, hash: hash, connection: connection) {
                let milliseconds = SyncServerRules.milliseconds(now)
                // Last seen to the minute: a write per minute, not per request.
                if device.lastSeen.map({ milliseconds - $0 >= 60_000 }) ?? true {
                    try SyncSQL.run(
                        connection, "UPDATE devices SET last_seen = ? WHERE id = ?",
                        [.integer(milliseconds), .text(device.identity.deviceID)])
                }
                return .success(device.identity)
            }
            try failures.record()
            return .failure(SyncServerRules.unauthorized)
        }
        return try outcome.get()
    }

    /// The user of a live code matching `code`, which is then spent; `nil` for none (every live code
    /// that shares its first characters then counts one more attempt).
    private static func redeem(
        _ code: String, connection: SQLiteConnection, limits: SyncStoreLimits, now: Date
    ) throws -> (id: Int64, name: String)? {
        let hash = Array(SHA256.hexHash(code).utf8)
        let milliseconds = SyncServerRules.milliseconds(now)
        let candidates = try SyncSQL.all(
            connection,
            """
            SELECT pairing_codes.id, user_id, users.name, code_hash, expires_at, used_at, attempts
            FROM pairing_codes JOIN users ON users.id = pairing_codes.user_id WHERE lookup = ?
            """, [.text(String(code.prefix(SyncServerRules.pairingLookupLength)))]
        ) { row in
            (
                id: row.int64(0), userID: row.int64(1), user: row.text(2) ?? "",
                matches: ConstantTime.equals(
                    Array((row.text(3) ?? "").utf8), hash),
                live: row.int64(4) > milliseconds && SyncSQL.optionalInt64(row, 5) == nil
                    && row.int64(6) < Int64(limits.maximumAttemptsPerCode)
            )
        }
        if let match = candidates.first(where: { $0.matches && $0.live }) {
            try SyncSQL.run(
                connection, "UPDATE pairing_codes SET used_at = ? WHERE id = ?",
                [.integer(milliseconds), .integer(match.id)])
            return (match.userID, match.user)
        }
        for candidate in candidates where candidate.live {
            try SyncSQL.run(
                connection, "UPDATE pairing_codes SET attempts = attempts + 1 WHERE id = ?", [.integer(candidate.id)])
        }
        return nil
    }

    /// The live device whose token hash is `hash`, among those of the lookup prefix.
    private static func device(
        lookup: String, hash: String, connection: SQLiteConnection
    ) throws -> (identity: SyncDeviceIdentity, lastSeen: Int64?)? {
        let expected = Array(hash.utf8)
        let devices = try SyncSQL.all(
            connection,
            """
            SELECT devices.id, users.name, token_hash, last_seen, revoked_at
            FROM devices JOIN users ON users.id = devices.user_id WHERE token_lookup = ?
            """, [.text(lookup)]
        ) { row in
            (
                identity: SyncDeviceIdentity(user: row.text(1) ?? "", deviceID: row.text(0) ?? ""),
                matches: ConstantTime.equals(Array((row.text(2) ?? "").utf8), expected),
                lastSeen: SyncSQL.optionalInt64(row, 3), revoked: SyncSQL.optionalInt64(row, 4) != nil
            )
        }
        guard let device = devices.first(where: { $0.matches }), !device.revoked else { return nil }
        return (device.identity, device.lastSeen)
    }
}

/// Failures counted for one address in one scope (`pair`, `auth`), in a window that begins with the
/// first failure and lasts ``SyncStoreLimits/failureWindow``.
struct Failures {
    let connection: SQLiteConnection
    let scope: String
    let address: String
    let limit: Int
    let window: TimeInterval
    let now: Date

    private var milliseconds: Int64 { SyncServerRules.milliseconds(now) }
    private var windowMilliseconds: Int64 { Int64(window * 1000) }

    /// The window now running: when it began and how many failures it holds.
    private func current() throws -> (start: Int64, count: Int)? {
        let row = try SyncSQL.first(
            connection, "SELECT window_start, count FROM failures WHERE scope = ? AND address = ?",
            [.text(scope), .text(address)]
        ) { (start: $0.int64(0), count: Int($0.int64(1))) }
        guard let row, row.start + windowMilliseconds > milliseconds else { return nil }
        return row
    }

    /// `rate_limited` with the seconds left in the window, when the address reached the limit.
    func refusal() throws -> SyncServerError? {
        guard let window = try current(), window.count >= limit else { return nil }
        return SyncServerRules.rateLimited(windowStart: window.start, window: self.window, now: now)
    }

    /// Counts one more failure.
    func record() throws {
        if try current() != nil {
            try SyncSQL.run(
                connection, "UPDATE failures SET count = count + 1 WHERE scope = ? AND address = ?",
                [.text(scope), .text(address)])
            return
        }
        try SyncSQL.run(
            connection, "DELETE FROM failures WHERE window_start <= ?", [.integer(milliseconds - windowMilliseconds)])
        try SyncSQL.run(
            connection,
            "INSERT OR REPLACE INTO failures (scope, address, window_start, count) VALUES (?, ?, ?, 1)",
            [.text(scope), .text(address), .integer(milliseconds)])
    }
}
