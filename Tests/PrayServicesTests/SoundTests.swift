import Foundation
import PrayCore
import PrayMocks
import Synchronization
import Testing

@testable import PrayServices

#if canImport(Glibc)
    import Glibc
#endif

/// The adhan heard: which sound each event plays, the players' arguments and formats, the real
/// ``SoundServiceProgram`` with a stand-in player (a script that "plays" until it is stopped) under the
/// daemon on a fake clock, and the record that keeps a restarted daemon from calling the adhan twice.
/// No test measures time: each observes the order of events; the real-time waits only keep a broken
/// build from hanging.
@Suite struct SoundTests {
    let time = Date(timeIntervalSince1970: 1_795_953_600)

    func event(_ kind: ReminderEvent.Kind, _ prayer: Prayer, at offset: TimeInterval = 0) -> ReminderEvent {
        ReminderEvent(at: time.addingTimeInterval(offset), prayer: prayer, kind: kind, prayerTime: time)
    }

    // MARK: - Rules

    @Test func eachEventPlaysItsSound() {
        let sounds = ReminderSounds(adhan: "/a.wav", fajrAdhan: "/fajr.wav", reminder: "/chime.wav", volume: 70)
        #expect(sounds.sound(for: event(.adhan, .fajr)) == "/fajr.wav")
        #expect(sounds.sound(for: event(.adhan, .asr)) == "/a.wav")
        // Iftar is maghrib's adhan in Ramadan, and Jumu'ah is the Friday adhan.
        #expect(sounds.sound(for: event(.iftar, .maghrib)) == "/a.wav")
        #expect(sounds.sound(for: event(.jumuah, .dhuhr)) == "/a.wav")
        for kind in [ReminderEvent.Kind.reminder, .iqama, .imsak] {
            #expect(sounds.sound(for: event(kind, .fajr)) == "/chime.wav")
        }
        // Fajr's own adhan falls back to --sound; no reminder sound is silence.
        let plain = ReminderSounds(adhan: "/a.wav")
        #expect(plain.sound(for: event(.adhan, .fajr)) == "/a.wav")
        #expect(plain.sound(for: event(.reminder, .asr)) == nil)
        #expect(ReminderSounds(fajrAdhan: "/fajr.wav").sound(for: event(.adhan, .isha)) == nil)
        #expect(ReminderSounds().isEmpty && sounds.files == ["/a.wav", "/fajr.wav", "/chime.wav"])
    }

