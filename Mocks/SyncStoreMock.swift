import Foundation
import PrayCore

/// A ``SyncStore`` whose answers the test sets, one `on…` closure per requirement, recording the
/// arguments of every call — for routes tested against a store that fails, or that answers as the
/// test chooses. A requirement without an answer records a test issue and throws ``MockError``.
///
/// ```swift
/// let store = SyncStoreMock()
/// store.onAuthenticate { _, _, _ in throw StorageError(kind: .busy, message: "database is locked") }
/// ```
public final class SyncStoreMock: SyncStore {
    /// The arguments of a call of ``addUser(named:now:)``.
    public typealias AddUserArguments = (name: String, now: Date)
    /// The arguments of a call of ``newPairingCode(forUser:now:)``.
    public typealias NewPairingCodeArguments = (name: String, now: Date)
    /// The arguments of a call of ``revokeDevice(_:now:)``.
    public typealias RevokeDeviceArguments = (deviceID: String, now: Date)
    /// The arguments of a call of ``pair(_:address:now:)``.
    public typealias PairArguments = (request: SyncAPI.PairRequest, address: String, now: Date)
    /// The arguments of a call of ``authenticate(token:address:now:)``.
    public typealias AuthenticateArguments = (token: String, address: String, now: Date)
    /// The arguments of a call of ``push(_:from:now:)``.
    public typealias PushArguments = (request: SyncAPI.PushRequest, device: SyncDeviceIdentity, now: Date)
    /// The arguments of a call of ``pull(_:from:now:)``.
    public typealias PullArguments = (request: SyncAPI.PullRequest, device: SyncDeviceIdentity, now: Date)
    /// The arguments of a call of ``published(slug:rows:)``.
    public typealias PublishedArguments = (slug: String, rows: Bool)
    /// The arguments of a call of ``space(_:from:address:now:)``.
    public typealias SpaceArguments = (
        request: SyncSpaceRequest, device: SyncDeviceIdentity, address: String, now: Date
    )

    private let addUserFunction = MockFunction<AddUserArguments, SyncPairingCode, any Error>(
        "SyncStoreMock.addUser(named:now:)")
    private let newPairingCodeFunction = MockFunction<NewPairingCodeArguments, SyncPairingCode, any Error>(
        "SyncStoreMock.newPairingCode(forUser:now:)")
    private let usersFunction = MockFunction<Void, [SyncUser], any Error>("SyncStoreMock.users()")
    private let devicesFunction = MockFunction<Void, [SyncDevice], any Error>("SyncStoreMock.devices()")
    private let revokeDeviceFunction = MockFunction<RevokeDeviceArguments, Void, any Error>(
        "SyncStoreMock.revokeDevice(_:now:)")
    private let pairFunction = MockFunction<PairArguments, SyncAPI.PairResponse, any Error>(
        "SyncStoreMock.pair(_:address:now:)")
    private let authenticateFunction = MockFunction<AuthenticateArguments, SyncDeviceIdentity, any Error>(
        "SyncStoreMock.authenticate(token:address:now:)")
    private let pushFunction = MockFunction<PushArguments, SyncAPI.PushResponse, any Error>(
        "SyncStoreMock.push(_:from:now:)")
    private let pullFunction = MockFunction<PullArguments, SyncAPI.PullResponse, any Error>(
        "SyncStoreMock.pull(_:from:now:)")
    private let spaceFunction = MockFunction<SpaceArguments, SyncSpaceAnswer, any Error>(
        "SyncStoreMock.space(_:from:address:now:)")
    private let spacesFunction = MockFunction<Void, [SyncSpaceSummary], any Error>("SyncStoreMock.spaces()")
    private let membersFunction = MockFunction<String, [SyncAPI.Member]?, any Error>(
        "SyncStoreMock.members(ofSpace:)")
    private let versionsFunction = MockFunction<
        SyncDeviceIdentity, (personal: String?, versions: [String: String]), any Error
    >(
        "SyncStoreMock.versions(for:)")
    private let publishedFunction = MockFunction<PublishedArguments, SyncPublishedSpace?, any Error>(
        "SyncStoreMock.published(slug:rows:)")

    /// Creates a mock with nothing set.
    public init() {}

    // MARK: - Administration

    /// Sets the answer of ``addUser(named:now:)``.
    public func onAddUser(_ answer: @escaping @Sendable (String, Date) throws -> SyncPairingCode) {
        addUserFunction.on { try answer($0.name, $0.now) }
    }

