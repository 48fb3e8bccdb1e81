#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The server's side of sync (SYNC.md §3, §5, §7): users and their devices, pairing codes, tokens,
/// and every user's rows with the versions that order them. `SyncStoreSQLite` (PrayServer) keeps
/// them in one SQLite file, `SyncStorePostgres` (PrayServer, Linux) in a PostgreSQL database that
/// several servers share; both pass one contract suite (guarantee I10). The container builds them
/// (``PrayKitDependency/syncStore(at:)``) where PrayServer is linked.
///
/// Every requirement takes "now" as an argument and never reads the clock, and every one that
/// changes the store does so in one transaction: a refused push leaves the store as it was. Refusals
/// are ``SyncServerError``s carrying the protocol's code and status; a store that cannot be read or
/// written throws ``StorageError`` (for PostgreSQL, with the SQLSTATE in its message).
///
/// ```swift
/// let code = try store.addUser(named: "amina", now: now)              // shown once to the administrator
/// let pair = try store.pair(.init(code: code.code, deviceName: "phone"), address: "10.0.0.7", now: now)
/// let device = try store.authenticate(token: pair.token, address: "10.0.0.7", now: now)
/// let pushed = try store.push(push, from: device, now: now)
/// let page = try store.pull(.init(clientID: push.clientID, cursor: "0"), from: device, now: now)
/// ```
public protocol SyncStore: SyncSpaceStore {
    // MARK: - Administration

    /// Adds a user and makes their first pairing code.
    /// - Parameters:
    ///   - name: 1 to 64 letters, digits, `.`, `_` or `-`, unique.
    ///   - now: The current instant; the code expires ``SyncStoreLimits/pairingCodeLifetime`` after it.
    /// - Returns: The code, to show once; only its hash is kept.
    /// - Throws: ``SyncServerError`` `bad_request` for a name out of those rules, `user_exists` for a
    ///   name taken; or the store's error.
    func addUser(named name: String, now: Date) throws -> SyncPairingCode

    /// Makes a new pairing code for an existing user (codes made before stay valid until they expire).
    /// - Returns: The code, to show once.
    /// - Throws: ``SyncServerError`` `not_found` for an unknown user; or the store's error.
    func newPairingCode(forUser name: String, now: Date) throws -> SyncPairingCode

    /// The users, by name.
    /// - Throws: The store's error.
    func users() throws -> [SyncUser]

    /// Every device of every user, by user, then creation.
    /// - Throws: The store's error.
    func devices() throws -> [SyncDevice]

    /// Revokes a device: its token is refused from now on, like an unknown one. Revoking a device
    /// again changes nothing.
    /// - Throws: ``SyncServerError`` `not_found` for an unknown device ID; or the store's error.
    func revokeDevice(_ deviceID: String, now: Date) throws

    // MARK: - Devices

    /// Redeems a pairing code, once, for a new device with its own token.
    ///
    /// A wrong, expired or used code gives one and the same ``SyncServerError/Code/unauthorized``;
    /// each such failure is counted for the address and, apart, for each live code that shares the
    /// given code's first characters. After ``SyncStoreLimits/maximumPairingFailuresPerAddress``
    /// failures within ``SyncStoreLimits/failureWindow`` the address gets `rate_limited` (with
    /// `retryAfter`), even for the right code; after ``SyncStoreLimits/maximumAttemptsPerCode`` wrong
    /// attempts on a code within ``SyncStoreLimits/pairingCodeFailureWindow``, every attempt at it
    /// gets `rate_limited` until that window ends — the code is not spent, and works after it.
    /// - Parameters:
    ///   - request: The code (any case; spaces and hyphens are ignored) and the device's name.
    ///   - address: The client's address, as the server decided it (the peer or a trusted proxy's
    ///     forwarded address).
    ///   - now: The current instant.
    /// - Returns: The token (`pkd_…`, shown once; only its SHA-256 is kept), the device ID and the user.
    /// - Throws: ``SyncServerError`` (`bad_request` for a device name out of the rules,
    ///   `unauthorized`, `rate_limited`); or the store's error.
    func pair(_ request: SyncAPI.PairRequest, address: String, now: Date) throws -> SyncAPI.PairResponse

