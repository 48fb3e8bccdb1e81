import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - Spaces (protocol 2, SYNC.md §8)

/// The user of an authenticated device, as spaces need it.
struct SyncCaller: Sendable {
    /// The `users` row.
    let id: Int64
    /// `person`, or `follower` for a device paired with a follow code.
    let kind: String
    /// The public ID of the user's own (personal) space.
    let spaceID: String
    /// The user's name.
    let name: String

    /// Whether the user is a person with an account (not a follow-code device).
    var isPerson: Bool { kind == SyncSpaceRows.person }
}

/// What a user may do in one space.
struct SyncMembership: Sendable {
    /// The space's `users` row.
    let row: Int64
    /// The space's public ID.
    let id: String
    /// Personal or mosque.
    let kind: SyncSpaceKind
    /// The mosque's name, or the user's for a personal space.
    let name: String
    /// The user's role.
    let role: SyncRole

    var space: SyncSpace { SyncSpace(id: id, kind: kind, name: name, role: role) }
}

/// The values of `users.kind` and the names the store gives the rows that are not people.
enum SyncSpaceRows {
    /// A person: their row is their personal space.
    static let person = "person"
    /// A mosque space.
    static let mosque = "mosque"
    /// A device paired with a follow code: a viewer of one space, with no data of its own.
    static let follower = "follower"

    /// The `users.name` of a mosque space (a name no person can have: user names hold no `/`).
    static func name(ofSpace id: String) -> String { "space/" + id }

    /// A new name for a follow-code device's row.
    static func newFollowerName() -> String { "follower/" + String(SyncID.newClientID().dropFirst(2).prefix(16)) }

    /// The most live invitations of one space.
    static let maximumLiveInvitations = 1_000

    /// `not_a_member`: the one answer for a space that does not exist and one the user is not in.
    static let notAMember = SyncServerError(
        .notAMember, message: "there is no such space, or this user is not a member of it")

    /// `read_only` for what `role` may not do.
    static func readOnly(_ what: String, role: SyncRole) -> SyncServerError {
        SyncServerError(.readOnly, message: "a\(role == .viewer ? "" : "n") \(role) of this space cannot \(what)")
    }

    /// `read_only` for a follow-code device.
    static let followerOnly = SyncServerError(
        .readOnly, message: "a device that follows with a code reads its one space and writes nothing")
}

extension SyncStoreEngine {
    /// Answers a device's request about spaces; see ``SyncSpaceStore/space(_:from:address:now:)``.
    func space(_ request: SyncSpaceRequest, from device: SyncDeviceIdentity, address: String, now: Date) throws
        -> SyncSpaceAnswer
    {
        let limits = limits
        let answer: Result<SyncSpaceAnswer, SyncServerError> = try database.write(idempotent: false) { connection in
            let caller = try Self.caller(of: device, connection: connection, lock: "")
            do {
                return .success(
                    try Self.answer(request, caller: caller, address: address, limits: limits, now: now, connection))
            } catch let refusal as SyncServerError where refusal.code == .unauthorized || refusal.code == .rateLimited {
                // A wrong code's failure counts are written: the refusal is a value, so the transaction commits.
                return .failure(refusal)
            }
        }
        let result = try answer.get()
        switch request {
        case .create, .delete, .removeMember, .leave, .join, .publish, .unpublish:
            log.info(
                "Sync space changed", metadata: ["sync.device": device.deviceID, "sync.request": "\(request.name)"])
        case .list, .members, .invite: break
        }
        return result
    }

