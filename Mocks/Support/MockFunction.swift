import Synchronization

/// The recorder behind one requirement of a mock: it keeps the arguments of every call and answers
/// with the closure the test set.
///
/// Every mock in PrayMocks holds one per requirement and shows it as `on<Requirement>(_:)` (set the
/// answer) and `<requirement>Calls` (the arguments of each call, oldest first). A call made before
/// an answer is set records a Swift Testing issue, so the test fails even when the code under test
/// catches the error, and then:
/// - for a requirement that can throw (`Failure` is `any Error`), throws ``MockError``;
/// - for one that cannot (`Failure` is `Never`), returns the fallback the mock gave at creation.
///
/// ```swift
/// let zone = MockFunction<Coordinates, TimeZoneLookup, any Error>("TimeZoneServiceMock.timeZone(at:)")
/// zone.on { _ in TimeZoneLookup(identifier: "Asia/Riyadh", source: .boundaries) }
/// _ = try zone(.mockMakkah)
/// #expect(zone.calls == [.mockMakkah])
/// ```
///
/// Several arguments are recorded as a tuple labelled with the parameter names, and none as `Void`.
public final class MockFunction<Arguments: Sendable, Output, Failure: Error>: Sendable {
    /// What a call returns or throws, given its arguments.
    public typealias Answer = @Sendable (Arguments) throws(Failure) -> Output

    private let unset: Answer
    private let state = Mutex<(answer: Answer?, calls: [Arguments])>((nil, []))

    private init(whenUnset unset: @escaping Answer) {
        self.unset = unset
    }

    /// The arguments of every call, oldest first.
    public var calls: [Arguments] { state.withLock { $0.calls } }

    /// Sets the answer of every later call, replacing the one set before.
    public func on(_ answer: @escaping Answer) {
        state.withLock { $0.answer = answer }
    }

    /// Records the call, then returns or throws what the answer does.
    /// - Throws: What the answer throws; ``MockError`` when no answer is set and `Failure` is `any Error`.
    public func callAsFunction(_ arguments: Arguments) throws(Failure) -> Output {
        let answer = state.withLock { state in
            state.calls.append(arguments)
            return state.answer
        }
        return try (answer ?? unset)(arguments)
    }
}

extension MockFunction where Failure == any Error {
    /// Creates the recorder of a requirement that can throw: an unset call records a test issue and
    /// throws ``MockError``.
    /// - Parameter member: The requirement, as the issue names it: `"PrayerServiceMock.prayerTimes(for:)"`.
    public convenience init(_ member: String) {
        self.init(whenUnset: { _ in throw MockError.unset(member) })
    }
}

extension MockFunction where Failure == Never {
    /// Creates the recorder of a requirement that cannot throw: an unset call records a test issue and
    /// returns `fallback(arguments)`.
    /// - Parameters:
    ///   - member: The requirement, as the issue names it: `"QiblaServiceMock.qibla(from:)"`.
    ///   - fallback: What an unset call returns; the mock documents it.
    public convenience init(_ member: String, unset fallback: @escaping @Sendable (Arguments) -> Output) {
        self.init(whenUnset: { arguments in
            _ = MockError.unset(member)
            return fallback(arguments)
        })
    }
}