    /// Finds the device of a token. Unknown, malformed and revoked tokens all give the same
    /// ``SyncServerError/Code/unauthorized``, and each is counted for the address: after
    /// ``SyncStoreLimits/maximumAuthenticationFailuresPerAddress`` within
    /// ``SyncStoreLimits/failureWindow``, the refused tokens of the address get `rate_limited`. A
    /// valid token is accepted whatever its address did: every device behind one NAT or proxy keeps
    /// working while one of them sends bad tokens.
    /// - Returns: The device and its user.
    /// - Throws: ``SyncServerError`` (`unauthorized`, `rate_limited`); or the store's error.
    func authenticate(token: String, address: String, now: Date) throws -> SyncDeviceIdentity

    // MARK: - Sync

    /// Applies a push in one transaction (SYNC.md §3): a mutation ID up to the client's last is
    /// skipped (a retry) unless its payload differs from the one applied (`client_id_conflict`); the
    /// next ID is applied by the merge rule, or rejected when invalid or stamped with another client's
    /// ID (it still counts; the reason never repeats the value); a gap refuses the push. The rows a
    /// push changes get the user's next version. Registering a client ID retires the device's oldest
    /// beyond ``SyncStoreLimits/maximumClientsPerDevice``.
    /// - Parameters:
    ///   - request: The push; its client ID is registered to `device` on first use.
    ///   - device: The authenticated device; the user is always the device's.
    ///   - now: The server's clock, for `clock_ahead` and `serverTime`.
    /// - Returns: The client's last mutation ID after the push, the rejections, the server's time.
    /// - Throws: ``SyncServerError``: `unauthorized` (revoked meanwhile), `bad_request`, `forbidden`
    ///   (another device's client ID), `upgrade_required`, `too_large` (more than
    ///   ``SyncAPI/maximumMutationsPerPush`` mutations, or the user's row quota), `mutation_gap`,
    ///   `clock_ahead`, `client_id_conflict`; then nothing was written. Or the store's error.
    func push(_ request: SyncAPI.PushRequest, from device: SyncDeviceIdentity, now: Date) throws
        -> SyncAPI.PushResponse

    /// A page of the user's rows changed after the cursor, in version order, never ending inside a
    /// version (a version larger than the limit comes whole).
    /// - Parameters:
    ///   - request: The cursor (`"0"` at first, then the last page's) and the limit (1 or more; more
    ///     than ``SyncAPI/maximumPullLimit`` counts as that).
    ///   - device: The authenticated device.
    ///   - now: The server's clock, for `serverTime`.
    /// - Returns: The rows, the next cursor, whether more follow, and the client's last mutation ID.
    /// - Throws: ``SyncServerError``: `unauthorized`, `bad_request` (a malformed cursor or limit),
    ///   `forbidden`, `upgrade_required`, `cursor_expired` (a cursor of another store, or ahead of it);
    ///   or the store's error.
    func pull(_ request: SyncAPI.PullRequest, from device: SyncDeviceIdentity, now: Date) throws
        -> SyncAPI.PullResponse
}

/// A pairing code as the administrator sees it, once.
public struct SyncPairingCode: Hashable, Sendable {
    /// The user the code pairs a device for.
    public let user: String
    /// The code: 10 characters of an alphabet without look-alikes (50 bits), `ABCDE-FGHJK`.
    public let code: String
    /// When it stops working.
    public let expiresAt: Date

    /// Creates a code.
    public init(user: String, code: String, expiresAt: Date) {
        self.user = user
        self.code = code
        self.expiresAt = expiresAt
    }
}

/// A user of the sync server.
public struct SyncUser: Hashable, Sendable {
    /// The name.
    public let name: String
    /// When the administrator added them.
    public let createdAt: Date
    /// Their devices, revoked ones included.
    public let deviceCount: Int
    /// Their rows, tombstones included.
    public let rowCount: Int
    /// The version of their last change (0 before any).
    public let version: Int64

    /// Creates a user.
    public init(name: String, createdAt: Date, deviceCount: Int, rowCount: Int, version: Int64) {
        self.name = name
        self.createdAt = createdAt
        self.deviceCount = deviceCount
        self.rowCount = rowCount
        self.version = version
    }
}

/// A paired device, as administration lists it.
public struct SyncDevice: Hashable, Sendable {
    /// The device ID, `d_…`.
    public let id: String
    /// The user it belongs to.
    public let user: String
    /// The name given when pairing.
    public let name: String
    /// When it was paired.
    public let createdAt: Date
    /// When its token was last accepted (to the minute), or `nil`.
    public let lastSeen: Date?
    /// When it was revoked, or `nil`.
    public let revokedAt: Date?

