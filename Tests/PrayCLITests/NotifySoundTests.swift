import Foundation
import PrayCore
import PrayMocks
import Synchronization
import Testing

@testable import PrayCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `praykit notify --sound`: in-process on a mock player and a fake clock (which sound, when, once,
/// not again after a restart), the plan and the errors; then the real binary under libfaketime with
/// ALSA's real `aplay` playing a generated tone into its `null` device, seen through a wrapper first on
/// PATH that records each invocation.
@Suite struct NotifySoundTests {
    let makkah = ["--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--method", "umm-al-qura"]

    /// A sound service mock with paplay "installed", taking every file, and recording each play with
    /// the clock's instant.
    func player(_ clock: PrayClockFake) -> (SoundServiceMock, PlayLog) {
        let sounds = SoundServiceMock()
        sounds.onPlayer { SoundPlayer(kind: .paplay, path: "/usr/bin/paplay") }
        sounds.onCheck { _ in .wav }
        let plays = PlayLog()
        sounds.onPlay { file, volume in
            let count = plays.append("\(ISO8601DateFormatter().string(from: clock.now())) \(file) \(volume)")
            return SoundPlayback(id: count, file: file, volume: volume)
        }
        return (sounds, plays)
    }

    func date(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }

    @Test func eachSoundStartsOnceAtItsEventsMomentAndFajrHasItsOwn() async throws {
        // Given: 05:15 in Makkah, fajr at 05:20 and dhuhr at 12:09; a mock player that never ends
        // by itself (nothing stops it between events).
        let clock = PrayClockFake(now: try date("2026-11-29T02:15:00Z"))
        var dependency = CLI.dependency()
        let notifications = NotificationServiceMock()
        notifications.onDeliver { _, _ in }
        dependency.notifications = notifications
        let (sounds, plays) = player(clock)
        dependency.sounds = sounds
        let state = ReminderStateStoreFake()
        dependency.reminderStateStore = state
        // When: three events, with all three sounds at 70 %.
        let result = await CLI.run(
            ["notify"] + makkah + [
                "--before", "2", "--limit", "3", "--sound", "/s/adhan.wav", "--fajr-sound", "/s/fajr.wav",
                "--reminder-sound", "/s/chime.wav", "--volume", "70",
            ], dependency: dependency, clock: clock)
        // Then: the chime at fajr's reminder, fajr's own adhan at fajr, the chime before dhuhr — each
        // once, at its event's instant, while the one before still "played" (no stop came between).
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            plays.entries == [
                "2026-11-29T02:18:00Z /s/chime.wav 70", "2026-11-29T02:20:00Z /s/fajr.wav 70",
                "2026-11-29T09:07:00Z /s/chime.wav 70",
            ])
        #expect(result.stdout.split(separator: "\n").count == 3)
        #expect(sounds.checkCalls == ["/s/adhan.wav", "/s/fajr.wav", "/s/chime.wav"])
        #expect(sounds.stopCalls == 0 && sounds.waitUntilQuietCalls == 1)
        // Every event was recorded, and the daemon registered and unregistered itself.
        #expect(state.recorded.map(\.kind) == [.reminder, .adhan, .reminder])
        #expect(state.runningDaemon() == nil)
    }

    @Test func aRestartedDaemonDoesNotPlayTheAdhanAgain() async throws {
        // Given: fajr's adhan (05:20) was played by the daemon before, which was restarted at 05:20:40,
        // while it would still fire (up to two minutes late).
        let fajr = ReminderEvent(
            at: try date("2026-11-29T02:20:00Z"), prayer: .fajr, kind: .adhan,
            prayerTime: try date("2026-11-29T02:20:00Z"))
        let clock = PrayClockFake(now: try date("2026-11-29T02:20:40Z"))
        var dependency = CLI.dependency()
        let notifications = NotificationServiceMock()
        notifications.onDeliver { _, _ in }
        dependency.notifications = notifications
        let (sounds, plays) = player(clock)
        dependency.sounds = sounds
        dependency.reminderStateStore = ReminderStateStoreFake(handled: [fajr.id: fajr.at])
        // When
        let result = await CLI.run(
            ["notify"] + makkah + ["--limit", "1", "--sound", "/s/adhan.wav"], dependency: dependency, clock: clock)
        // Then: not fajr again, but dhuhr's adhan at 12:09.
        #expect(result.status == 0, "\(result.stderr)")
        #expect(plays.entries == ["2026-11-29T09:09:00Z /s/adhan.wav 100"])
        #expect(notifications.deliverCalls.map(\.event.prayer) == [.dhuhr])
    }

    @Test func thePlanNamesThePlayerAndEachEventsSound() async throws {
        var dependency = CLI.dependency()
        let (sounds, _) = player(PrayClockFake())
        dependency.sounds = sounds
        let range = ["--dry-run", "--from", "2026-11-29T05:00:00+03:00", "--until", "2026-11-29T06:00:00+03:00"]
        let arguments = ["notify"] + makkah + range + ["--before", "5", "--sound", "/s/adhan.wav", "--volume", "60"]
        let json = try CLI.json(await CLI.run(arguments + ["--format", "json"], dependency: dependency).stdout)
        #expect((json["player"] as? [String: Any])?["name"] as? String == "paplay")
        #expect((json["player"] as? [String: Any])?["path"] as? String == "/usr/bin/paplay")
        #expect(json["volume"] as? Int == 60)
        let events = try #require(json["events"] as? [[String: Any]])
        #expect(events.map { $0["kind"] as? String } == ["reminder", "adhan"])
        #expect(events[0]["sound"] is NSNull && events[1]["sound"] as? String == "/s/adhan.wav")
        let table = await CLI.run(arguments, dependency: dependency)
        #expect(table.stdout.hasSuffix("adhan.wav\nPlayer: paplay (/usr/bin/paplay), volume 60 %\n"), "\(table.stdout)")
        #expect(sounds.playCalls.isEmpty)
        // Without sounds and without a player, the plan says so and is otherwise as before.
        let plain = await CLI.run(["notify"] + makkah + range)
        #expect(plain.status == 0 && plain.stdout.contains("Player: none found (install pipewire-bin"))
        let plainJSON = try CLI.json(await CLI.run(["notify"] + makkah + range + ["--format", "json"]).stdout)
        #expect(plainJSON["player"] is NSNull)
    }

    @Test func badSoundsAreUsageErrors() async {
        let sounds = SoundServiceMock()
        sounds.onPlayer { SoundPlayer(kind: .aplay, path: "/usr/bin/aplay") }
        sounds.onCheck { file in
            throw SoundError(.unsupportedFormat, message: "aplay cannot play MP3 (\(file))")
        }
        var dependency = CLI.dependency()
        dependency.sounds = sounds
        let mp3 = await CLI.run(["notify"] + makkah + ["--sound", "/s/adhan.mp3", "--dry-run"], dependency: dependency)
        #expect(
            mp3.status == 64 && mp3.stderr.hasPrefix("Error: aplay cannot play MP3 (/s/adhan.mp3)"), "\(mp3.stderr)")
        let none = await CLI.run(["notify"] + makkah + ["--sound", "/s/adhan.wav"])
        #expect(none.status == 64 && none.stderr.contains("no sound player found"), "\(none.stderr)")
        for (arguments, message) in [
            (["--volume", "101", "--sound", "/a.wav"], "--volume"),
            (["--volume", "50"], "--volume and --player go with --sound"),
            (["--player", "mpv", "--sound", "/a.wav"], "--player must be one of pw-play, paplay, aplay"),
        ] {
            let result = await CLI.run(["notify"] + makkah + arguments + ["--dry-run"])
            #expect(result.status == 64 && result.stderr.contains(message), "\(result.stderr)")
        }
    }

    @Test func aVolumeAplayIgnoresIsNotShownAsApplied() async throws {
        // Given: aplay, which has no volume of its own
        let sounds = SoundServiceMock()
        sounds.onPlayer { SoundPlayer(kind: .aplay, path: "/usr/bin/aplay") }
        sounds.onCheck { _ in .wav }
        var dependency = CLI.dependency()
        dependency.sounds = sounds
        let range = ["--dry-run", "--from", "2026-11-29T05:00:00+03:00", "--until", "2026-11-29T06:00:00+03:00"]
        let arguments = ["notify"] + makkah + range + ["--sound", "/s/adhan.wav", "--volume", "50"]
        // When
        let table = await CLI.run(arguments, dependency: dependency)
        let json = try CLI.json(await CLI.run(arguments + ["--format", "json"], dependency: dependency).stdout)
        // Then: the plan says the volume is ignored by that player, not that it plays at 50 %
        #expect(table.status == 0, "\(table.stderr)")
        #expect(!table.stdout.contains("volume 50 %"), "\(table.stdout)")
        #expect(table.stdout.contains("--volume 50 is ignored by aplay"), "\(table.stdout)")
        #expect(json["volumeApplied"] as? Bool == false, "\(json)")
    }

    @Test func stopSoundSaysWhenNoDaemonRuns() async {
        let result = await CLI.run(["notify", "stop-sound"])
        #expect(
            result.status == 1 && result.stderr.hasPrefix("Error: no reminder daemon is running"), "\(result.stderr)")
        let help = await CLI.run(["notify", "--help"])
        #expect(help.stdout.contains("stop-sound") && help.stdout.contains("--fajr-sound"))
        #expect(help.stdout.contains("search it for 'Adhan'"))
    }

    @Test func theUnitCarriesTheSoundOptions() async {
        let result = await CLI.run(["notify", "--print-unit", "--sound", "/home/a b/adhan.wav", "--volume", "80"])
        #expect(result.stdout.contains(" notify --sound \"/home/a b/adhan.wav\" --volume 80\n"), "\(result.stdout)")
        #expect(NotifyRunCommand.systemdQuoted("100%$x\"") == "\"100%%$$x\\\"\"")
    }

    // MARK: - The real binary, the real player

    @Test(.tags(.process, .binary, .faketime, .audio), .needsAplay, .needsFaketime)
    func theRealPlayerPlaysTheToneOnceAtFajrAndNotAgainAfterARestart() async throws {
        // Given: a 0.3 s tone written here, a wrapper `aplay` first on PATH that records its arguments
        // and runs the real aplay into ALSA's null device, and the clock at 05:21:52 in Makkah, eight
        // seconds before fajr (05:22 by the Muslim World League's 18°).
        let folder = try await SoundFolder.make()
        defer { folder.remove() }
        let script = folder.daemon(at: "2026-11-29 02:21:52", "--limit", "1")
        // When: the daemon fires once, and then runs again from 05:22:30 (with the same database) for
        // 5 seconds.
        let first = try await Shell.run("/bin/bash", ["-c", script], deadline: 120)
        let again = try await Shell.run(
            "/bin/bash", ["-c", folder.daemon(at: "2026-11-29 02:22:30", "--until", "2026-11-29T05:22:35+03:00")],
            deadline: 120)
        // Then: fajr's adhan, fired at or after 05:22:00 of the shifted clock, played once by aplay to its
        // end (status 0) with the daemon's arguments; the restarted daemon played nothing.
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "2026-11-29T05:22:00+03:00 adhan fajr\n")
        let playing = try #require(
            first.stderr.split(separator: "\n").first { $0.contains(" info Sound playing ") }, "\(first.stderr)")
        #expect(playing >= "2026-11-29T02:22:00", "\(playing)")
        #expect(folder.journal == ["start -q -- \(folder.tone)", "end 0"], "\(first.stderr)")
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout) \(again.stderr)")
        #expect(folder.journal.count == 2)
    }

    @Test(.tags(.process, .binary, .faketime, .audio), .needsAplay, .needsFaketime)
    func stopSoundSilencesTheDaemonsPlayerAndSIGTERMEndsBoth() async throws {
        // Given: the daemon two seconds before fajr with a wrapper aplay that plays the tone, then goes on
        // "playing" (sleeps) until it is stopped.
        let folder = try await SoundFolder.make(playsOn: true)
        defer { folder.remove() }
        let environment = folder.environment
        let daemon = try PraykitProcess.Running(
            ["notify"] + folder.daemonArguments,
            environment: environment.merging(FakeTime.environment(from: "2026-11-29 02:21:58")) { $1 })
        defer { daemon.kill() }
        // When: fajr fires and the player runs, `praykit notify stop-sound` is run.
        let line = try await daemon.firstLine()
        #expect(line == "2026-11-29T05:22:00+03:00 adhan fajr\n")
        #expect(await folder.waitForJournal { $0.contains { $0.hasPrefix("start") } })
        let stop = try await PraykitProcess.run(["notify", "stop-sound"], environment: environment)
        // Then: the player was stopped (SIGTERM to its group) and the daemon runs on …
        #expect(stop.status == 0 && stop.stdout.contains("stop its sound"), "\(stop.stderr)")
        #expect(await folder.waitForJournal { $0.contains("stopped") }, "\(folder.journal)")
        #expect(daemon.process.isRunning)
        // … until SIGTERM, which it takes as a clean stop. (The signal goes to the daemon the pid file
        // names, as systemd would send it.)
        let pid = try #require(
            (try? String(contentsOfFile: folder.path("praykit.notify-pid"), encoding: .utf8)).flatMap {
                pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
            })
        kill(pid, SIGTERM)
        let result = try await daemon.wait(deadline: 60)
        #expect(!daemon.wasKilled && result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Reminder daemon stopped by a signal"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("praykit.notify-pid")))
    }
}

