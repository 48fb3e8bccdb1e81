import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - Push and pull

extension SyncServiceHTTP {
    func pushAll(_ session: inout Session, report: inout SyncReport, quick: Bool) async throws {
        while true {
            let batchSize = session.batchSize
            let batch = try database.read { connection in try SyncJournal.pending(limit: batchSize, connection) }
            guard let last = batch.last else { return }
            let request = SyncAPI.PushRequest(
                clientID: session.clientID, mutations: batch.map { Self.wire($0.mutation) })
            let sent = clock.now()
            let response = try await send(
                session.server, path: "push", body: try JSONEncoder().encode(request), token: session.token,
                quick: quick)
            let received = clock.now()
            try session.budget.spend(bytes: response.body.count, now: clock.now())
            if response.status == 200 { CrashPoint.reach(.clientPushAnswered) }
            switch response.status {
            case 200:
                let answer: SyncAPI.PushResponse
                do {
                    answer = try JSONDecoder().decode(SyncAPI.PushResponse.self, from: response.body)
                } catch {
                    throw SyncError(
                        .protocolViolation, message: "the server's answer to a push is not what SYNC.md says")
                }
                guard answer.lastMutationID >= batch[0].mutation.id - 1 else {
                    throw SyncError(.protocolViolation, message: "the server acknowledged less than it has")
                }
                let now = clock.now()
                let acknowledged = try database.write { connection in
                    try Self.learnOffset(answer.serverTime, sent: sent, received: received, connection)
                    // A change a newer row on the server kept out is not lost: its value is kept here.
                    let lost = Set(answer.superseded)
                    for entry in batch where lost.contains(entry.mutation.id) {
                        let mutation = entry.mutation
                        try SyncJournal.addConflict(
                            mutation.collection, mutation.key, local: mutation.value, winner: nil,
                            reason: .newerElsewhere, now: now, connection)
                    }
                    return try SyncJournal.acknowledge(
                        through: answer.lastMutationID, rejected: answer.rejected, now: now, connection)
                }
                let rejected = answer.rejected.filter {
                    $0.id <= answer.lastMutationID && $0.id >= batch[0].mutation.id
                }
                report.rejected += rejected.count
                report.pushed += max(0, acknowledged - rejected.count)
                for rejection in rejected {
                    log.warning(
                        "Sync change refused",
                        metadata: ["sync.id": "\(rejection.id)", "sync.reason": rejection.reason])
                }
                if answer.lastMutationID < last.mutation.id, acknowledged == 0 {
                    throw SyncError(.protocolViolation, message: "the server took none of the changes pushed")
                }
            case 409:
                try await handleConflict(response, session: &session, sent: sent, received: received)
            case 413:
                guard session.batchSize > 1 else {
                    throw SyncError(
                        .protocolViolation,
                        message: "the server refuses even one change as too large: "
                            + (Self.errorBody(response)?.message ?? ""))
                }
                session.batchSize = max(1, session.batchSize / 2)
            default:
                try handleRefusal(response)
            }
        }
    }

    /// `mutation_gap`: number the outbox on from what the server has. `clock_ahead`: learn the
    /// offset and stamp again what the server has not taken. `client_id_conflict`: a new client ID
    /// (the database was used as two devices at once), the outbox numbered from 1 again.
    func handleConflict(_ response: HTTPResponse, session: inout Session, sent: Date, received: Date)
        async throws
    {
        let error = Self.errorBody(response)
        session.conflicts += 1
        guard session.conflicts <= 5 else { throw Self.unexpected(response, error) }
        let now = clock.now()
        switch error?.error {
        case "mutation_gap"?:
            let last = error?.lastMutationID ?? 0
            try database.write { connection in try SyncJournal.renumber(from: last + 1, connection) }
            log.warning("Sync outbox renumbered", metadata: ["sync.last": "\(last)"])
        case "clock_ahead"?:
            let serverTime = error?.serverTime ?? ""
            let taken = error?.lastMutationID ?? 0
            try database.write { [journal] connection in
                try Self.learnOffset(serverTime, sent: sent, received: received, connection)
                // Stamps too far ahead are brought back to the server's time: the floor falls to it.
                try SyncJournal.set(.lastHLC, nil, connection)
                let pending = try SyncJournal.pending(limit: .max, connection).filter { $0.mutation.id > taken }
                let update = try connection.prepare("UPDATE sync_outbox SET hlc = ? WHERE mutation_id = ?")
                for entry in pending {
                    let stamp = try journal.stamp(now: now, connection)
                    try update.run([.text(stamp.description), .integer(Int64(entry.mutation.id))])
                    try SyncJournal.setRowStamp(
                        entry.mutation.collection, entry.mutation.key, hlc: stamp,
                        deleted: entry.mutation.op == .delete,
                        connection)
                }
            }
            log.warning("Sync clock corrected", metadata: ["sync.serverTime": serverTime])
        case "client_id_conflict"?:
            let clientID = SyncID.newClientID()
            try database.write { connection in
                try SyncJournal.set(.clientID, clientID, connection)
                try SyncJournal.renumber(from: 1, connection)
            }
            session.clientID = clientID
            log.warning("Sync client ID replaced", metadata: [:])
        default:
            throw Self.unexpected(response, error)
        }
    }