    private static func answer(
        _ request: SyncSpaceRequest, caller: SyncCaller, address: String, limits: SyncStoreLimits, now: Date,
        _ connection: Database.Connection
    ) throws -> SyncSpaceAnswer {
        let milliseconds = SyncServerRules.milliseconds(now)
        switch request {
        case .list:
            return .spaces(SyncAPI.SpacesResponse(spaces: try spaces(of: caller, connection)))
        case .create(let create):
            guard caller.isPerson else { throw SyncSpaceRows.followerOnly }
            guard create.kind == .mosque else {
                throw SyncServerError(
                    .badRequest, message: "a user's personal space is made with the user: create a mosque")
            }
            do {
                try SyncRules.checkSpaceName(create.name)
            } catch {
                throw SyncServerError(.badRequest, message: error.message)
            }
            try checkRoom(for: caller, connection)
            let id = SyncID.newSpaceID()
            let row = try connection.first(
                "INSERT INTO users (name, created_at, kind, space_id, title) VALUES ($1, $2, $3, $4, $5) RETURNING id",
                [
                    .text(SyncSpaceRows.name(ofSpace: id)), .integer(milliseconds), .text(SyncSpaceRows.mosque),
                    .text(id), .text(create.name),
                ])?.int64(0)
            guard let row else { throw StorageError(kind: .other, message: "the new space has no row") }
            try addMember(caller.id, to: row, role: .owner, now: now, connection)
            return .space(SyncSpace(id: id, kind: .mosque, name: create.name, role: .owner))
        case .delete(let target):
            let space = try mosque(target.space, of: caller, connection)
            guard space.role.canManage else { throw SyncSpaceRows.readOnly("delete it", role: space.role) }
            let row: [SyncSQLValue] = [.integer(space.row)]
            try connection.run("DELETE FROM sync_rows WHERE user_id = $1", row)
            try connection.run("DELETE FROM pairing_codes WHERE user_id = $1", row)
            try connection.run("DELETE FROM members WHERE space = $1", row)
            try connection.run("DELETE FROM users WHERE id = $1", row)
            return .done
        case .members(let target):
            let space = try mosque(target.space, of: caller, connection)
            guard space.role.canWrite else { throw SyncSpaceRows.readOnly("see its members", role: space.role) }
            return .members(SyncAPI.MembersResponse(members: try members(ofRow: space.row, connection)))
        case .removeMember(let removal):
            let space = try mosque(removal.space, of: caller, connection)
            guard space.role.canManage else { throw SyncSpaceRows.readOnly("remove members", role: space.role) }
            let member = try connection.first(
                """
                SELECT users.id, members.role FROM members JOIN users ON users.id = members.member
                WHERE members.space = $1 AND users.name = $2
                """, [.integer(space.row), .text(removal.member)])
            guard let member else {
                throw SyncServerError(
                    .notFound, message: "no member of this space is named \(removal.member.prefix(80))")
            }
            try remove(member.int64(0), role: member.text(1), from: space, connection)
            return .done
        case .leave(let target):
            let space = try mosque(target.space, of: caller, connection)
            try remove(caller.id, role: space.role.rawValue, from: space, connection)
            return .done
        case .invite(let invitation):
            let space = try mosque(invitation.space, of: caller, connection)
            guard space.role.mayInvite(invitation.role) else {
                throw SyncSpaceRows.readOnly(
                    "invite a\(invitation.role == .owner ? "n" : "") \(invitation.role)", role: space.role)
            }
            let lifetime = SyncAPI.minimumInvitationLifetime...SyncAPI.maximumInvitationLifetime
            guard lifetime.contains(invitation.expiresIn) else {
                throw SyncServerError(
                    .badRequest, message: "an invitation lasts 15 minutes to 7 days (900 to 604800 seconds)")
            }
            let live =
                try connection.first(
                    "SELECT COUNT(*) FROM pairing_codes WHERE space = $1 AND used_at IS NULL AND expires_at > $2",
                    [.integer(space.row), .integer(milliseconds)])?.int64(0) ?? 0
            guard live < SyncSpaceRows.maximumLiveInvitations else {
                throw SyncServerError(
                    .tooLarge,
                    message: "this space has \(live) invitations not used yet, the most it keeps: wait for some to "
                        + "be used or to expire")
            }
            let code = try insertPairingCode(
                connection, user: space.id, userID: space.row, limits: limits, now: now,
                lifetime: TimeInterval(invitation.expiresIn), invitation: (space.row, invitation.role))
            return .invitation(
                SyncAPI.InvitationResponse(
                    code: code.code, space: space.id, role: invitation.role,
                    expiresAt: SyncAPI.timestamp(code.expiresAt)))
        case .join(let join):
            guard caller.isPerson else { throw SyncSpaceRows.followerOnly }
            let failures = SyncFailures(
                connection: connection, scope: "join", key: SyncServerRules.addressKey(address),
                limit: limits.maximumPairingFailuresPerAddress, window: limits.failureWindow, now: now)
            if let refusal = try failures.refusal() { throw refusal }
            let code = SyncServerRules.normalizedPairingCode(join.code)
            let redemption =
                try code.map {
                    try redeem($0, connection: connection, limits: limits, now: now, accepting: { $0 != nil })
                } ?? .wrong
            switch redemption {
            case .redeemed(let code):
                guard let row = code.space, let role = code.role else { throw SyncServerRules.wrongInvitation }
                let existing = try connection.first(
                    "SELECT role FROM members WHERE space = $1 AND member = $2", [.integer(row), .integer(caller.id)]
                ).flatMap { $0.text(0).flatMap(SyncRole.init(rawValue:)) }
                if let existing {
                    if role > existing {
                        try connection.run(
                            "UPDATE members SET role = $1 WHERE space = $2 AND member = $3",
                            [.text(role.rawValue), .integer(row), .integer(caller.id)])
                    }
                } else {
                    try checkRoom(for: caller, connection)
                    try addMember(caller.id, to: row, role: role, now: now, connection)
                }
                let space = try connection.first("SELECT space_id, title FROM users WHERE id = $1", [.integer(row)])
                return .space(
                    SyncSpace(
                        id: space?.text(0) ?? "", kind: .mosque, name: space?.text(1) ?? "",
                        role: max(role, existing ?? role)))
            case .delayed(let refusal):
                throw refusal
            case .wrong:
                try failures.record()
                throw SyncServerRules.wrongInvitation
            }
        case .publish(let request):
            let space = try mosque(request.space, of: caller, connection)
            guard space.role.canManage else { throw SyncSpaceRows.readOnly("publish it", role: space.role) }
            return .publication(try publish(space, slug: request.slug, connection))
        case .unpublish(let target):
            let space = try mosque(target.space, of: caller, connection)
            guard space.role.canManage else { throw SyncSpaceRows.readOnly("unpublish it", role: space.role) }
            try connection.run("UPDATE users SET slug = NULL WHERE id = $1", [.integer(space.row)])
            return .done
        }
    }

