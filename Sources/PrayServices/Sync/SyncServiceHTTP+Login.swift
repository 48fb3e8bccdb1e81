import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - Login, logout, repair

extension SyncServiceHTTP {
    /// Pairs this device and turns sync on; see ``SyncService/login(_:)``.
    /// - Throws: ``SyncError``, ``NetworkError``, ``StorageError``.
    @discardableResult
    public func login(_ login: SyncLogin) async throws -> SyncStatus {
        let server = try Self.checkServer(login.server)
        let code = login.code.trimmingWhitespaceAndNewlines()
        let name = login.deviceName.trimmingWhitespaceAndNewlines()
        guard !code.isEmpty, code.utf8.count <= 64 else {
            throw SyncError(.pairingRefused, message: "the pairing code is empty or too long")
        }
        guard !name.isEmpty, name.count <= 100 else {
            throw SyncError(.invalidServer, message: "the device name must have 1 to 100 characters")
        }
        let body = try JSONEncoder().encode(SyncAPI.PairRequest(code: code, deviceName: name))
        let response = try await send(server, path: "devices", body: body, token: nil, quick: false)
        guard response.status == 201 || response.status == 200 else {
            let error = Self.errorBody(response)
            switch response.status {
            case 400, 401, 403, 404, 410:
                // The server's message says it whole; without one, what a refusal means.
                let said = error?.message.trimmingWhitespaceAndNewlines() ?? ""
                throw SyncError(
                    .pairingRefused,
                    message: said.isEmpty
                        ? "the server refused the pairing code (wrong, already used or expired: status \(response.status))"
                        : said)
            default: throw Self.unexpected(response, error)
            }
        }
        let paired: SyncAPI.PairResponse
        do {
            paired = try JSONDecoder().decode(SyncAPI.PairResponse.self, from: response.body)
        } catch {
            throw SyncError(.protocolViolation, message: "the server's answer to pairing is not what SYNC.md says")
        }
        guard paired.token.hasPrefix("pkd_"), paired.token.utf8.count <= 200 else {
            throw SyncError(.protocolViolation, message: "the server sent a token of the wrong shape")
        }
        // The database (and its folder) first, so that the token has a place and a failure to open
        // leaves no token behind.
        try database.read { _ in () }
        try tokenFile.write(paired.token)
        let now = clock.now()
        do {
            try database.write { [journal] connection in
                let wasOn = try SyncJournal.isOn(connection)
                let clientID = SyncID.newClientID()
                let values: [(SyncJournal.Key, String?)] = [
                    (.enabled, "1"), (.server, server.absoluteString), (.user, paired.user),
                    (.deviceID, paired.deviceID), (.deviceName, name), (.clientID, clientID),
                    (.machine, journal.machine), (.cursor, "0"), (.schema, String(SyncAPI.schemaVersion)),
                    (.loggedOut, nil), (.lastError, nil), (.follower, paired.space == nil ? nil : "1"),
                ]
                for (key, value) in values { try SyncJournal.set(key, value, connection) }
                // A follow code: the device follows that one space, and has no data of its own there.
                if let space = paired.space {
                    try connection.execute("DELETE FROM sync_spaces")
                    try SyncSpaces.keep(space, connection)
                    try connection.execute(
                        "DELETE FROM sync_outbox; DELETE FROM sync_rows; DELETE FROM sync_failed; "
                            + "DELETE FROM sync_history; DELETE FROM sync_conflicts")
                    try SyncJournal.set(.nextMutationID, "1", connection)
                    return
                }
                if wasOn {
                    // Logged in again (revoked, copied): every change that waits goes under the new ID.
                    try SyncJournal.renumber(from: 1, connection)
                    return
                }
                try connection.execute(
                    "DELETE FROM sync_outbox; DELETE FROM sync_rows; DELETE FROM sync_failed; DELETE FROM sync_history; "
                        + "DELETE FROM sync_conflicts")
                try SyncJournal.set(.nextMutationID, "1", connection)
                try SyncJournal.set(.clockOffset, "0", connection)
                try Self.enqueueExisting(
                    prefer: login.prefer, now: now, journal: journal, clientID: clientID, connection)
            }
        } catch {
            tokenFile.remove()
            throw error
        }
        log.notice("Sync login", metadata: ["sync.server": server.absoluteString, "sync.device": paired.deviceID])
        notifyLocal()
        do {
            try await syncNow()
        } catch {
            log.warning("First sync failed", metadata: ["error": "\(error)"])
        }
        return try currentStatus()
    }

    /// Asks the server to retire this device; see ``SyncService/retireDevice()``.
    /// - Throws: ``NetworkError``, ``SyncError``, ``StorageError``.
    @discardableResult
    public func retireDevice() async throws -> Bool {
        let session: Session
        do {
            session = try openSession()
        } catch let error as SyncError where error.kind == .notLoggedIn {
            return false
        }
        let response = try await send(
            session.server, path: "devices/retire", body: Data("{}".utf8),
            token: session.token, quick: true)
        switch response.status {
        case 200:
            log.notice("Sync device retired")
            return true
        case 401:
            // Revoked already (by the operator, or a retirement whose answer was lost).
            return true
        default:
            throw Self.unexpected(response, Self.errorBody(response))
        }
    }

