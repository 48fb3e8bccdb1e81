#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a device asks of the spaces (protocol 2, SYNC.md §8): one case per route under
/// `/sync/v1/spaces`. The user is always the device's.
public enum SyncSpaceRequest: Hashable, Sendable {
    /// The spaces the user belongs to.
    case list
    /// A new mosque space, owned by the user.
    case create(SyncAPI.CreateSpaceRequest)
    /// Deletes a space (its owner): its rows, members and invitations go; every member's copy stays.
    case delete(SyncAPI.SpaceRequest)
    /// The members of a space (its owners and editors may see them).
    case members(SyncAPI.SpaceRequest)
    /// Removes a member (an owner; not the last owner).
    case removeMember(SyncAPI.RemoveMemberRequest)
    /// The user leaves a space (not its last owner).
    case leave(SyncAPI.SpaceRequest)
    /// A one-time code for a role.
    case invite(SyncAPI.InvitationRequest)
    /// Redeems a code: the user joins its space.
    case join(SyncAPI.JoinRequest)
    /// Publishes a mosque's pages at `/m/<slug>/…` (its owner).
    case publish(SyncAPI.PublishRequest)
    /// Takes a mosque's pages down (its owner): its address answers 404 again.
    case unpublish(SyncAPI.SpaceRequest)
}

/// What the store answers to a ``SyncSpaceRequest``.
public enum SyncSpaceAnswer: Hashable, Sendable {
    /// The spaces (``SyncSpaceRequest/list``).
    case spaces(SyncAPI.SpacesResponse)
    /// A space made or joined.
    case space(SyncSpace)
    /// The members.
    case members(SyncAPI.MembersResponse)
    /// The code of an invitation, shown once.
    case invitation(SyncAPI.InvitationResponse)
    /// Where a space is published (``SyncSpaceRequest/publish(_:)``).
    case publication(SyncAPI.Publication)
    /// Done (a deletion, a removal, a leave).
    case done
}

/// A mosque space as the operator sees it (`praykit serve sync spaces list`).
public struct SyncSpaceSummary: Hashable, Sendable {
    /// Its ID, `s_…`.
    public let id: String
    /// The mosque's name.
    public let name: String
    /// When it was made.
    public let createdAt: Date
    /// Its owners' user names.
    public let owners: [String]
    /// Its members who are people (owners, editors and viewers with an account).
    public let memberCount: Int
    /// The devices that follow it with a code.
    public let followerCount: Int
    /// Its rows, tombstones included.
    public let rowCount: Int
    /// Its version counter.
    public let version: Int64
    /// The slug its pages are published at, or `nil` when they are not.
    public let slug: String?

    /// Creates a summary.
    public init(
        id: String, name: String, createdAt: Date, owners: [String], memberCount: Int, followerCount: Int,
        rowCount: Int, version: Int64, slug: String? = nil
    ) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.owners = owners
        self.memberCount = memberCount
        self.followerCount = followerCount
        self.rowCount = rowCount
        self.version = version
        self.slug = slug
    }
}

/// The spaces of a sync store (protocol 2, SYNC.md §8). Every request is checked against the user's
/// role in the space; a space the user is not a member of answers as one that does not exist
/// (``SyncServerError/Code/notAMember``).
public protocol SyncSpaceStore: Sendable {
    /// Answers a device's request about spaces.
    /// - Parameters:
    ///   - request: What it asks.
    ///   - device: The authenticated device.
    ///   - address: The client's address, for the failure counts of invitation codes.
    ///   - now: The current instant.
    /// - Returns: The answer.
    /// - Throws: ``SyncServerError``: `not_a_member`, `read_only` (the role does not allow it),
    ///   `bad_request`, `unauthorized` (a wrong, expired or used code), `rate_limited`, `too_large` (the
    ///   most spaces of a user, live invitations of a space); or the store's error.
    func space(_ request: SyncSpaceRequest, from device: SyncDeviceIdentity, address: String, now: Date) throws
        -> SyncSpaceAnswer

    /// Every mosque space, by name (the operator's list).
    /// - Throws: The store's error.
    func spaces() throws -> [SyncSpaceSummary]

    /// The members of the mosque space of `id` — owners first, then editors, then viewers and the
    /// devices that follow with a code — for the operator, or `nil` when no mosque space has that ID.
    /// - Throws: The store's error.
    func members(ofSpace id: String) throws -> [SyncAPI.Member]?

    /// The version now of every space the device may read — its person's own and each mosque's — as
    /// the cursor a pull that has read all of it returns, by space ID, and the ID of the person's own
    /// space (`nil` for a follow-code device), for the event stream.
    /// - Throws: ``SyncServerError`` `unauthorized` for a device no longer paired; the store's error.
    func versions(for device: SyncDeviceIdentity) throws -> (personal: String?, versions: [String: String])

    /// The mosque space published at `slug`, or `nil` when none is (never published, unpublished,
    /// deleted, or a malformed slug: all alike). Read without a token: it is what the public pages
    /// (`/m/<slug>/…`) show.
    /// - Parameters:
    ///   - slug: The address's last word.
    ///   - rows: Whether to read its rows too (the event stream needs the version alone).
    /// - Throws: The store's error.
    func published(slug: String, rows: Bool) throws -> SyncPublishedSpace?
}