    /// A mutation as the server takes it: a space's row with its `space` and its key there.
    static func wire(_ mutation: SyncAPI.Mutation) -> SyncAPI.Mutation {
        guard let (space, key) = SyncSpaces.split(mutation.collection, mutation.key) else { return mutation }
        var wire = mutation
        wire.space = space
        wire.key = key
        return wire
    }

    /// Pulls the personal space and every mosque space still updated, page after page, until none has
    /// more; a full cycle first asks the server which spaces this user belongs to (a space joined on
    /// another device arrives so; the short cycle after a write pulls the spaces it knows).
    func pullAll(_ session: inout Session, report: inout SyncReport, quick: Bool) async throws {
        if !quick { try await refreshSpaces(&session) }
        var restarted = false
        while true {
            let (cursor, spaces) = try database.read { connection in
                (try SyncJournal.get(.cursor, connection) ?? "0", try SyncSpaces.cursors(connection))
            }
            let request = SyncAPI.PullRequest(
                clientID: session.clientID, cursor: cursor, spaces: spaces.isEmpty ? nil : spaces)
            let sent = clock.now()
            let response = try await send(
                session.server, path: "pull", body: try JSONEncoder().encode(request), token: session.token,
                quick: quick)
            let received = clock.now()
            try session.budget.spend(bytes: response.body.count, now: clock.now())
            if response.status == 410, !restarted {
                restarted = true
                try database.write { connection in try SyncJournal.set(.cursor, "0", connection) }
                log.notice("Sync cursor expired; pulling everything again", metadata: [:])
                continue
            }
            guard response.status == 200 else {
                if response.status == 409 {
                    try await handleConflict(response, session: &session, sent: sent, received: received)
                    continue
                }
                try handleRefusal(response)
                return
            }
            let page: SyncAPI.PullResponse
            do {
                page = try JSONDecoder().decode(SyncAPI.PullResponse.self, from: response.body)
            } catch {
                throw SyncError(.protocolViolation, message: "the server's answer to a pull is not what SYNC.md says")
            }
            CrashPoint.reach(.clientPullReceived)
            let now = clock.now()
            let pages = (page.spaces ?? []).filter { spaces[$0.space] != nil }
            let (applied, gone) = try database.write { connection -> (Int, [String]) in
                try Self.learnOffset(page.serverTime, sent: sent, received: received, connection)
                var applied = try Self.apply(page.rows.map(\.row), now: now, connection, log: log)
                var gone: [String] = []
                for space in pages {
                    guard let info = try SyncSpaces.space(id: space.space, connection) else { continue }
                    if space.gone {
                        try SyncSpaces.markGone(space.space, now: now, connection)
                        gone.append(info.localName)
                        continue
                    }
                    let rows = space.rows.map(\.row).map { row in
                        var local = row
                        local.key = SyncSpaces.localKey(space: space.space, key: row.key)
                        return local
                    }
                    applied += try Self.apply(rows, now: now, connection, log: log, space: true)
                    try SyncSpaces.setCursor(space.space, space.cursor, connection)
                    if let role = space.role, role != info.space.role {
                        var changed = info.space
                        changed.role = role
                        try SyncSpaces.keep(changed, connection)
                    }
                }
                CrashPoint.reach(.clientPullApplying)
                _ = try SyncJournal.acknowledge(through: page.lastMutationID, rejected: [], now: now, connection)
                try SyncJournal.set(.cursor, page.cursor, connection)
                return (applied, gone)
            }
            for name in gone {
                log.notice("Sync mosque no longer updated", metadata: ["sync.mosque": name])
            }
            report.gone += gone
            report.pulled += applied
            let rowsReceived = page.rows.count + pages.reduce(0) { $0 + $1.rows.count }
            report.received += rowsReceived
            let spacesMore = pages.contains { $0.hasMore && !$0.gone }
            if !page.hasMore && !spacesMore { return }
            try session.budget.pulled(rows: rowsReceived, now: clock.now())
            let moved = page.cursor != cursor || !page.rows.isEmpty || pages.contains { !$0.rows.isEmpty }
            guard moved else {
                throw SyncError(.protocolViolation, message: "the server's pull does not move on")
            }
        }
    }

