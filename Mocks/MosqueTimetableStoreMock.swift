import PrayCore

/// A ``MosqueTimetableStore`` whose answers the test sets, one `on…` closure per requirement,
/// recording every call — for a store that fails; ``MosqueTimetableStoreFake`` keeps what is written.
/// A requirement without an answer records a test issue and throws ``MockError``.
///
/// ```swift
/// let store = MosqueTimetableStoreMock()
/// store.onMosques { throw StorageError(kind: .corrupt, message: "database disk image is malformed") }
/// ```
public final class MosqueTimetableStoreMock: MosqueTimetableStore {
    private let replaceFunction = MockFunction<MosqueTimetable, Void, any Error>("MosqueTimetableStoreMock.replace(_:)")
    private let mosquesFunction = MockFunction<Void, [MosqueSummary], any Error>("MosqueTimetableStoreMock.mosques()")
    private let timetableFunction = MockFunction<
        (name: String, first: CivilDate, last: CivilDate), MosqueTimetable?, any Error
    >("MosqueTimetableStoreMock.timetable(named:from:through:)")
    private let removeFunction = MockFunction<String, Bool, any Error>("MosqueTimetableStoreMock.remove(named:)")
    private let settingsFunction = MockFunction<String, SyncMosqueSettingsValue?, any Error>(
        "MosqueTimetableStoreMock.settings(of:)")
    private let setSettingsFunction = MockFunction<(SyncMosqueSettingsValue?, String), Void, any Error>(
        "MosqueTimetableStoreMock.setSettings(_:of:)")
    private let mosqueSequenceFunction = MockFunction<String, AsyncStream<MosqueSnapshot>, Never>(
        "MosqueTimetableStoreMock.mosqueSequence(named:)"
    ) { _ in AsyncStream { $0.finish() } }
    private let hijriMonthStartsFunction = MockFunction<String, HijriMonthStarts, any Error>(
        "MosqueTimetableStoreMock.hijriMonthStarts(of:)")
    private let setHijriMonthStartFunction = MockFunction<
        (CivilDate?, HijriMonthStarts.Month, String), Void, any Error
    >("MosqueTimetableStoreMock.setHijriMonthStart(_:for:of:)")
    private let noticesFunction = MockFunction<String, [MosqueNotice], any Error>(
        "MosqueTimetableStoreMock.notices(of:)")
    private let putNoticeFunction = MockFunction<(MosqueNotice, String), Void, any Error>(
        "MosqueTimetableStoreMock.putNotice(_:of:)")
    private let removeNoticeFunction = MockFunction<(String, String), Bool, any Error>(
        "MosqueTimetableStoreMock.removeNotice(id:of:)")

    /// Creates a mock with nothing set.
    public init() {}

    // MARK: - replace(_:)

    /// Sets the answer of ``replace(_:)``.
    public func onReplace(_ answer: @escaping @Sendable (MosqueTimetable) throws -> Void) {
        replaceFunction.on { try answer($0) }
    }

    /// The timetable of each call of ``replace(_:)``.
    public var replaceCalls: [MosqueTimetable] { replaceFunction.calls }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func replace(_ timetable: MosqueTimetable) throws {
        try replaceFunction(timetable)
    }

    // MARK: - mosques()

    /// Sets the answer of ``mosques()``.
    public func onMosques(_ answer: @escaping @Sendable () throws -> [MosqueSummary]) {
        mosquesFunction.on { _ in try answer() }
    }

