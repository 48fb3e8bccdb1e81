import PrayCore

/// A ``SoundService`` whose answers the test sets, recording every call. ``onPlay(_:)`` answers
/// ``play(_:volume:)``; ``onStop(_:)`` answers ``stop()``; ``onPlayer(_:)`` and ``onCheck(_:)`` the
/// checks made at start. A call without an answer records a test issue and throws ``MockError`` (or,
/// for ``stop()``, returns `nil`).
///
/// ```swift
/// let sounds = SoundServiceMock()
/// sounds.onPlay { file, volume in SoundPlayback(id: 1, file: file, volume: volume) }
/// … run the daemon …
/// #expect(sounds.playCalls.map(\.file) == ["/adhan.wav"])
/// ```
public final class SoundServiceMock: SoundService {
    /// The arguments of a call of ``play(_:volume:)``.
    public typealias PlayArguments = (file: String, volume: Int)

    private let playerFunction = MockFunction<Void, SoundPlayer, any Error>("SoundServiceMock.player()")
    private let checkFunction = MockFunction<String, SoundFormat, any Error>("SoundServiceMock.check(_:)")
    private let playFunction = MockFunction<PlayArguments, SoundPlayback, any Error>(
        "SoundServiceMock.play(_:volume:)")
    private let stopFunction = MockFunction<Void, SoundPlayback?, Never>("SoundServiceMock.stop()") { _ in nil }
    private let waitFunction = MockFunction<Void, Void, Never>("SoundServiceMock.waitUntilQuiet()") { _ in }

    /// Creates a mock with nothing set but ``waitUntilQuiet()``, which returns at once.
    public init() {
        waitFunction.on { _ in }
    }

    /// Sets the answer of ``player()``.
    public func onPlayer(_ answer: @escaping @Sendable () throws -> SoundPlayer) {
        playerFunction.on { _ in try answer() }
    }

    /// Sets the answer of ``check(_:)``.
    public func onCheck(_ answer: @escaping @Sendable (String) throws -> SoundFormat) {
        checkFunction.on { try answer($0) }
    }

    /// Sets the answer of ``play(_:volume:)``: return a playback to "start" it, throw to play a failure.
    public func onPlay(_ answer: @escaping @Sendable (String, Int) throws -> SoundPlayback) {
        playFunction.on { try answer($0.file, $0.volume) }
    }

    /// Sets the answer of ``stop()``.
    public func onStop(_ answer: @escaping @Sendable () -> SoundPlayback?) {
        stopFunction.on { _ in answer() }
    }

    /// How many times ``player()`` was called.
    public var playerCalls: Int { playerFunction.calls.count }
    /// The files of each call of ``check(_:)``, oldest first.
    public var checkCalls: [String] { checkFunction.calls }
    /// The arguments of each call of ``play(_:volume:)``, oldest first.
    public var playCalls: [PlayArguments] { playFunction.calls }
    /// How many times ``stop()`` was called.
    public var stopCalls: Int { stopFunction.calls.count }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func player() throws -> SoundPlayer { try playerFunction(()) }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func check(_ file: String) throws -> SoundFormat { try checkFunction(file) }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func play(_ file: String, volume: Int) throws -> SoundPlayback { try playFunction((file, volume)) }

    /// Records the call and runs the answer (`nil` when none is set).
    @discardableResult
    public func stop() async -> SoundPlayback? { stopFunction(()) }

    /// Records the call and returns at once (the mock's sounds are silent).
    public func waitUntilQuiet() async { waitFunction(()) }

    /// How many times ``waitUntilQuiet()`` was called.
    public var waitUntilQuietCalls: Int { waitFunction.calls.count }

    /// A mock that says no player is installed (``SoundErrorKind/noPlayer``), checks nothing and
    /// plays nothing: the container of tests that give no sound options.
    public static func withoutPlayer() -> SoundServiceMock {
        let sounds = SoundServiceMock()
        let none = SoundError(.noPlayer, message: "no sound player found on PATH (SoundServiceMock)")
        sounds.onPlayer { throw none }
        sounds.onCheck { _ in throw none }
        sounds.onPlay { _, _ in throw none }
        sounds.onStop { nil }
        return sounds
    }
}
