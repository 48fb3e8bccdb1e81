#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A mosque space as this device keeps it: the space, the name its timetable has here, and whether
/// it is still updated.
public struct SyncSpaceInfo: Hashable, Sendable {
    /// The space as the server last gave it: ID, name and this user's role.
    public var space: SyncSpace
    /// The mosque's name on this device: its timetable's, the one `config set mosque` chooses (the
    /// space's name, or that name with a number when another mosque here has it).
    public var localName: String
    /// When the server said this device may no longer read it (removed, or the space deleted): the
    /// last copy stays, no longer updated, until the person keeps it as their own or drops it.
    public var goneAt: Date?

    /// Creates an entry.
    public init(space: SyncSpace, localName: String, goneAt: Date? = nil) {
        self.space = space
        self.localName = localName
        self.goneAt = goneAt
    }

    /// Whether the space is no longer updated.
    public var isGone: Bool { goneAt != nil }
}

/// A one-time invitation code for a role in a mosque space, shown once.
public struct SyncInvitation: Hashable, Sendable {
    /// The code, `ABCDE-FGHJK`.
    public var code: String
    /// The role it gives.
    public var role: SyncRole
    /// When it expires.
    public var expiresAt: Date
    /// The mosque.
    public var mosque: String

    /// Creates an invitation.
    public init(code: String, role: SyncRole, expiresAt: Date, mosque: String) {
        self.code = code
        self.role = role
        self.expiresAt = expiresAt
        self.mosque = mosque
    }
}

/// The mosque spaces of this device (SYNC.md §8): the ones it follows, and the network steps that make,
/// share, join and leave them. Mosques are named as on this device (``SyncSpaceInfo/localName``).
/// Their timetables, settings and notices are read and written through ``MosqueTimetableStore``; a
/// change there syncs into the space when this device may write it.
///
/// ```swift
/// let mosque = try await sync.createMosque(named: "East London Mosque")
/// let invitation = try await sync.invite(to: mosque.localName, role: .viewer, expiresIn: 7 * 86_400)
/// print(invitation.code)   // what a follower types: praykit mosque follow ABCDE-FGHJK
/// ```
public protocol SyncSpaceService: Sendable {
    /// The mosque spaces this device follows, by name, the ones no longer updated included.
    /// - Throws: ``StorageError``.
    func spaces() throws -> [SyncSpaceInfo]

    /// The spaces now, then again after every change of them (a pull that brings a space or says one
    /// is gone, a join, a leave), until the task is cancelled.
    func spaceUpdates() -> AsyncStream<[SyncSpaceInfo]>

    /// Makes a mosque space owned by this device's user. A timetable of that name imported here is
    /// published into it (its months move from the person's own data into the space).
    /// - Throws: ``SyncError`` (`notLoggedIn`, `readOnly` for a follow-code device),
    ///   ``ValidationError`` for a name out of the rules or one a followed mosque has, ``NetworkError``.
    func createMosque(named name: String) async throws -> SyncSpaceInfo

    /// Makes a one-time code for `role` in a mosque this user owns or edits.
    /// - Parameters:
    ///   - mosque: The mosque's name here.
    ///   - role: What the code gives: `editor` (an owner's code) or `viewer`.
    ///   - expiresIn: 15 minutes to 7 days, in seconds.
    /// - Throws: ``SyncError`` (`notAMember`, `readOnly`), ``NetworkError``.
    func invite(to mosque: String, role: SyncRole, expiresIn: TimeInterval) async throws -> SyncInvitation

    /// Redeems an invitation code: this user joins the mosque, which is pulled at once.
    /// - Throws: ``SyncError`` (`pairingRefused` for a wrong, used or expired code, `readOnly` for a
    ///   follow-code device), ``NetworkError``.
    func join(code: String) async throws -> SyncSpaceInfo

    /// The members of a mosque this user owns or edits.
    /// - Throws: ``SyncError`` (`notAMember`, `readOnly`), ``NetworkError``.
    func members(of mosque: String) async throws -> [SyncAPI.Member]

    /// Removes a member of a mosque this user owns (never its last owner).
    /// - Throws: ``SyncError``, ``NetworkError``.
    func removeMember(_ member: String, from mosque: String) async throws

    /// Leaves a mosque (or, for one no longer updated, forgets it): with `keepCopy`, its timetable and
    /// settings stay here as the person's own mosque (they sync as their own data); without, they are
    /// removed from this device.
    /// - Throws: ``SyncError`` (`notAMember` for no followed mosque of that name; the server's
    ///   refusal for its last owner), ``NetworkError``.
    func leave(_ mosque: String, keepCopy: Bool) async throws

    /// Deletes a mosque this user owns, on the server: every member's copy stays, no longer updated.
    /// This device keeps its copy as the person's own mosque.
    /// - Throws: ``SyncError``, ``NetworkError``.
    func deleteMosque(_ mosque: String) async throws

    /// Publishes the pages of a mosque this user owns at `/m/<slug>/…` on the sync server: its screen,
    /// its month and its calendar feed, readable without an account (docs/pages.md). Publishing again
    /// without a slug keeps the one it has; with one, moves it there.
    /// - Parameters:
    ///   - mosque: The mosque's name here.
    ///   - slug: The address's last word (``SyncRules/checkSlug(_:)``), or `nil` for the one it has or
    ///     one made from its name.
    /// - Returns: Where it is published.
    /// - Throws: ``SyncError`` (`notAMember`, `readOnly` for an editor or a viewer), ``ValidationError``
    ///   (a slug out of the rules, or one another mosque has), ``NetworkError``.
    func publish(_ mosque: String, slug: String?) async throws -> SyncAPI.Publication

    /// Takes a mosque's pages down: its address answers 404 again.
    /// - Throws: ``SyncError`` (`notAMember`, `readOnly`), ``NetworkError``.
    func unpublish(_ mosque: String) async throws
}