    /// Asks the server which mosque spaces this user belongs to, and keeps each (a new one is pulled
    /// from its start). A server without spaces (protocol 1) has none to say.
    func refreshSpaces(_ session: inout Session) async throws {
        let response = try await send(
            session.server, path: "spaces", body: Data("{}".utf8), token: session.token, quick: false)
        try session.budget.spend(bytes: response.body.count, now: clock.now())
        guard response.status == 200 else {
            if response.status == 404 { return }
            try handleRefusal(response)
            return
        }
        guard let answer = try? JSONDecoder().decode(SyncAPI.SpacesResponse.self, from: response.body) else {
            throw SyncError(.protocolViolation, message: "the server's list of spaces is not what the protocol says")
        }
        let added = try database.write { connection -> Int in
            var added = 0
            for space in answer.spaces where space.kind == .mosque {
                let known = try SyncSpaces.space(id: space.id, connection)
                // A space this device found gone stays gone until the person keeps or drops it.
                if known?.isGone == true { continue }
                if try SyncSpaces.keep(space, connection).isNew { added += 1 }
            }
            return added
        }
        if added > 0 { notifyLocal() }
    }

    /// Applies pulled rows by the merge rule, in the caller's transaction: a row replaces the local
    /// one only when its stamp is greater (a change waiting in the outbox has its own, newer stamp,
    /// so it keeps showing until the server has it), written by its collection's home. A local value
    /// the server had not seen — a change still waiting in the outbox, or at a login that prefers the
    /// server's settings one never sent — is kept in the conflicts list before it is replaced. Rows
    /// that fail the validators are skipped.
    /// - Returns: How many rows changed something here.
    /// A space's rows (`space`, keys already local: `<space ID>/<key>`) are written by the space home.
    static func apply(
        _ rows: [SyncRow], now: Date, _ connection: SQLiteConnection, log: LogManager, space: Bool = false
    ) throws -> Int {
        var applied = 0
        let serverPreferred = try SyncJournal.get(.preferServer, connection) == "1"
        for row in rows {
            do throws(ValidationError) {
                try SyncRules.validate(
                    collection: row.collection,
                    key: space ? SyncSpaces.split(row.collection, row.key)?.key ?? "" : row.key,
                    value: row.value)
                guard row.collection.spaceKinds.contains(space ? .mosque : .personal) else {
                    throw ValidationError(field: "collection", message: "'\(row.collection)' rows do not belong here")
                }
            } catch {
                log.warning(
                    "Sync row skipped", metadata: ["sync.collection": "\(row.collection)", "error": error.message])
                continue
            }
            if !row.deleted, row.value == nil { continue }
            guard let home = space ? MosqueSpaceRows.self : SyncedCollections.home(of: row.collection) else { continue }
            try SyncJournal.observe(row.hlc, connection)
            let stamp = try SyncJournal.rowStamp(row.collection, row.key, connection)
            if let stamp, stamp >= row.hlc { continue }
            let unseen: SyncConflict.Reason? =
                try SyncJournal.isPending(row.collection, row.key, connection)
                ? .newerElsewhere
                : (stamp == nil && serverPreferred && home.followsLoginPreference ? .serverPreferred : nil)
            if let unseen {
                let local = try home.value(row.collection, key: row.key, connection)
                if local != row.value, local != nil || unseen == .newerElsewhere {
                    try SyncJournal.addConflict(
                        row.collection, row.key, local: local, winner: row.hlc, reason: unseen, now: now, connection)
                }
            }
            try home.apply(row, connection)
            try SyncJournal.setRowStamp(row.collection, row.key, hlc: row.hlc, deleted: row.deleted, connection)
            applied += 1
        }
        return applied
    }

    /// Learns the server's clock offset from an answer's `serverTime`.
    static func learnOffset(_ serverTime: String, sent: Date, received: Date, _ connection: SQLiteConnection) throws {
        guard let server = SyncAPI.parseTimestamp(serverTime) else { return }
        let middle = sent.timeIntervalSince1970 + received.timeIntervalSince(sent) / 2
        let offset = Int64(((server.timeIntervalSince1970 - middle) * 1000).rounded())
        try SyncJournal.set(.clockOffset, String(offset), connection)
    }
}