    /// Every mosque space, by name.
    func spaces() throws -> [SyncSpaceSummary] {
        try database.read { connection in
            try connection.rows(
                """
                SELECT users.id, users.space_id, users.title, users.created_at, users.row_count, users.version,
                    (SELECT COUNT(*) FROM members JOIN users AS m ON m.id = members.member
                        WHERE members.space = users.id AND m.kind = 'person'),
                    (SELECT COUNT(*) FROM members JOIN users AS m ON m.id = members.member
                        WHERE members.space = users.id AND m.kind = 'follower')
                    , users.slug
                FROM users WHERE users.kind = 'mosque' ORDER BY users.title, users.space_id
                """, []
            ).map { row in
                let owners = try connection.rows(
                    """
                    SELECT users.name FROM members JOIN users ON users.id = members.member
                    WHERE members.space = $1 AND members.role = 'owner' ORDER BY users.name
                    """, [.integer(row.int64(0))]
                ).map { $0.text(0) ?? "" }
                return SyncSpaceSummary(
                    id: row.text(1) ?? "", name: row.text(2) ?? "",
                    createdAt: SyncServerRules.date(milliseconds: row.int64(3)), owners: owners,
                    memberCount: Int(row.int64(6)), followerCount: Int(row.int64(7)), rowCount: Int(row.int64(4)),
                    version: row.int64(5), slug: row.text(8))
            }
        }
    }

    /// The members of the mosque space of `id`, for the operator; `nil` for no such mosque space.
    func members(ofSpace id: String) throws -> [SyncAPI.Member]? {
        guard SyncID.isSpaceID(id) else { return nil }
        return try database.read { connection in
            guard
                let row = try connection.first(
                    "SELECT id FROM users WHERE space_id = $1 AND kind = 'mosque'", [.text(id)])
            else { return nil }
            return try Self.members(ofRow: row.int64(0), connection)
        }
    }

    // MARK: - Helpers

    /// The members of the space whose `users` row is `space`: owners first, then editors, then the
    /// rest, each by name.
    static func members(ofRow space: Int64, _ connection: Database.Connection) throws -> [SyncAPI.Member] {
        try connection.rows(
            """
            SELECT users.name, members.role, users.kind, members.added_at
            FROM members JOIN users ON users.id = members.member WHERE members.space = $1
            ORDER BY CASE members.role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 ELSE 2 END, users.name
            """, [.integer(space)]
        ).map { row in
            SyncAPI.Member(
                user: row.text(0) ?? "", role: SyncRole(rawValue: row.text(1) ?? "") ?? .viewer,
                follower: row.text(2) == SyncSpaceRows.follower,
                addedAt: SyncAPI.timestamp(SyncServerRules.date(milliseconds: row.int64(3))))
        }
    }

    /// The user of a device that is still paired; `lock` (such as `FOR UPDATE OF users`) ends the query.
    /// - Throws: ``SyncServerError`` `unauthorized` for a device revoked (or removed) since its token
    ///   was checked.
    static func caller(of device: SyncDeviceIdentity, connection: Database.Connection, lock: String) throws
        -> SyncCaller
    {
        let row = try connection.first(
            """
            SELECT users.id, users.kind, users.space_id, users.name FROM devices JOIN users ON users.id = devices.user_id
            WHERE devices.id = $1 AND users.name = $2 AND devices.revoked_at IS NULL
            """ + lock, [.text(device.deviceID), .text(device.user)])
        guard let row else { throw SyncServerRules.unauthorized }
        return SyncCaller(
            id: row.int64(0), kind: row.text(1) ?? "", spaceID: row.text(2) ?? "", name: row.text(3) ?? "")
    }