    /// Turns sync off; see ``SyncService/logout(force:)``.
    /// - Throws: ``SyncError``, ``StorageError``.
    @discardableResult
    public func logout(force: Bool) throws -> Int {
        guard database.exists else { return 0 }
        let dropped = try database.write { connection -> Int in
            guard try SyncJournal.isOn(connection) else { return 0 }
            let pending = try SyncJournal.pendingSummary(connection).count
            if pending > 0, !force {
                throw SyncError(
                    .unsyncedChanges,
                    message: "\(pending) change\(pending == 1 ? " has" : "s have") not reached the server")
            }
            // The data stays, and the next login sends it again (the log, qada and fasts stamped with when
            // they were recorded, so a newer value on the server still wins); a deletion is not data: the
            // server's row would come back, so a waiting deletion is what a forced logout drops.
            let deletions = Int(try connection.integer("SELECT count(*) FROM sync_outbox WHERE op = 'delete'") ?? 0)
            try connection.execute(
                "DELETE FROM sync_outbox; DELETE FROM sync_rows; DELETE FROM sync_failed; DELETE FROM sync_state; "
                    + "DELETE FROM sync_history; DELETE FROM sync_conflicts; DELETE FROM sync_spaces")
            return deletions
        }
        tokenFile.remove()
        log.notice("Sync logout", metadata: ["sync.dropped": "\(dropped)"])
        notifyLocal()
        return dropped
    }

    /// Forgets the pull cursor; see ``SyncService/reset()``.
    /// - Throws: ``SyncError`` (`notLoggedIn`), ``StorageError``.
    public func reset() throws {
        try database.write { connection in
            guard try SyncJournal.isOn(connection) else {
                throw SyncError(.notLoggedIn, message: "sync is not set up on this device: log in first")
            }
            try SyncJournal.set(.cursor, "0", connection)
        }
    }

    /// Queues the refused changes again with new stamps.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func retryFailed() throws -> Int {
        guard database.exists else { return 0 }
        let now = clock.now()
        return try database.write { [journal] connection in
            let statement = try connection.prepare(
                "SELECT mutation_id, collection, key, op, hlc, value, failed_at FROM sync_failed ORDER BY mutation_id")
            var failed: [SyncJournal.Pending] = []
            while try statement.step() { failed.append(try SyncJournal.pending(statement, connection)) }
            for change in failed {
                try journal.append(
                    change.mutation.collection, change.mutation.key, value: change.mutation.value, now: now, connection)
            }
            try connection.execute("DELETE FROM sync_failed")
            return failed.count
        }
    }

    /// Forgets the refused changes and pulls everything again at the next cycle.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func dropFailed() throws -> Int {
        guard database.exists else { return 0 }
        return try database.write { connection in
            let count = Int(try connection.integer("SELECT count(*) FROM sync_failed") ?? 0)
            guard count > 0 else { return 0 }
            // The server's values replace the refused ones: their rows lose their local stamps.
            try connection.execute(
                "DELETE FROM sync_rows WHERE (collection, key) IN (SELECT collection, key FROM sync_failed); "
                    + "DELETE FROM sync_failed")
            try SyncJournal.set(.cursor, "0", connection)
            return count
        }
    }

    /// On the first login: every row of every synced collection is queued — those recorded with a time
    /// (the log, qada, fasts) with a stamp of that time, so that an older one never replaces a newer one
    /// the server has; the others (the mosques' timetables) with a stamp of now — except the settings,
    /// which are queued now (`local`) or after the first pull where the server has none (`server`).
    static func enqueueExisting(
        prefer: SyncLogin.Preference, now: Date, journal: SyncJournal, clientID: String, _ connection: SQLiteConnection
    ) throws {
        var rows: [SyncedRow] = []
        for home in SyncedCollections.all where !home.followsLoginPreference || prefer == .local {
            rows += try home.rows(connection)
        }
        var highest: HLC?
        for row in rows {
            guard let recordedAt = row.recordedAt else { continue }
            let stamp = try HLC(
                milliseconds: max(0, PrayerLogEntry.milliseconds(recordedAt)), counter: 0, clientID: clientID)
            try journal.append(row.collection, row.key, value: row.value, now: now, connection, stamp: stamp)
            if highest.map({ stamp > $0 }) ?? true { highest = stamp }
        }
        if let highest { try SyncJournal.observe(highest, connection) }
        for row in rows where row.recordedAt == nil {
            try journal.append(row.collection, row.key, value: row.value, now: now, connection)
        }
        if prefer == .server { try SyncJournal.set(.preferServer, "1", connection) }
    }
}