    @Test func eachPlayerGetsTheVolumeInItsOwnUnit() {
        #expect(
            SoundPlayer.Kind.pwPlay.arguments(playing: "/a.wav", volume: 50) == ["--volume", "0.5", "--", "/a.wav"])
        #expect(
            SoundPlayer.Kind.pwPlay.arguments(playing: "/a.wav", volume: 100) == ["--volume", "1.0", "--", "/a.wav"])
        #expect(SoundPlayer.Kind.paplay.arguments(playing: "/a.wav", volume: 50) == ["--volume=32768", "--", "/a.wav"])
        #expect(
            SoundPlayer.Kind.paplay.arguments(playing: "/a.wav", volume: 100) == ["--volume=65536", "--", "/a.wav"])
        #expect(SoundPlayer.Kind.aplay.arguments(playing: "/a.wav", volume: 30) == ["-q", "--", "/a.wav"])
        #expect(!SoundPlayer.Kind.aplay.hasVolume && SoundPlayer.Kind.paplay.hasVolume)
    }

    @Test func formatsAreReadFromTheFirstBytes() {
        func detect(_ text: String, _ extra: [UInt8] = []) -> SoundFormat? {
            SoundFormat.detect(Array(text.utf8) + extra + [UInt8](repeating: 0, count: 16))
        }
        #expect(detect("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ") == .wav)
        #expect(detect("RIFF\u{0}\u{0}\u{0}\u{0}AVI LIST") == nil)
        #expect(detect("fLaC") == .flac)
        #expect(detect("OggS") == .ogg)
        #expect(detect("FORM\u{0}\u{0}\u{0}\u{0}AIFF") == .aiff)
        #expect(detect(".snd") == .au)
        #expect(detect("ID3") == .mp3)
        #expect(SoundFormat.detect([0xFF, 0xFB, 0x90, 0x00]) == .mp3)
        #expect(detect("Creative Voice File") == .voc)
        #expect(detect("hello") == nil)
        #expect(SoundFormat.detect([]) == nil)
    }

    @Test(.tags(.process)) func filesAreCheckedForThePlayer() async throws {
        // Given: a stand-in aplay and paplay, a WAV and an MP3.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await folder.executable("bin/aplay", "#!/bin/sh\n")
        try await folder.executable("bin/paplay", "#!/bin/sh\n")
        let wav = folder.path("tone.wav")
        try TestTone.wav(seconds: 0.1).write(to: URL(fileURLWithPath: wav))
        let mp3 = folder.path("adhan.mp3")
        try Data("ID3".utf8 + [UInt8](repeating: 0, count: 64)).write(to: URL(fileURLWithPath: mp3))
        let text = folder.path("notes.txt")
        try Data("not a sound".utf8).write(to: URL(fileURLWithPath: text))
        let environment = ["PATH": folder.path("bin")]
        let aplay = SoundServiceProgram(kind: .aplay, environment: environment, log: .silent)
        let any = SoundServiceProgram(environment: environment, log: .silent)
        // Then: the first of pw-play, paplay, aplay found; each file judged by what the player takes.
        #expect(try any.player() == SoundPlayer(kind: .paplay, path: folder.path("bin/paplay")))
        #expect(try aplay.check(wav) == .wav)
        #expect(try any.check(mp3) == .mp3)
        #expect(throws: SoundError.self) { try aplay.check(mp3) }
        #expect(throws: SoundError.self) { try aplay.check(text) }
        #expect(throws: SoundError.self) { try aplay.check(folder.path("missing.wav")) }
        #expect(throws: SoundError.self) { try aplay.check(folder.path("bin")) }
        // A symbolic link to a sound is that sound; a pipe is refused before it is read (which would wait).
        let link = folder.path("link.wav")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: wav)
        #expect(try aplay.check(link) == .wav)
        let fifo = folder.path("fifo.wav")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: SoundError.self) { try aplay.check(fifo) }
        let error = try #require(throws: SoundError.self) { try aplay.check(mp3) }
        #expect(error.kind == .unsupportedFormat && error.message.contains("WAV, AU, VOC"), "\(error)")
        let none = SoundServiceProgram(environment: ["PATH": folder.path("nothing")], log: .silent)
        let missing = try #require(throws: SoundError.self) { try none.player() }
        #expect(missing.message.contains("alsa-utils") && missing.message.contains("pipewire-bin"), "\(missing)")
        #expect(throws: SoundError.self) { try none.play(wav, volume: 100) }
    }

    // MARK: - Playing under the daemon

    @Test(.tags(.process)) func theNextEventFiresOnTimeWhileTheAdhanPlaysAndANewSoundStopsIt() async throws {
        // Given: a stand-in aplay that writes its arguments and then "plays" until it is stopped, the
        // adhan at +60 s and a reminder at +120 s on a fake clock. The clock's first wait after the
        // adhan fired lasts (in real time) until the adhan's player has started: so the reminder comes
        // while the adhan plays.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let journal = folder.path("journal")
        try await folder.executable("bin/aplay", Tone.standIn(journal: journal))
        let sounds = SoundServiceProgram(
            kind: .aplay, environment: ["PATH": folder.path("bin") + ":/usr/bin:/bin"], log: .silent)
        let choice = ReminderSounds(adhan: "/adhan.wav", reminder: "/chime.wav")
        let fake = PrayClockFake(now: time)
        let clock = ClockAfter(fake, from: time.addingTimeInterval(60)) {
            TemporaryFolder.text(journal)?.contains("start") == true
        }
        let fired = Journal()
        let events = [event(.adhan, .asr, at: 60), event(.reminder, .maghrib, at: 120)]
        let daemon = ReminderDaemon(
            clock: clock, log: .silent, plan: { from, until in events.filter { $0.at >= from && $0.at < until } },
            deliver: { event in try sounds.play(choice, for: event) },
            announce: { event in fired.append("\(event.kind) \(Int(fake.now().timeIntervalSince(time)))") })
        // When
        try await daemon.run(until: time.addingTimeInterval(600))
        // The reminder's sound starts once the adhan's player has ended: wait for it before stopping it.
        for _ in 0..<600 where TemporaryFolder.text(journal)?.contains("start -q -- /chime.wav") != true {
            try await Task.sleep(for: .milliseconds(50))
        }
        let stopped = await sounds.stop()
        // Then: both events fired at their moments; the adhan's player was started, then stopped when
        // the reminder's sound began (one sound at a time), and stop() ended the reminder's.
        #expect(fired.entries == ["adhan 60", "reminder 120"])
        #expect(stopped?.file == "/chime.wav" && stopped?.id == 2)
        let lines = (TemporaryFolder.text(journal) ?? "").split(separator: "\n").map(String.init)
        #expect(
            lines == ["start -q -- /adhan.wav", "stopped /adhan.wav", "start -q -- /chime.wav", "stopped /chime.wav"],
            "\(lines)")
        #expect(await sounds.stop() == nil)
    }

    @Test(.tags(.process)) func aSoundThatEndsLeavesTheServiceQuiet() async throws {
        // Given: a stand-in aplay that ends at once.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let journal = folder.path("journal")
        try await folder.executable("bin/aplay", "#!/bin/sh\necho \"played $*\" >> '\(journal)'\n")
        let sounds = SoundServiceProgram(
            kind: .aplay, environment: ["PATH": folder.path("bin") + ":/usr/bin:/bin"], log: .silent)
        // When
        let playback = try sounds.play("/adhan.wav", volume: 40)
        await sounds.waitUntilQuiet()
        // Then: played once, and nothing is left to stop.
        #expect(playback == SoundPlayback(id: 1, file: "/adhan.wav", volume: 40))
        #expect(TemporaryFolder.text(journal) == "played -q -- /adhan.wav\n")
        #expect(await sounds.stop() == nil)
    }

    // MARK: - Restarts

    @Test func aRestartedDaemonDoesNotCallTheAdhanAgain() async throws {
        // Given: the adhan at +60 s, and its record beside a database in a folder of its own.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let adhan = event(.adhan, .dhuhr, at: 60)
        let plan: ReminderDaemon.Planner = { from, until in [adhan].filter { $0.at >= from && $0.at < until } }
        let played = Journal()
        func daemon(_ clock: PrayClockFake, state: (any ReminderStateStore)?) -> ReminderDaemon {
            ReminderDaemon(
                clock: clock, log: .silent, plan: plan, deliver: { _ in played.append("adhan") }, state: state)
        }
        let path = folder.path("praykit.sqlite")
        // When: a daemon fires it, and is restarted 30 seconds later (within the two minutes an event may
        // be late), with the record read from the file again.
        let first = try await daemon(PrayClockFake(now: time), state: ReminderStateStoreFile(databasePath: path))
            .run(until: time.addingTimeInterval(70))
        let restarted = try await daemon(
            PrayClockFake(now: time.addingTimeInterval(90)), state: ReminderStateStoreFile(databasePath: path)
        ).run(until: time.addingTimeInterval(300))
        // Then: the adhan was played once; a daemon without the record would have played it again.
        #expect(first == [adhan] && restarted.isEmpty)
        #expect(played.entries == ["adhan"])
        let forgetful = try await daemon(PrayClockFake(now: time.addingTimeInterval(90)), state: nil)
            .run(until: time.addingTimeInterval(300))
        #expect(forgetful == [adhan])
        // The record is one line, beside the database.
        let record = TemporaryFolder.text(folder.path("praykit.notify-record")) ?? ""
        #expect(record == "\(Int(adhan.at.timeIntervalSince1970)) \(adhan.id)\n")
    }

    @Test func theRecordKeepsThreeDaysAndThePidFileNamesALiveDaemon() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let state = ReminderStateStoreFile(databasePath: folder.path("db.sqlite"))
        #expect(try state.handled(since: .distantPast).isEmpty)
        let old = event(.adhan, .fajr, at: -4 * 86_400)
        let recent = event(.adhan, .asr)
        try state.record(old)
        try state.record(recent)
        #expect(try state.handled(since: .distantPast) == [recent.id: recent.at])
        #expect(try state.handled(since: time.addingTimeInterval(1)).isEmpty)
        // No daemon, a dead one, one that is not a notify daemon (this test process): none running.
        #expect(state.runningDaemon() == nil)
        try state.registerDaemon(pid: 999_999_999)
        #expect(state.runningDaemon() == nil)
        try state.registerDaemon(pid: getpid())
        #expect(state.runningDaemon() == nil)
        state.unregisterDaemon(pid: getpid())
        #expect(!FileManager.default.fileExists(atPath: folder.path("db.notify-pid")))
    }
}