    /// The spaces the user belongs to: the personal space first (a person's), then the mosques by name.
    static func spaces(of caller: SyncCaller, _ connection: Database.Connection) throws -> [SyncSpace] {
        let personal =
            caller.isPerson ? [SyncSpace(id: caller.spaceID, kind: .personal, name: caller.name, role: .owner)] : []
        return personal
            + (try connection.rows(
                """
                SELECT users.space_id, users.title, members.role FROM members JOIN users ON users.id = members.space
                WHERE members.member = $1 AND users.kind = 'mosque' ORDER BY users.title, users.space_id
                """, [.integer(caller.id)]
            ).map { row in
                SyncSpace(
                    id: row.text(0) ?? "", kind: .mosque, name: row.text(1) ?? "",
                    role: SyncRole(rawValue: row.text(2) ?? "") ?? .viewer)
            })
    }

    /// What the user may do in the space of `id`: the personal space (a person's own: owner), a mosque
    /// of which the user is a member, or `nil` — for an unknown ID, a space of which the user is not a
    /// member and a malformed ID alike.
    static func membership(_ id: String, of caller: SyncCaller, _ connection: Database.Connection) throws
        -> SyncMembership?
    {
        guard SyncID.isSpaceID(id) else { return nil }
        if id == caller.spaceID {
            return caller.isPerson
                ? SyncMembership(row: caller.id, id: id, kind: .personal, name: caller.name, role: .owner) : nil
        }
        let row = try connection.first(
            """
            SELECT users.id, users.title, members.role FROM members JOIN users ON users.id = members.space
            WHERE users.space_id = $1 AND members.member = $2 AND users.kind = 'mosque'
            """, [.text(id), .integer(caller.id)])
        guard let row, let role = row.text(2).flatMap(SyncRole.init(rawValue:)) else { return nil }
        return SyncMembership(row: row.int64(0), id: id, kind: .mosque, name: row.text(1) ?? "", role: role)
    }

    /// The mosque space of `id` as the user may see it.
    /// - Throws: ``SyncServerError`` `not_a_member` (a personal space too: it has no members to manage).
    private static func mosque(_ id: String, of caller: SyncCaller, _ connection: Database.Connection) throws
        -> SyncMembership
    {
        guard let space = try membership(id, of: caller, connection), space.kind == .mosque else {
            throw SyncSpaceRows.notAMember
        }
        return space
    }

    /// Refuses a user who belongs to ``SyncAPI/maximumSpacesPerUser`` spaces already.
    private static func checkRoom(for caller: SyncCaller, _ connection: Database.Connection) throws {
        let count =
            try connection.first("SELECT COUNT(*) FROM members WHERE member = $1", [.integer(caller.id)])?
            .int64(0) ?? 0
        guard count + 1 < SyncAPI.maximumSpacesPerUser else {
            throw SyncServerError(
                .tooLarge, message: "a user belongs to at most \(SyncAPI.maximumSpacesPerUser) spaces: leave one first")
        }
    }

    static func addMember(
        _ member: Int64, to space: Int64, role: SyncRole, now: Date, _ connection: Database.Connection
    ) throws {
        try connection.run(
            """
            INSERT INTO members (space, member, role, added_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (space, member) DO NOTHING
            """, [.integer(space), .integer(member), .text(role.rawValue), .integer(SyncServerRules.milliseconds(now))])
    }

    /// Removes a membership; the last owner stays (the space would have no one to manage it).
    private static func remove(
        _ member: Int64, role: String?, from space: SyncMembership, _ connection: Database.Connection
    ) throws {
        if role == SyncRole.owner.rawValue {
            let owners =
                try connection.first(
                    "SELECT COUNT(*) FROM members WHERE space = $1 AND role = 'owner'", [.integer(space.row)])?.int64(0)
                ?? 0
            guard owners > 1 else {
                throw SyncServerError(
                    .badRequest, message: "that is the space's last owner: delete the space instead")
            }
        }
        try connection.run(
            "DELETE FROM members WHERE space = $1 AND member = $2", [.integer(space.row), .integer(member)])
    }
}

extension SyncSpaceRequest {
    /// The route's last word, for the log.
    var name: String {
        switch self {
        case .list: "list"
        case .create: "create"
        case .delete: "delete"
        case .members: "members"
        case .removeMember: "remove-member"
        case .leave: "leave"
        case .invite: "invitations"
        case .join: "join"
        case .publish: "publish"
        case .unpublish: "unpublish"
        }
    }
}

extension SyncServerRules {
    /// The one refusal of a wrong, expired or used invitation code.
    package static let wrongInvitation = SyncServerError(
        .unauthorized, message: "the invitation code is wrong, expired or already used: ask for a new one")
}
