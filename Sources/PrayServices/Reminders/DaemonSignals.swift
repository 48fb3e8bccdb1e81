import Dispatch
import PrayCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A reminder daemon's signals, for as long as it runs: SIGTERM and SIGINT cancel its task and stop
/// the sound, SIGUSR1 stops the sound only — each instead of its default action (ending the process).
/// Not `Sendable`: the run that installs the handlers also removes them (``stop()``).
final class DaemonSignals {
    /// Set once SIGTERM or SIGINT has come.
    private final class Flag: Sendable {
        let value = Atomic(false)
    }

    private let sources: [any DispatchSourceSignal]
    private let received = Flag()

    /// Installs the handlers.
    /// - Parameters:
    ///   - running: The daemon's task, cancelled by SIGTERM and SIGINT.
    ///   - player: The sound service whose sound every one of the three signals stops.
    ///   - log: Where a sound stopped on request is logged.
    init(stopping running: Task<[ReminderEvent], any Error>, player: any SoundService, log: LogManager) {
        let received = received
        sources = [(SIGTERM, true), (SIGINT, true), (SIGUSR1, false)].map { number, ends in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if ends {
                    received.value.store(true, ordering: .relaxed)
                    running.cancel()
                    Task { await player.stop() }
                } else {
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
        for number in [SIGTERM, SIGINT, SIGUSR1] { signal(number, SIG_DFL) }
    }
}
