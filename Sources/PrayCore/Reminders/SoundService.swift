#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Plays sound files — the adhan at a prayer's time, a short sound for a reminder — one at a time,
/// without waiting for them: ``play(_:volume:)`` starts the sound and returns, so a schedule that
/// plays an adhan of several minutes goes on firing its next events on time.
///
/// ```swift
/// let sounds = dependency.soundService()
/// _ = try sounds.check("/home/amina/Music/adhan.wav")      // at start: a clear error now, not at fajr
/// let playback = try sounds.play("/home/amina/Music/adhan.wav", volume: 80)
/// …
/// await sounds.stop()                                     // silence it (praykit notify stop-sound)
/// ```
public protocol SoundService: Sendable {
    /// The program that plays the sounds.
    /// - Throws: ``SoundError`` (``SoundErrorKind/noPlayer``) when it is not installed, naming the
    ///   Debian packages that provide one.
    func player() throws -> SoundPlayer

    /// Checks, before any sound is due, that `file` can be played: it exists, can be read, and is in
    /// a format the player takes.
    /// - Returns: The file's format.
    /// - Throws: ``SoundError`` saying what is wrong and what to do.
    func check(_ file: String) throws -> SoundFormat

    /// Starts playing `file` at `volume` percent and returns at once. A sound still playing is
    /// stopped first: one sound plays at a time.
    /// - Returns: The playback started.
    /// - Throws: ``SoundError`` (``SoundErrorKind/noPlayer``) when there is no player.
    func play(_ file: String, volume: Int) throws -> SoundPlayback

    /// Stops the sound playing, if any, and returns once it has stopped.
    /// - Returns: The playback stopped, or `nil` when nothing was playing.
    @discardableResult
    func stop() async -> SoundPlayback?

    /// Returns once no sound plays: the one playing has ended by itself or been stopped.
    func waitUntilQuiet() async
}

/// A sound started by a ``SoundService``.
public struct SoundPlayback: Hashable, Sendable {
    /// Numbers the playbacks of a service, from 1.
    public let id: Int
    /// The file played.
    public let file: String
    /// The volume, percent.
    public let volume: Int

    /// Creates a playback's description.
    public init(id: Int, file: String, volume: Int) {
        self.id = id
        self.file = file
        self.volume = volume
    }
}

/// A program that plays sound files, and where it is.
public struct SoundPlayer: Hashable, Sendable {
    /// The audio programs of a Linux desktop, in the order they are looked for.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// PipeWire's `pw-play` (Debian package pipewire-bin).
        case pwPlay = "pw-play"
        /// PulseAudio's `paplay` (pulseaudio-utils); also plays through PipeWire's PulseAudio server.
        case paplay
        /// ALSA's `aplay` (alsa-utils).
        case aplay

        /// The Debian package that provides it.
        public var package: String {
            switch self {
            case .pwPlay: "pipewire-bin"
            case .paplay: "pulseaudio-utils"
            case .aplay: "alsa-utils"
            }
        }

        /// The formats it plays. `pw-play` and `paplay` read files with libsndfile (Debian 12 has
        /// 1.2, which reads MP3 as well); `aplay` reads only uncompressed WAV, Sun/NeXT `.au` and
        /// Creative `.voc`.
        public var formats: [SoundFormat] {
            switch self {
            case .pwPlay, .paplay: [.wav, .flac, .ogg, .aiff, .au, .mp3]
            case .aplay: [.wav, .au, .voc]
            }
        }

        /// Whether it has a volume option of its own (`aplay` has none: it plays at the ALSA mixer's
        /// volume).
        public var hasVolume: Bool { self != .aplay }

        /// The arguments that play `file` at `volume` percent (0–100): `pw-play --volume 0.0–1.0`,
        /// `paplay --volume 0–65536` (65536 is 100 %), `aplay` without a volume.
        public func arguments(playing file: String, volume: Int) -> [String] {
            let percent = min(max(volume, 0), 100)
            switch self {
            case .pwPlay:
                let level = Double(percent) / 100
                return ["--volume", level == 1 ? "1.0" : "\(level)", "--", file]
            case .paplay: return ["--volume=\(percent * 65_536 / 100)", "--", file]
            case .aplay: return ["-q", "--", file]
            }
        }
    }

    /// Which program.
    public let kind: Kind
    /// Its path.
    public let path: String

    /// Creates a player.
    public init(kind: Kind, path: String) {
        self.kind = kind
        self.path = path
    }
}