    /// Creates a device.
    public init(id: String, user: String, name: String, createdAt: Date, lastSeen: Date?, revokedAt: Date?) {
        self.id = id
        self.user = user
        self.name = name
        self.createdAt = createdAt
        self.lastSeen = lastSeen
        self.revokedAt = revokedAt
    }

    /// Whether its token is refused.
    public var isRevoked: Bool { revokedAt != nil }
}

/// The device a token belongs to: every sync request acts as this device, for this user.
public struct SyncDeviceIdentity: Hashable, Sendable {
    /// The user's name.
    public let user: String
    /// The device ID, `d_…`.
    public let deviceID: String

    /// Creates an identity.
    public init(user: String, deviceID: String) {
        self.user = user
        self.deviceID = deviceID
    }
}

/// The limits a store keeps (SYNC.md §7): quotas, failure counts, and how much it remembers of each
/// device's clients, so that no device can grow the store by what it sends.
public struct SyncStoreLimits: Hashable, Sendable {
    /// The most rows (tombstones included) a user may keep.
    public var maximumRowsPerUser: Int
    /// How long a pairing code works, seconds.
    public var pairingCodeLifetime: TimeInterval
    /// The window in which failures are counted per address, seconds; an address refused waits until
    /// it ends.
    public var failureWindow: TimeInterval
    /// Wrong pairing codes from one address within the window before it is refused (even the right
    /// code, until the window ends).
    public var maximumPairingFailuresPerAddress: Int
    /// Wrong attempts on one live code (those that share its first characters, from any address)
    /// within ``pairingCodeFailureWindow`` before attempts at it are refused until that window ends.
    /// The code is not spent: it works again after the window.
    public var maximumAttemptsPerCode: Int
    /// The window in which wrong attempts on one pairing code are counted, seconds: short, so that
    /// someone typing a code that strangers aim at waits at most this long.
    public var pairingCodeFailureWindow: TimeInterval
    /// Refused tokens from one address within the window before its refused tokens get
    /// `rate_limited`; a valid token is accepted whatever its address did.
    public var maximumAuthenticationFailuresPerAddress: Int
    /// Applied mutations whose payload hash is kept per client, for `client_id_conflict`.
    public var recentMutationsKept: Int
    /// Applied mutations whose payload hash is kept per user, newest first, across all the user's
    /// clients: a retry of an older one is still a retry (skipped, answered with the client's last);
    /// only `client_id_conflict` is no longer told for it. At least a push's 500, so that a retry of
    /// the last push is always checked.
    public var recentMutationsPerUser: Int
    /// Client IDs kept per device: registering another retires the oldest (a device makes one at each
    /// login, and another when its database was used twice).
    public var maximumClientsPerDevice: Int

    /// Creates limits; the defaults are the standard ones.
    public init(
        maximumRowsPerUser: Int = 200_000, pairingCodeLifetime: TimeInterval = 15 * 60,
        failureWindow: TimeInterval = 15 * 60, maximumPairingFailuresPerAddress: Int = 10,
        maximumAttemptsPerCode: Int = 10, maximumAuthenticationFailuresPerAddress: Int = 30,
        recentMutationsKept: Int = 1_000, recentMutationsPerUser: Int = 2_000, maximumClientsPerDevice: Int = 4,
        pairingCodeFailureWindow: TimeInterval = 60
    ) {
        self.maximumRowsPerUser = maximumRowsPerUser
        self.pairingCodeLifetime = pairingCodeLifetime
        self.failureWindow = failureWindow
        self.maximumPairingFailuresPerAddress = maximumPairingFailuresPerAddress
        self.maximumAttemptsPerCode = maximumAttemptsPerCode
        self.pairingCodeFailureWindow = pairingCodeFailureWindow
        self.maximumAuthenticationFailuresPerAddress = maximumAuthenticationFailuresPerAddress
        self.recentMutationsKept = recentMutationsKept
        self.recentMutationsPerUser = recentMutationsPerUser
        self.maximumClientsPerDevice = maximumClientsPerDevice
    }

    /// The standard limits: 200,000 rows a user; codes of 15 minutes; 10 wrong codes or 30 refused
    /// tokens an address in 15 minutes; 10 wrong attempts a code a minute; payload hashes of the last
    /// 1,000 mutations a client and 2,000 a user; 4 client IDs a device. What one device can make the
    /// store keep beyond its user's rows is then bounded: 4 clients and 2,000 hashes (about 300 KB).
    public static let standard = SyncStoreLimits()
}