    /// The arguments of each call of ``addUser(named:now:)``, oldest first.
    public var addUserCalls: [AddUserArguments] { addUserFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func addUser(named name: String, now: Date) throws -> SyncPairingCode {
        try addUserFunction((name, now))
    }

    /// Sets the answer of ``newPairingCode(forUser:now:)``.
    public func onNewPairingCode(_ answer: @escaping @Sendable (String, Date) throws -> SyncPairingCode) {
        newPairingCodeFunction.on { try answer($0.name, $0.now) }
    }

    /// The arguments of each call of ``newPairingCode(forUser:now:)``, oldest first.
    public var newPairingCodeCalls: [NewPairingCodeArguments] { newPairingCodeFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func newPairingCode(forUser name: String, now: Date) throws -> SyncPairingCode {
        try newPairingCodeFunction((name, now))
    }

    /// Sets the answer of ``users()``.
    public func onUsers(_ answer: @escaping @Sendable () throws -> [SyncUser]) {
        usersFunction.on { _ in try answer() }
    }

    /// How many times ``users()`` was called.
    public var usersCallCount: Int { usersFunction.calls.count }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func users() throws -> [SyncUser] {
        try usersFunction(())
    }

    /// Sets the answer of ``devices()``.
    public func onDevices(_ answer: @escaping @Sendable () throws -> [SyncDevice]) {
        devicesFunction.on { _ in try answer() }
    }

    /// How many times ``devices()`` was called.
    public var devicesCallCount: Int { devicesFunction.calls.count }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func devices() throws -> [SyncDevice] {
        try devicesFunction(())
    }

    /// Sets the answer of ``revokeDevice(_:now:)``.
    public func onRevokeDevice(_ answer: @escaping @Sendable (String, Date) throws -> Void) {
        revokeDeviceFunction.on { try answer($0.deviceID, $0.now) }
    }

    /// The arguments of each call of ``revokeDevice(_:now:)``, oldest first.
    public var revokeDeviceCalls: [RevokeDeviceArguments] { revokeDeviceFunction.calls }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func revokeDevice(_ deviceID: String, now: Date) throws {
        try revokeDeviceFunction((deviceID, now))
    }

    // MARK: - Devices

    /// Sets the answer of ``pair(_:address:now:)``.
    public func onPair(_ answer: @escaping @Sendable (SyncAPI.PairRequest, String, Date) throws -> SyncAPI.PairResponse)
    {
        pairFunction.on { try answer($0.request, $0.address, $0.now) }
    }

    /// The arguments of each call of ``pair(_:address:now:)``, oldest first.
    public var pairCalls: [PairArguments] { pairFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func pair(_ request: SyncAPI.PairRequest, address: String, now: Date) throws -> SyncAPI.PairResponse {
        try pairFunction((request, address, now))
    }

    /// Sets the answer of ``authenticate(token:address:now:)``.
    public func onAuthenticate(_ answer: @escaping @Sendable (String, String, Date) throws -> SyncDeviceIdentity) {
        authenticateFunction.on { try answer($0.token, $0.address, $0.now) }
    }

    /// The arguments of each call of ``authenticate(token:address:now:)``, oldest first.
    public var authenticateCalls: [AuthenticateArguments] { authenticateFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func authenticate(token: String, address: String, now: Date) throws -> SyncDeviceIdentity {
        try authenticateFunction((token, address, now))
    }

    // MARK: - Sync

    /// Sets the answer of ``push(_:from:now:)``.
    public func onPush(
        _ answer: @escaping @Sendable (SyncAPI.PushRequest, SyncDeviceIdentity, Date) throws -> SyncAPI.PushResponse
    ) {
        pushFunction.on { try answer($0.request, $0.device, $0.now) }
    }

    /// The arguments of each call of ``push(_:from:now:)``, oldest first.
    public var pushCalls: [PushArguments] { pushFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func push(_ request: SyncAPI.PushRequest, from device: SyncDeviceIdentity, now: Date) throws
        -> SyncAPI.PushResponse
    {
        try pushFunction((request, device, now))
    }

    /// Sets the answer of ``pull(_:from:now:)``.
    public func onPull(
        _ answer: @escaping @Sendable (SyncAPI.PullRequest, SyncDeviceIdentity, Date) throws -> SyncAPI.PullResponse
    ) {
        pullFunction.on { try answer($0.request, $0.device, $0.now) }
    }

    /// The arguments of each call of ``pull(_:from:now:)``, oldest first.
    public var pullCalls: [PullArguments] { pullFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func pull(_ request: SyncAPI.PullRequest, from device: SyncDeviceIdentity, now: Date) throws
        -> SyncAPI.PullResponse
    {
        try pullFunction((request, device, now))
    }

    // MARK: - Spaces

    /// Sets the answer of ``space(_:from:address:now:)``.
    public func onSpace(
        _ answer: @escaping @Sendable (SyncSpaceRequest, SyncDeviceIdentity, String, Date) throws -> SyncSpaceAnswer
    ) {
        spaceFunction.on { try answer($0.request, $0.device, $0.address, $0.now) }
    }

    /// The arguments of each call of ``space(_:from:address:now:)``, oldest first.
    public var spaceCalls: [SpaceArguments] { spaceFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func space(_ request: SyncSpaceRequest, from device: SyncDeviceIdentity, address: String, now: Date)
        throws -> SyncSpaceAnswer
    {
        try spaceFunction((request, device, address, now))
    }

    /// Sets the answer of ``spaces()``.
    public func onSpaces(_ answer: @escaping @Sendable () throws -> [SyncSpaceSummary]) {
        spacesFunction.on { _ in try answer() }
    }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func spaces() throws -> [SyncSpaceSummary] { try spacesFunction(()) }

    /// Sets the answer of ``members(ofSpace:)``.
    public func onMembers(_ answer: @escaping @Sendable (String) throws -> [SyncAPI.Member]?) {
        membersFunction.on { try answer($0) }
    }

    /// The space IDs of the calls of ``members(ofSpace:)``.
    public var membersCalls: [String] { membersFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func members(ofSpace id: String) throws -> [SyncAPI.Member]? { try membersFunction(id) }

    /// Sets the answer of ``versions(for:)``.
    public func onVersions(
        _ answer: @escaping @Sendable (SyncDeviceIdentity) throws -> (personal: String?, versions: [String: String])
    ) {
        versionsFunction.on { try answer($0) }
    }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func versions(for device: SyncDeviceIdentity) throws -> (personal: String?, versions: [String: String]) {
        try versionsFunction(device)
    }

    /// Sets the answer of ``published(slug:rows:)``.
    public func onPublished(_ answer: @escaping @Sendable (String, Bool) throws -> SyncPublishedSpace?) {
        publishedFunction.on { try answer($0.slug, $0.rows) }
    }

    /// The arguments of each call of ``published(slug:rows:)``, oldest first.
    public var publishedCalls: [PublishedArguments] { publishedFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func published(slug: String, rows: Bool) throws -> SyncPublishedSpace? {
        try publishedFunction((slug, rows))
    }
}
