import Dispatch
import PrayCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A daemon's signals, for as long as it runs: SIGTERM and SIGINT cancel its task and stop the sound,
/// SIGUSR1 stops the sound only (when it plays sounds) — each instead of its default action (ending the
/// process). The reminder daemon and the MQTT publisher use it.
/// Not `Sendable`: the run that installs the handlers also removes them (``stop()``).
final class DaemonSignals {
    /// Set once SIGTERM or SIGINT has come.
    private final class Flag: Sendable {
        let value = Atomic(false)
    }

    private let sources: [any DispatchSourceSignal]
    private let signalNumbers: [Int32]
    private let received = Flag()

    /// Installs the handlers of the reminder daemon.
    /// - Parameters:
    ///   - running: The daemon's task, cancelled by SIGTERM and SIGINT.
    ///   - player: The sound service whose sound every one of the three signals stops.
    ///   - log: Where a sound stopped on request is logged.
    convenience init(stopping running: Task<[ReminderEvent], any Error>, player: any SoundService, log: LogManager) {
        self.init(stopping: { running.cancel() }, player: player, log: log)
    }

    /// Installs the handlers: SIGTERM and SIGINT call `stop` (and stop the sound of `player`, when
    /// given); SIGUSR1 stops the sound only, when there is a player.
    /// - Parameters:
    ///   - stop: Ends the daemon (cancels its task).
    ///   - player: The sound service whose sound the signals stop, if the daemon plays any.
    ///   - log: Where a sound stopped on request is logged.
    init(stopping stop: @escaping @Sendable () -> Void, player: (any SoundService)? = nil, log: LogManager) {
        let received = received
        var handled: [(Int32, Bool)] = [(SIGTERM, true), (SIGINT, true)]
        if player != nil { handled.append((SIGUSR1, false)) }
        signalNumbers = handled.map(\.0)
        sources = handled.map { number, ends in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if ends {
                    received.value.store(true, ordering: .relaxed)
                    stop()
                    if let player { Task { await player.stop() } }
                } else if let player {
                    Task {
                        if let playback = await player.stop() {
                            log.notice("Sound stopped on request", metadata: ["sound.id": "\(playback.id)"])
                        }
                    }
                }
            }
            source.resume()
            return source
        }
    }

    /// Whether SIGTERM or SIGINT came.
    var terminated: Bool { received.value.load(ordering: .relaxed) }

    /// Stops handling the signals and restores their default action.
    func stop() {
        for source in sources { source.cancel() }
        for number in signalNumbers { signal(number, SIG_DFL) }
    }
}