/// Lines appended from any task, in order.
final class PlayLog: Sendable {
    private let lines = Mutex<[String]>([])

    /// Appends `line`; returns how many lines there are now.
    func append(_ line: String) -> Int {
        lines.withLock {
            $0.append(line); return $0.count
        }
    }

    var entries: [String] { lines.withLock { $0 } }
}

/// A folder with a generated tone, a wrapper `aplay` that records its runs in `journal`, and the
/// database, for the real binary's sound tests.
struct SoundFolder {
    let url: URL

    /// Makes the folder.
    /// - Parameter playsOn: Whether the wrapper, after the real aplay, goes on "playing" (sleeps)
    ///   until SIGTERM, writing `stopped` then.
    static func make(playsOn: Bool = false) async throws -> SoundFolder {
        let folder = try SoundFolder(playsOn: playsOn)
        // The wrapper is written by `install`, a process of its own: were this process to write it, a
        // program another test starts at that moment could inherit the open file, and starting the
        // wrapper would then fail with "Text file busy" (ETXTBSY).
        let installed = try await Shell.run(
            "/usr/bin/install", ["-m", "755", folder.path("aplay.txt"), folder.path("bin/aplay")], deadline: 30)
        guard installed.status == 0 else { throw CocoaError(.fileWriteUnknown) }
        return folder
    }