// MARK: - Support

/// A fake clock whose waits, once "now" has reached `from`, first wait in real time until `ready` is
/// true (at most 30 s, so that a broken build fails instead of hanging).
final class ClockAfter: PrayClock {
    private let fake: PrayClockFake
    private let from: Date
    private let ready: @Sendable () -> Bool

    init(_ fake: PrayClockFake, from: Date, ready: @escaping @Sendable () -> Bool) {
        self.fake = fake
        self.from = from
        self.ready = ready
    }

    func now() -> Date { fake.now() }

    func sleep(for seconds: TimeInterval) async throws {
        if fake.now() >= from {
            for _ in 0..<600 where !ready() { try await Task.sleep(for: .milliseconds(50)) }
        }
        try await fake.sleep(for: seconds)
    }
}

/// Stand-in players for the tests (the sound file is ``TestTone``).
enum Tone {

    /// A player that writes `start <arguments>` to `journal`, then plays until SIGTERM, when it writes
    /// `stopped <file>` (its third argument: `-q -- FILE`). The shell waits for `sleep` in the foreground,
    /// so it reaps it itself and nothing is left for init to reap.
    static func standIn(journal: String) -> String {
        """
        #!/bin/sh
        J='\(journal)'
        trap 'echo "stopped $3" >> "$J"; exit 143' TERM
        echo "start $*" >> "$J"
        sleep 1000
        """
    }
}
