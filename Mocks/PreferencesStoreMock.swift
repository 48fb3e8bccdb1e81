import PrayCore

/// A ``PreferencesStore`` whose answers the test sets, one `on…` closure per requirement, recording
/// every call — for a store that fails or answers in a way the test chooses; ``PreferencesStoreFake``
/// is one that keeps what is written. A requirement without an answer records a test issue and throws
/// ``MockError``.
///
/// ```swift
/// let preferences = PreferencesStoreMock()
/// preferences.onPreferences { throw StorageError(kind: .corrupt, message: "database disk image is malformed") }
/// ```
public final class PreferencesStoreMock: PreferencesStore {
    private let preferencesFunction = MockFunction<Void, Preferences, any Error>(
        "PreferencesStoreMock.preferences()")
    private let updateFunction = MockFunction<Void, Preferences, any Error>("PreferencesStoreMock.update(_:)")
    private let preferencesSequenceFunction = MockFunction<Void, AsyncStream<Preferences>, Never>(
        "PreferencesStoreMock.preferencesSequence()"
    ) { _ in AsyncStream { $0.finish() } }

    /// Creates a mock with nothing set.
    public init() {}

    // MARK: - preferences()

    /// Sets the answer of ``preferences()``.
    public func onPreferences(_ answer: @escaping @Sendable () throws -> Preferences) {
        preferencesFunction.on { _ in try answer() }
    }

    /// One element for each call of ``preferences()``.
    public var preferencesCalls: [Void] { preferencesFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func preferences() throws -> Preferences {
        try preferencesFunction(())
    }

    // MARK: - update(_:)

    /// Sets the answer of ``update(_:)``: the stored preferences that the change is applied to.
    public func onUpdate(_ answer: @escaping @Sendable () throws -> Preferences) {
        updateFunction.on { _ in try answer() }
    }

    /// One element for each call of ``update(_:)``.
    public var updateCalls: [Void] { updateFunction.calls }

    /// Records the call, applies `change` to the answer and returns the result; nothing is kept.
    /// - Throws: What the answer or `change` throws, or ``MockError`` when no answer is set.
    @discardableResult
    public func update(_ change: (inout Preferences) throws -> Void) throws -> Preferences {
        var preferences = try updateFunction(())
        try change(&preferences)
        return preferences
    }

    // MARK: - preferencesSequence()

    /// Sets the answer of ``preferencesSequence()``.
    public func onPreferencesSequence(_ answer: @escaping @Sendable () -> AsyncStream<Preferences>) {
        preferencesSequenceFunction.on { _ in answer() }
    }

    /// One element for each call of ``preferencesSequence()``.
    public var preferencesSequenceCalls: [Void] { preferencesSequenceFunction.calls }

    /// Records the call and returns the answer; without one, a test issue and a stream that has ended.
    public func preferencesSequence() -> AsyncStream<Preferences> {
        preferencesSequenceFunction(())
    }
}
