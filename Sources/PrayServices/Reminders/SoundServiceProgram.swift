import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``SoundService`` that plays each sound with a Linux audio program — PipeWire's `pw-play`,
/// PulseAudio's `paplay` or ALSA's `aplay`, the first found in an absolute folder of `$PATH` in that
/// order (an empty or relative entry, which names the current folder, is skipped), or the one asked
/// for — as a child process of its own (`ChildProcess`: its own process group, ended whole).
///
/// ``play(_:volume:)`` starts the child and returns at once; a sound still playing is stopped first
/// (SIGTERM to its group, SIGKILL after two seconds), by the new sound's own task, so that two sounds
/// never play together and the caller never waits. A sound that plays longer than
/// ``longestSound`` is stopped. A player that cannot start or fails is logged at `error`.
///
/// ```swift
/// let sounds = SoundServiceProgram(log: log)                 // pw-play, else paplay, else aplay
/// let playback = try sounds.play("/home/amina/Music/adhan.wav", volume: 80)
/// ```
public final class SoundServiceProgram: SoundService {
    private let found: Result<SoundPlayer, SoundError>
    private let log: LogManager
    private let environment: [String: String]
    private let state = Mutex<(next: Int, current: (SoundPlayback, Task<Void, Never>)?)>((1, nil))
    /// The longest a sound may play, seconds: 15 minutes (an adhan lasts 2 to 5).
    public let longestSound: TimeInterval

    /// Creates the service, finding the player now.
    /// - Parameters:
    ///   - kind: The player to use; `nil` for the first of `pw-play`, `paplay`, `aplay` found.
    ///   - environment: The environment whose `PATH` is searched and whose session variables
    ///     (`ChildProcess.inheritedVariables`) the player receives; this process's by default.
    ///   - longestSound: The longest a sound may play, seconds.
    ///   - log: Where failures are logged.
    public init(
        kind: SoundPlayer.Kind? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        longestSound: TimeInterval = 900, log: LogManager
    ) {
        self.log = log
        self.environment = environment
        self.longestSound = longestSound
        found = Self.find(kind, path: environment["PATH"])
    }
}

public extension SoundServiceProgram {
    /// The player found when the service was created.
    /// - Throws: ``SoundError`` (``SoundErrorKind/noPlayer``) naming the packages to install.
    func player() throws -> SoundPlayer {
        try found.get()
    }

    /// Checks that `file` exists, can be read, and is in a format the player takes (by its first bytes).
    /// - Throws: ``SoundError`` saying what is wrong.
    func check(_ file: String) throws -> SoundFormat {
        let player = try player()
        // `stat` follows a symbolic link to the file it names (a dangling link is no file).
        var info = stat()
        guard stat(file, &info) == 0 else {
            throw SoundError(.unreadable, message: "the sound file \(file) does not exist")
        }
        // A folder, a pipe or a device is no sound file (and reading a pipe's first bytes would wait).
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw SoundError(.unreadable, message: "\(file) is not a sound file but a folder, a pipe or a device")
        }
        guard let header = systemReadPrefix(of: file, count: 32) else {
            throw SoundError(.unreadable, message: "the sound file \(file) cannot be read (check its permissions)")
        }
        let accepted = player.kind.formats
        guard let format = SoundFormat.detect(header) else {
            throw SoundError(
                .unsupportedFormat,
                message: "the sound file \(file) is not a sound \(player.kind.rawValue) plays ("
                    + accepted.map(\.name).joined(separator: ", ") + "); convert it to WAV: "
                    + "ffmpeg -i \(file) -ar 48000 adhan.wav")
        }
        guard accepted.contains(format) else {
            throw SoundError(
                .unsupportedFormat,
                message: "\(player.kind.rawValue) cannot play \(format.name) (\(file)); it plays "
                    + accepted.map(\.name).joined(separator: ", ") + ": convert it with "
                    + "ffmpeg -i \(file) -ar 48000 adhan.wav, or install pipewire-bin or pulseaudio-utils")
        }
        return format
    }

    /// Starts `file` (stopping the sound still playing first) and returns at once.
    /// - Throws: ``SoundError`` (``SoundErrorKind/noPlayer``) when there is no player.
    func play(_ file: String, volume: Int) throws -> SoundPlayback {
        let player = try player()
        let arguments = player.kind.arguments(playing: file, volume: volume)
        return state.withLock { state in
            let playback = SoundPlayback(id: state.next, file: file, volume: volume)
            state.next += 1
            let previous = state.current?.1
            let task = Task { [log, environment, longestSound] in
                if let previous {
                    previous.cancel()
                    await previous.value
                }
                guard !Task.isCancelled else { return }
                log.info("Sound playing", metadata: ["sound.id": "\(playback.id)", "sound.file": file])
                do {
                    let outcome = try await ChildProcess.run(
                        player.path, arguments, inheriting: environment, deadline: longestSound)
                    Self.note(outcome, of: playback, player: player, log: log)
                } catch is CancellationError {
                    log.info("Sound stopped", metadata: ["sound.id": "\(playback.id)"])
                } catch {
                    log.error("Sound not played", metadata: ["sound.id": "\(playback.id)", "sound.error": "\(error)"])
                }
                self.forget(playback)
            }
            state.current = (playback, task)
            return playback
        }
    }

    /// Stops the sound playing, if any, and returns once its player has ended.
    @discardableResult
    func stop() async -> SoundPlayback? {
        guard let (playback, task) = state.withLock({ $0.current }) else { return nil }
        task.cancel()
        await task.value
        forget(playback)
        return playback
    }

    /// Returns once no sound plays (each sound ends by itself within ``longestSound``).
    func waitUntilQuiet() async {
        while let (playback, task) = state.withLock({ $0.current }) {
            await task.value
            forget(playback)
        }
    }
}

// MARK: - Helpers

extension SoundServiceProgram {
    /// The player asked for, or the first of the usual ones on `path`.
    static func find(_ kind: SoundPlayer.Kind?, path: String?) -> Result<SoundPlayer, SoundError> {
        for candidate in kind.map({ [$0] }) ?? SoundPlayer.Kind.allCases {
            if let file = ChildProcess.find(candidate.rawValue, path: path) {
                return .success(SoundPlayer(kind: candidate, path: file))
            }
        }
        if let kind {
            return .failure(
                SoundError(
                    .noPlayer,
                    message: "\(kind.rawValue) is not installed (apt-get install \(kind.package)) or not "
                        + "on PATH"))
        }
        return .failure(
            SoundError(
                .noPlayer,
                message: "no sound player found on PATH: install pipewire-bin (pw-play), pulseaudio-utils (paplay) "
                    + "or alsa-utils (aplay)"))
    }

    /// Clears `playback` as the one playing, unless another has replaced it.
    private func forget(_ playback: SoundPlayback) {
        state.withLock { state in
            if state.current?.0 == playback { state.current = nil }
        }
    }

    /// Logs how a sound ended.
    private static func note(
        _ outcome: ChildProcess.Outcome, of playback: SoundPlayback, player: SoundPlayer, log: LogManager
    ) {
        let id = "\(playback.id)"
        if outcome.timedOut {
            log.warning("Sound stopped at its time limit", metadata: ["sound.id": id])
        } else if outcome.status != 0 {
            log.error(
                "Sound player failed",
                metadata: [
                    "sound.id": id, "sound.player": player.kind.rawValue, "sound.status": "\(outcome.status)",
                    "sound.error": String(outcome.standardError.prefix(200)),
                ])
        } else {
            log.info("Sound played", metadata: ["sound.id": id])
        }
    }
}