    private init(playsOn: Bool) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-sound-\(UUID())")
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try TestTone.wav(seconds: 0.3).write(to: URL(fileURLWithPath: tone))
        // The real aplay is found on PATH without the wrapper's folder.
        let real =
            (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/aplay" }.first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/aplay"
        let tail =
            playsOn
            ? "trap 'echo stopped >> \"$J\"; exit 143' TERM\n'\(real)' -D null \"$@\"\nsleep 1000\n"
            : "'\(real)' -D null \"$@\"\necho \"end $?\" >> \"$J\"\n"
        let wrapper = "#!/bin/sh\nJ='\(path("journal"))'\necho \"start $*\" >> \"$J\"\n" + tail
        try Data(wrapper.utf8).write(to: URL(fileURLWithPath: path("aplay.txt")))
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    var tone: String { path("tone.wav") }

    /// The lines the wrapper wrote.
    var journal: [String] {
        ((try? String(contentsOfFile: path("journal"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The daemon's environment: the wrapper first on PATH, the database here, the log at info.
    var environment: [String: String] {
        [
            "TZ": "UTC", "PRAYKIT_DATABASE": path("praykit.sqlite"), "PRAYKIT_LOG_LEVEL": "info",
            "PATH": path("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        ]
    }

    /// The place, the method, a hook that does nothing and the tone.
    var daemonArguments: [String] {
        [
            "--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--method", "mwl", "--hook", "true",
            "--sound", tone, "--player", "aplay",
        ]
    }

    /// A bash script that runs the daemon on a clock from `start` (UTC; ``FakeTime``) with `extra`
    /// arguments.
    func daemon(at start: String, _ extra: String...) -> String {
        let exports = environment.map { "export \($0.key)='\($0.value)'" }.sorted().joined(separator: "\n")
        let words = [PraykitProcess.executable.path, "notify"] + daemonArguments + extra
        return exports + "\nexec \(FakeTime.shellPrefix("@" + start)) "
            + words.map { "'\($0)'" }.joined(separator: " ") + "\n"
    }

    /// Waits (in real time, up to 30 s, only so a broken build fails instead of hanging) until the
    /// journal's lines satisfy `condition`.
    func waitForJournal(_ condition: ([String]) -> Bool) async -> Bool {
        for _ in 0..<600 {
            if condition(journal) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition(journal)
    }

}
