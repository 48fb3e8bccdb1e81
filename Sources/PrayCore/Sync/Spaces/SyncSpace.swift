#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a space holds (SYNC.md §8): a person's own data, or a mosque's published data.
public enum SyncSpaceKind: String, Codable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// One user's own log, settings, place, qada, fasts and imported timetables; made at the user's
    /// first login (a user of protocol 1 has one already: their data, where it was).
    case personal
    /// A mosque's timetable months, settings, announced month starts and notices, shared by its
    /// members and followers.
    case mosque

    /// The raw value.
    public var description: String { rawValue }
}

/// What a member of a space may do. The server checks it on every mutation and every request.
public enum SyncRole: String, Codable, Hashable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    /// Reads the space's rows; writes nothing.
    case viewer
    /// Reads and writes the space's rows; invites viewers.
    case editor
    /// An editor who also manages the members, invites editors and deletes the space.
    case owner

    /// Whether the role writes rows.
    public var canWrite: Bool { self != .viewer }

    /// Whether the role adds and removes members and deletes the space.
    public var canManage: Bool { self == .owner }

    /// Whether the role may make an invitation for `role`: an owner for any role but owner, an editor
    /// for viewers.
    public func mayInvite(_ role: SyncRole) -> Bool {
        switch self {
        case .owner: role != .owner
        case .editor: role == .viewer
        case .viewer: false
        }
    }

    /// Viewer < editor < owner.
    public static func < (lhs: SyncRole, rhs: SyncRole) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .editor: 1
        case .owner: 2
        }
    }

    /// The raw value.
    public var description: String { rawValue }
}

/// A space as a device knows it: its ID, kind, name and this user's role in it.
public struct SyncSpace: Codable, Hashable, Sendable {
    /// `s_` and 16 lowercase hex digits.
    public var id: String
    /// Personal or mosque.
    public var kind: SyncSpaceKind
    /// A mosque's name (as its owner gave it); the user's name for a personal space.
    public var name: String
    /// The role of the asking user.
    public var role: SyncRole

    /// Creates a space.
    public init(id: String, kind: SyncSpaceKind, name: String, role: SyncRole) {
        self.id = id
        self.kind = kind
        self.name = name
        self.role = role
    }
}

extension SyncID {
    /// Whether `text` is a space ID: `s_` and 16 lowercase hex digits.
    public static func isSpaceID(_ text: String) -> Bool {
        text.hasPrefix("s_") && text.utf8.count == 18
            && text.utf8.dropFirst(2).allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// A new space ID from the system's random generator.
    public static func newSpaceID() -> String {
        "s_" + hex((0..<8).map { _ in UInt8.random(in: 0...255) })
    }
}

extension SyncRules {
    /// Checks a mosque space's name: as a mosque timetable's name (1 to 100 characters, no leading or
    /// trailing spaces, no control characters), since the name is how a device's timetables, `config
    /// set mosque` and the command line find the mosque.
    /// - Throws: ``ValidationError`` saying what is wrong.
    public static func checkSpaceName(_ name: String) throws(ValidationError) {
        try MosqueTimetable.validate(name: name)
    }
}