    /// One element for each call of ``mosques()``.
    public var mosquesCalls: [Void] { mosquesFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func mosques() throws -> [MosqueSummary] {
        try mosquesFunction(())
    }

    // MARK: - timetable(named:from:through:)

    /// Sets the answer of ``timetable(named:from:through:)``.
    public func onTimetable(
        _ answer: @escaping @Sendable (_ name: String, _ first: CivilDate, _ last: CivilDate) throws -> MosqueTimetable?
    ) {
        timetableFunction.on { try answer($0.name, $0.first, $0.last) }
    }

    /// The arguments of each call of ``timetable(named:from:through:)``.
    public var timetableCalls: [(name: String, first: CivilDate, last: CivilDate)] { timetableFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func timetable(named name: String, from first: CivilDate, through last: CivilDate) throws
        -> MosqueTimetable?
    {
        try timetableFunction((name, first, last))
    }

    // MARK: - remove(named:)

    /// Sets the answer of ``remove(named:)``.
    public func onRemove(_ answer: @escaping @Sendable (String) throws -> Bool) {
        removeFunction.on { try answer($0) }
    }

    /// The name of each call of ``remove(named:)``.
    public var removeCalls: [String] { removeFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    @discardableResult
    public func remove(named name: String) throws -> Bool {
        try removeFunction(name)
    }

    // MARK: - Settings and notices

    /// Sets the answer of ``settings(of:)``.
    public func onSettings(_ answer: @escaping @Sendable (String) throws -> SyncMosqueSettingsValue?) {
        settingsFunction.on { try answer($0) }
    }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func settings(of name: String) throws -> SyncMosqueSettingsValue? { try settingsFunction(name) }

    /// Sets the answer of ``setSettings(_:of:)``.
    public func onSetSettings(_ answer: @escaping @Sendable (SyncMosqueSettingsValue?, String) throws -> Void) {
        setSettingsFunction.on { try answer($0.0, $0.1) }
    }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func setSettings(_ settings: SyncMosqueSettingsValue?, of name: String) throws {
        try setSettingsFunction((settings, name))
    }

    /// Sets the answer of ``mosqueSequence(named:)``.
    public func onMosqueSequence(_ answer: @escaping @Sendable (String) -> AsyncStream<MosqueSnapshot>) {
        mosqueSequenceFunction.on { answer($0) }
    }

    /// Records the call and returns the answer; without one, a test issue and a stream that has ended.
    public func mosqueSequence(named name: String) -> AsyncStream<MosqueSnapshot> { mosqueSequenceFunction(name) }

    /// Sets the answer of ``hijriMonthStarts(of:)``.
    public func onHijriMonthStarts(_ answer: @escaping @Sendable (String) throws -> HijriMonthStarts) {
        hijriMonthStartsFunction.on { try answer($0) }
    }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func hijriMonthStarts(of name: String) throws -> HijriMonthStarts { try hijriMonthStartsFunction(name) }

    /// Sets the answer of ``setHijriMonthStart(_:for:of:)``.
    public func onSetHijriMonthStart(
        _ answer: @escaping @Sendable (CivilDate?, HijriMonthStarts.Month, String) throws -> Void
    ) {
        setHijriMonthStartFunction.on { try answer($0.0, $0.1, $0.2) }
    }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func setHijriMonthStart(_ start: CivilDate?, for month: HijriMonthStarts.Month, of name: String) throws {
        try setHijriMonthStartFunction((start, month, name))
    }

    /// Sets the answer of ``notices(of:)``.
    public func onNotices(_ answer: @escaping @Sendable (String) throws -> [MosqueNotice]) {
        noticesFunction.on { try answer($0) }
    }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func notices(of name: String) throws -> [MosqueNotice] { try noticesFunction(name) }

    /// Sets the answer of ``putNotice(_:of:)``.
    public func onPutNotice(_ answer: @escaping @Sendable (MosqueNotice, String) throws -> Void) {
        putNoticeFunction.on { try answer($0.0, $0.1) }
    }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func putNotice(_ notice: MosqueNotice, of name: String) throws { try putNoticeFunction((notice, name)) }

    /// Sets the answer of ``removeNotice(id:of:)``.
    public func onRemoveNotice(_ answer: @escaping @Sendable (String, String) throws -> Bool) {
        removeNoticeFunction.on { try answer($0.0, $0.1) }
    }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    @discardableResult
    public func removeNotice(id: String, of name: String) throws -> Bool { try removeNoticeFunction((id, name)) }
}
