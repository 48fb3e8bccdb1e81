#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - Spaces (protocol 2)

extension SyncAPI {
    /// The answer to `POST /sync/v1/spaces`: the spaces the user belongs to, the personal space first.
    public struct SpacesResponse: Codable, Hashable, Sendable {
        /// The spaces.
        public var spaces: [SyncSpace]

        /// Creates an answer.
        public init(spaces: [SyncSpace]) {
            self.spaces = spaces
        }
    }

    /// `POST /sync/v1/spaces/create`: a new mosque space, owned by the user.
    public struct CreateSpaceRequest: Codable, Hashable, Sendable {
        /// `mosque` (a personal space is made with the user).
        public var kind: SyncSpaceKind
        /// The mosque's name (``SyncRules/checkSpaceName(_:)``).
        public var name: String

        /// Creates a request.
        public init(kind: SyncSpaceKind = .mosque, name: String) {
            self.kind = kind
            self.name = name
        }
    }

    /// A request about one space: `POST /sync/v1/spaces/delete`, `/spaces/members`, `/spaces/leave`.
    public struct SpaceRequest: Codable, Hashable, Sendable {
        /// The space's ID.
        public var space: String

        /// Creates a request.
        public init(space: String) {
            self.space = space
        }
    }

    /// A member of a space, as its owners and editors see them.
    public struct Member: Codable, Hashable, Sendable {
        /// The user's name (a follow-code device's own name, `f_…`).
        public var user: String
        /// The role.
        public var role: SyncRole
        /// Whether the member is a device that followed with a code, not a person's account.
        public var follower: Bool
        /// When the member joined, ISO 8601 UTC.
        public var addedAt: String

        /// Creates a member.
        public init(user: String, role: SyncRole, follower: Bool, addedAt: String) {
            self.user = user
            self.role = role
            self.follower = follower
            self.addedAt = addedAt
        }
    }

    /// The answer to `POST /sync/v1/spaces/members`.
    public struct MembersResponse: Codable, Hashable, Sendable {
        /// The members, owners first, then by name.
        public var members: [Member]

        /// Creates an answer.
        public init(members: [Member]) {
            self.members = members
        }
    }

    /// `POST /sync/v1/spaces/remove-member`: an owner removes a member (not the last owner).
    public struct RemoveMemberRequest: Codable, Hashable, Sendable {
        /// The space's ID.
        public var space: String
        /// The member's user name.
        public var member: String

        /// Creates a request.
        public init(space: String, member: String) {
            self.space = space
            self.member = member
        }
    }

    /// `POST /sync/v1/spaces/invitations`: a one-time code for a role in a space.
    public struct InvitationRequest: Codable, Hashable, Sendable {
        /// The space's ID.
        public var space: String
        /// The role it gives: `editor` (an owner's invitation) or `viewer` (an owner's or an editor's;
        /// a viewer code also pairs a device without an account: a follow code).
        public var role: SyncRole
        /// How long it lasts, seconds: ``minimumInvitationLifetime`` to ``maximumInvitationLifetime``.
        public var expiresIn: Int

        /// Creates a request.
        public init(space: String, role: SyncRole, expiresIn: Int = SyncAPI.defaultInvitationLifetime) {
            self.space = space
            self.role = role
            self.expiresIn = expiresIn
        }
    }

    /// The shortest an invitation lasts: 15 minutes.
    public static let minimumInvitationLifetime = 15 * 60
    /// The longest an invitation lasts: 7 days.
    public static let maximumInvitationLifetime = 7 * 86_400
    /// How long an invitation lasts unless asked: a day.
    public static let defaultInvitationLifetime = 86_400

    /// The answer to an invitation: the code, shown once.
    public struct InvitationResponse: Codable, Hashable, Sendable {
        /// The code, `ABCDE-FGHJK` (50 bits; single use).
        public var code: String
        /// The space's ID.
        public var space: String
        /// The role it gives.
        public var role: SyncRole
        /// When it expires, ISO 8601 UTC.
        public var expiresAt: String

        /// Creates an answer.
        public init(code: String, space: String, role: SyncRole, expiresAt: String) {
            self.code = code
            self.space = space
            self.role = role
            self.expiresAt = expiresAt
        }
    }

    /// `POST /sync/v1/spaces/join`: redeems an invitation for the user of the token.
    public struct JoinRequest: Codable, Hashable, Sendable {
        /// The code, as typed.
        public var code: String

        /// Creates a request.
        public init(code: String) {
            self.code = code
        }
    }
}