/// A format of sound file, as its first bytes tell it (not its name's extension).
public enum SoundFormat: String, CaseIterable, Hashable, Sendable {
    /// RIFF WAVE.
    case wav
    /// FLAC.
    case flac
    /// Ogg (Vorbis or Opus).
    case ogg
    /// AIFF or AIFF-C.
    case aiff
    /// Sun/NeXT audio.
    case au
    /// MPEG audio layer III.
    case mp3
    /// Creative Voice.
    case voc

    /// The name people know it by.
    public var name: String {
        switch self {
        case .wav: "WAV"
        case .flac: "FLAC"
        case .ogg: "Ogg"
        case .aiff: "AIFF"
        case .au: "AU"
        case .mp3: "MP3"
        case .voc: "VOC"
        }
    }

    /// The format whose signature begins `header` (the file's first 20 bytes or more), or `nil`.
    public static func detect(_ header: [UInt8]) -> SoundFormat? {
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let bytes = Array(text.utf8)
            return header.count >= offset + bytes.count && Array(header[offset..<offset + bytes.count]) == bytes
        }
        if starts("RIFF"), starts("WAVE", at: 8) { return .wav }
        if starts("fLaC") { return .flac }
        if starts("OggS") { return .ogg }
        if starts("FORM"), starts("AIFF", at: 8) || starts("AIFC", at: 8) { return .aiff }
        if starts(".snd") { return .au }
        if starts("Creative Voice File") { return .voc }
        // An ID3v2 tag, or an MPEG frame sync (11 set bits) of layer III.
        if starts("ID3") { return .mp3 }
        if header.count >= 2, header[0] == 0xFF, header[1] & 0xE0 == 0xE0, header[1] & 0x06 == 0x02 { return .mp3 }
        return nil
    }
}

/// A sound that cannot be played.
public typealias SoundError = PrayKitError<SoundErrorKind>

/// What kind of failure a ``SoundError`` is.
public enum SoundErrorKind: String, Hashable, Sendable {
    /// No program to play sounds is installed (or the one asked for is not).
    case noPlayer
    /// The file does not exist or cannot be read.
    case unreadable
    /// The file is not in a format the player takes.
    case unsupportedFormat
}

/// Which sound each reminder event plays: the adhan at the prayer times (fajr's own when given), a
/// short sound for the others, all at one volume.
///
/// The adhan is called at the prayer's time, so ``ReminderEvent/Kind/adhan``, ``ReminderEvent/Kind/iftar``
/// (maghrib in Ramadan) and ``ReminderEvent/Kind/jumuah`` (the Friday prayer) play ``adhan``;
/// reminders before a prayer, the iqama and imsak play ``reminder``.
public struct ReminderSounds: Hashable, Sendable {
    /// The adhan, for every prayer (fajr's too, unless ``fajrAdhan`` is set).
    public var adhan: String?
    /// Fajr's adhan.
    public var fajrAdhan: String?
    /// The short sound of reminders, iqama and imsak.
    public var reminder: String?
    /// The volume, percent (0–100).
    public var volume: Int

    /// Creates the choice; no sounds by default.
    public init(adhan: String? = nil, fajrAdhan: String? = nil, reminder: String? = nil, volume: Int = 100) {
        self.adhan = adhan
        self.fajrAdhan = fajrAdhan
        self.reminder = reminder
        self.volume = volume
    }

    /// Whether no sound is chosen.
    public var isEmpty: Bool { files.isEmpty }

    /// The files chosen, without repeats.
    public var files: [String] {
        var seen: Set<String> = []
        return [adhan, fajrAdhan, reminder].compactMap { $0 }.filter { seen.insert($0).inserted }
    }

    /// The file `event` plays, or `nil` for silence.
    public func sound(for event: ReminderEvent) -> String? {
        switch event.kind {
        case .adhan, .iftar, .jumuah: event.prayer == .fajr ? fajrAdhan ?? adhan : adhan
        case .reminder, .iqama, .imsak: reminder
        }
    }
}

extension SoundService {
    /// Starts the sound `sounds` chooses for `event` (stopping the one still playing) and returns at
    /// once; does nothing when it chooses none.
    /// - Returns: The playback started, or `nil`.
    /// - Throws: What ``play(_:volume:)`` throws.
    @discardableResult
    public func play(_ sounds: ReminderSounds, for event: ReminderEvent) throws -> SoundPlayback? {
        guard let file = sounds.sound(for: event) else { return nil }
        return try play(file, volume: sounds.volume)
    }
}
