import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - Mosque spaces (protocol 2, SYNC.md §8)

extension SyncServiceHTTP {
    /// The mosque spaces this device follows; see ``SyncSpaceService/spaces()``.
    /// - Throws: ``StorageError``.
    public func spaces() throws -> [SyncSpaceInfo] {
        guard database.exists else { return [] }
        return try database.read { connection in
            try SyncJournal.isOn(connection) ? try SyncSpaces.all(connection) : []
        }
    }

    /// The spaces now, then after every change of them; see ``SyncSpaceService/spaceUpdates()``.
    public func spaceUpdates() -> AsyncStream<[SyncSpaceInfo]> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: [SyncSpaceInfo].self, bufferingPolicy: .bufferingNewest(1))
        let last = Mutex<[SyncSpaceInfo]?>(nil)
        let queue = database.workQueue
        let emit: @Sendable () -> Void = { [self] in
            queue.submit {
                guard let spaces = try? self.spaces() else { return }
                let changed = last.withLock { last in
                    defer { last = spaces }
                    return last != spaces
                }
                if changed { continuation.yield(spaces) }
            }
        }
        let token = database.addObserver(emit)
        continuation.onTermination = { [database] _ in database.removeObserver(token) }
        emit()
        return stream
    }

    /// Makes a mosque space; see ``SyncSpaceService/createMosque(named:)``.
    /// - Throws: ``SyncError``, ``ValidationError``, ``NetworkError``, ``StorageError``.
    public func createMosque(named name: String) async throws -> SyncSpaceInfo {
        try SyncRules.checkSpaceName(name)
        if let known = try database.read({ connection in try SyncSpaces.space(named: name, connection) }) {
            throw ValidationError(
                field: "mosque", message: "this device follows a mosque named \(known.localName) already")
        }
        let space: SyncSpace = try await spaceRequest(
            "spaces/create", SyncAPI.CreateSpaceRequest(name: name), expecting: 201)
        let now = clock.now()
        let info = try database.write { [journal] connection -> SyncSpaceInfo in
            let info = try SyncSpaces.keep(space, connection, localName: name).info
            // A timetable of that name imported here is published: its months go into the space, and
            // leave the person's own data (where they were synced before).
            for month in try MosqueTimetableStoreSQLite.months(of: name, connection).sorted() {
                let (_, year, number) = try SyncRules.parseMosqueKey(month)
                let key = SyncSpaces.localKey(space: space.id, key: "\(year.zeroPadded(4))-\(number.zeroPadded(2))")
                let value = try MosqueTimetableStoreSQLite.value(.mosque, key: month, connection)?
                    .payload(as: SyncMosqueValue.self)
                try journal.append(
                    .mosqueMonth, key, value: value.map { .mosqueMonth(.init($0)) }, now: now, connection)
                if try SyncJournal.rowStamp(.mosque, month, connection) != nil {
                    try journal.append(.mosque, month, value: nil, now: now, connection)
                }
            }
            return info
        }
        log.notice("Sync mosque created", metadata: ["sync.space": space.id])
        notifyLocal()
        return info
    }

    /// Makes an invitation code; see ``SyncSpaceService/invite(to:role:expiresIn:)``.
    /// - Throws: ``SyncError``, ``NetworkError``, ``StorageError``.
    public func invite(to mosque: String, role: SyncRole, expiresIn: TimeInterval) async throws -> SyncInvitation {
        let space = try followed(mosque)
        let answer: SyncAPI.InvitationResponse = try await spaceRequest(
            "spaces/invitations",
            SyncAPI.InvitationRequest(space: space.space.id, role: role, expiresIn: Int(expiresIn.rounded())),
            expecting: 201)
        return SyncInvitation(
            code: answer.code, role: answer.role, expiresAt: SyncAPI.parseTimestamp(answer.expiresAt) ?? clock.now(),
            mosque: space.localName)
    }

    /// Redeems an invitation; see ``SyncSpaceService/join(code:)``.
    /// - Throws: ``SyncError``, ``NetworkError``, ``StorageError``.
    public func join(code: String) async throws -> SyncSpaceInfo {
        let space: SyncSpace = try await spaceRequest("spaces/join", SyncAPI.JoinRequest(code: code), expecting: 200)
        let info = try database.write { connection in try SyncSpaces.keep(space, connection).info }
        log.notice("Sync mosque joined", metadata: ["sync.space": space.id])
        notifyLocal()
        do {
            try await syncNow()
        } catch {
            log.warning("Sync after joining failed", metadata: ["error": "\(error)"])
        }
        return info
    }

    /// The members of a mosque; see ``SyncSpaceService/members(of:)``.
    /// - Throws: ``SyncError``, ``NetworkError``, ``StorageError``.
    public func members(of mosque: String) async throws -> [SyncAPI.Member] {
        let space = try followed(mosque)
        let answer: SyncAPI.MembersResponse = try await spaceRequest(
            "spaces/members", SyncAPI.SpaceRequest(space: space.space.id), expecting: 200)
        return answer.members
    }

    /// Removes a member; see ``SyncSpaceService/removeMember(_:from:)``.
    /// - Throws: ``SyncError``, ``NetworkError``, ``StorageError``.
    public func removeMember(_ member: String, from mosque: String) async throws {
        let space = try followed(mosque)
        let _: [String: String] = try await spaceRequest(
            "spaces/remove-member", SyncAPI.RemoveMemberRequest(space: space.space.id, member: member),
            expecting: 200)
    }

    /// Leaves a mosque; see ``SyncSpaceService/leave(_:keepCopy:)``.
    /// - Throws: ``SyncError``, ``NetworkError``, ``StorageError``.
    public func leave(_ mosque: String, keepCopy: Bool) async throws {
        let space = try followed(mosque, evenGone: true)
        if !space.isGone {
            let _: [String: String] = try await spaceRequest(
                "spaces/leave", SyncAPI.SpaceRequest(space: space.space.id), expecting: 200)
        }
        try forget(space, keepCopy: keepCopy)
    }

    /// Deletes a mosque on the server; see ``SyncSpaceService/deleteMosque(_:)``.
    /// - Throws: ``SyncError``, ``NetworkError``, ``StorageError``.
    public func deleteMosque(_ mosque: String) async throws {
        let space = try followed(mosque)
        let _: [String: String] = try await spaceRequest(
            "spaces/delete", SyncAPI.SpaceRequest(space: space.space.id), expecting: 200)
        try forget(space, keepCopy: true)
    }

    /// Publishes a mosque's pages; see ``SyncSpaceService/publish(_:slug:)``.
    /// - Throws: ``SyncError``, ``ValidationError``, ``NetworkError``, ``StorageError``.
    public func publish(_ mosque: String, slug: String?) async throws -> SyncAPI.Publication {
        if let slug { try SyncRules.checkSlug(slug) }
        let space = try followed(mosque)
        let publication: SyncAPI.Publication = try await spaceRequest(
            "spaces/publish", SyncAPI.PublishRequest(space: space.space.id, slug: slug), expecting: 200)
        log.notice("Sync mosque published", metadata: ["sync.space": space.space.id, "sync.slug": publication.slug])
        return publication
    }

    /// Takes a mosque's pages down; see ``SyncSpaceService/unpublish(_:)``.
    /// - Throws: ``SyncError``, ``NetworkError``, ``StorageError``.
    public func unpublish(_ mosque: String) async throws {
        let space = try followed(mosque)
        let _: [String: String] = try await spaceRequest(
            "spaces/unpublish", SyncAPI.SpaceRequest(space: space.space.id), expecting: 200)
        log.notice("Sync mosque unpublished", metadata: ["sync.space": space.space.id])
    }

    // MARK: - Helpers

    /// The followed mosque of that name here.
    /// - Throws: ``SyncError`` `notAMember` when this device follows none of that name (or one no longer
    ///   updated, unless `evenGone`).
    func followed(_ name: String, evenGone: Bool = false) throws -> SyncSpaceInfo {
        let space = try database.read { connection in try SyncSpaces.space(named: name, connection) }
        guard let space, evenGone || !space.isGone else {
            throw SyncError(
                .notAMember,
                message: space == nil
                    ? "this device follows no mosque named \(name)"
                    : "\(name) is no longer updated (this user was removed, or the mosque deleted its space)")
        }
        return space
    }

    /// Stops following a space here: with `keepCopy`, its timetable becomes the person's own mosque
    /// (its months are queued as their data); without, its timetable, settings and notices are removed.
    /// Its changes that wait are dropped (they can no longer reach it).
    func forget(_ space: SyncSpaceInfo, keepCopy: Bool) throws {
        let now = clock.now()
        try database.write { [journal] connection in
            let prefix = space.space.id + "/"
            try connection.prepare("DELETE FROM sync_outbox WHERE substr(key, 1, ?) = ?").run([
                .integer(Int64(prefix.utf8.count)), .text(prefix),
            ])
            try connection.prepare("DELETE FROM sync_rows WHERE substr(key, 1, ?) = ?").run([
                .integer(Int64(prefix.utf8.count)), .text(prefix),
            ])
            try connection.prepare("DELETE FROM sync_spaces WHERE id = ?").run([.text(space.space.id)])
            if keepCopy {
                if try SyncJournal.get(.follower, connection) != "1" {
                    for month in try MosqueTimetableStoreSQLite.months(of: space.localName, connection).sorted() {
                        try journal.append(
                            .mosque, month,
                            value: try MosqueTimetableStoreSQLite.value(.mosque, key: month, connection),
                            now: now, connection)
                    }
                }
            } else {
                try connection.prepare("DELETE FROM mosque WHERE name = ?").run([.text(space.localName)])
                try connection.prepare("DELETE FROM mosque_day WHERE mosque = ?").run([.text(space.localName)])
                try MosqueSpaceRows.removeAll(mosque: space.localName, connection)
            }
        }
        log.notice("Sync mosque left", metadata: ["sync.space": space.space.id, "sync.kept": "\(keepCopy)"])
        notifyLocal()
    }

    /// Sends one request under `/sync/v1/spaces` and reads its answer.
    /// - Throws: ``SyncError``: `notAMember` (404), `readOnly` (403), `pairingRefused` (401 of a code),
    ///   `unauthorized`, `upgradeRequired` (a server without spaces); ``ValidationError`` (400);
    ///   ``NetworkError``.
    func spaceRequest<Body: Encodable, Answer: Decodable>(_ path: String, _ body: Body, expecting status: Int)
        async throws -> Answer
    {
        let session = try openSession()
        let response = try await send(
            session.server, path: path, body: try JSONEncoder().encode(body), token: session.token, quick: false)
        let error = Self.errorBody(response)
        let said = error?.message ?? "status \(response.status)"
        switch (response.status, error?.error) {
        case (let answered, _) where answered == status:
            do {
                return try JSONDecoder().decode(Answer.self, from: response.body)
            } catch {
                throw SyncError(
                    .protocolViolation, message: "the server's answer to \(path) is not what the protocol says")
            }
        case (400, _): throw ValidationError(field: "mosque", message: said)
        case (401, _) where path == "spaces/join": throw SyncError(.pairingRefused, message: said)
        case (403, "read_only"?): throw SyncError(.readOnly, message: said)
        case (404, "not_a_member"?): throw SyncError(.notAMember, message: said)
        case (404, "not_found"?) where path != "spaces/remove-member":
            throw SyncError(
                .upgradeRequired, message: "the server is older than this PrayKit and has no mosque spaces: update it")
        case (404, _): throw SyncError(.notAMember, message: said)
        case (413, _): throw ValidationError(field: "mosque", message: said)
        case (409, "slug_taken"?): throw ValidationError(field: "slug", message: said)
        default: try handleRefusal(response)
        }
        throw Self.unexpected(response, error)
    }
}
