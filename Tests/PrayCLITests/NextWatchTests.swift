import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Synchronization
import Testing

@testable import PrayCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `praykit next --watch` for status bars: a line at each change and only then — the countdown, the
/// day at midnight, a mosque's timetable changed under it as sync changes it — on a clock the test
/// walks (its waits return at once), and the real binary ended by SIGTERM, SIGINT and a closed reader.
@Suite struct NextWatchTests {
    let makkah = ["--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--method", "umm-al-qura"]

    static func instant(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }

    /// The lines written, each a JSON object.
    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    @Test func jsonWritesOneObjectALinePerChangeOfTheCountdown() async throws {
        // Given: 14:14:30 in Makkah, Asr at 15:16
        let clock = PrayClockFake(now: try Self.instant("2026-11-29T11:14:30Z"))
        // When
        let result = await CLI.run(
            ["next"] + makkah + ["--format", "json", "--watch", "--updates", "4"], clock: clock)
        // Then: four one-line objects, at 14:14:30 and at each minute the countdown shows one fewer
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try Self.objects(result.stdout)
        #expect(
            lines.map { $0["now"] as? String } == [
                "2026-11-29T14:14:30+03:00", "2026-11-29T14:15:00+03:00", "2026-11-29T14:16:00+03:00",
                "2026-11-29T14:17:00+03:00",
            ])
        #expect(lines.map { $0["countdownSeconds"] as? Int } == [3690, 3660, 3600, 3540])
        #expect(lines.allSatisfy { ($0["next"] as? [String: Any])?["prayer"] as? String == "asr" })
        // … each wait ending on the next change, none longer than a minute
        #expect(clock.sleeps == [30, 60, 60])
    }

    @Test func aLineIsWrittenAtMidnightAndTheNextPrayerWhenItComes() async throws {
        // Given: 23:59:20 in Makkah, times to the second (fajr is not on a minute mark)
        let clock = PrayClockFake(now: try Self.instant("2026-11-29T20:59:20Z"))
        // When
        let result = await CLI.run(
            ["next"] + makkah + ["--rounding", "none", "--format", "json", "--watch", "--updates", "4"], clock: clock)
        // Then: a line at midnight, the new day's
        #expect(result.status == 0, "\(result.stderr)")
        let now = try Self.objects(result.stdout).compactMap { $0["now"] as? String }
        #expect(now.first == "2026-11-29T23:59:20+03:00")
        #expect(now.contains("2026-11-30T00:00:00+03:00"), "\(now)")
        // And: at the adhan, the line names the prayer after it
        let adhan = PrayClockFake(now: try Self.instant("2026-11-29T12:15:58Z"))
        let around = await CLI.run(
            ["next"] + makkah + ["--format", "polybar", "--watch", "--updates", "4"], clock: adhan)
        #expect(around.stdout.hasPrefix("Asr 2s\nAsr 1s\nMaghrib "), "\(around.stdout)")
    }

    @Test func aMosqueTimetableChangedUnderTheWatchShowsAtTheNextWake() async throws {
        // Given: the chosen mosque's timetable gives Asr at 15:20, iqama 15:30 …
        let store = MosqueTimetableStoreFake([try Self.mosque(iqama: 15 * 60 + 30)])
        let changed = try Self.mosque(iqama: 15 * 60 + 45)
        let preferences = try CLI.preferences([.mosque: "Masjid Test"])
        var dependency = CLI.dependency(preferences: preferences)
        dependency.prayers = PrayerServiceMosque(
            base: PrayerServiceAstronomical(log: .silent), store: store, preferences: dependency.preferenceStore)
        dependency.mosqueTimetableStore = store
        // … and sync brings a new iqama, 15:45, while the watch waits for the second time
        let clock = PrayClockScripted(
            now: try Self.instant("2026-11-29T11:14:30Z"),
            onSleep: { sleeps in
                if sleeps == 2 { store.replace(changed) }
            })
        // When
        let result = await CLI.run(
            ["next"] + makkah + ["--format", "plain", "--watch", "--updates", "3"], dependency: dependency,
            clock: clock)
        // Then: the line after that wake has the new iqama; the mosque is named
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.prefix(2).allSatisfy { $0.contains("Asr at 15:20") && $0.contains("(iqama 15:30)") }, "\(lines)")
        #expect(lines.last?.contains("(iqama 15:45)") == true, "\(lines)")
        #expect(lines.allSatisfy { $0.contains("from Masjid Test's timetable") }, "\(lines)")
    }

    @Test func aWakeThatChangesNothingWritesNothing() async throws {
        // Given: a clock that wakes the watch early once (a suspend, a signal), a quarter of a minute in
        let clock = PrayClockScripted(
            now: try Self.instant("2026-11-29T11:14:30Z"), moving: { count, asked in count == 1 ? asked / 2 : asked })
        // When
        let result = await CLI.run(
            ["next"] + makkah + ["--format", "polybar", "--watch", "--updates", "3"], clock: clock)
        // Then: no line at 14:14:45, when the line was what it was; one at each change
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Asr 1:02\nAsr 1:01\nAsr 1:00\n", "\(result.stdout)")
        #expect(clock.sleeps == [30, 15, 60])
    }

    /// The mosque of these tests, in Makkah: Asr's adhan at 15:20 and its iqama at `iqama` minutes
    /// after midnight, 28 to 30 November 2026.
    static func mosque(iqama: Int) throws -> MosqueTimetable {
        let days = try (28...30).map { day in
            MosqueDay(
                date: try CivilDate(year: 2026, month: 11, day: day), adhan: [.asr: 15 * 60 + 20], iqama: [.asr: iqama])
        }
        let coordinates = try Coordinates(latitude: 21.4225, longitude: 39.8262)
        return MosqueTimetable(name: "Masjid Test", coordinates: coordinates, timeZone: "Asia/Riyadh", days: days)
    }

    // MARK: - The real binary

    #if canImport(Glibc)
        @Test(.tags(.process, .binary), arguments: [SIGTERM, SIGINT])
        func aSignalEndsTheWatchCleanly(_ number: Int32) async throws {
            // Given: a watch writing JSON lines to a status bar
            let process = try PraykitProcess.Running(
                ["next"] + makkah + ["--format", "json", "--watch"], environment: [:])
            defer { process.kill() }
            let line = try await process.firstLine()
            // When
            kill(process.process.processIdentifier, number)
            let result = try await process.wait(deadline: 120)
            // Then: exit 0, nothing on standard error, the line that was written whole
            #expect(!process.wasKilled && result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            #expect(try Self.objects(line).count == 1 && result.stdout.hasPrefix(line))
        }

        @Test(.tags(.process, .binary))
        func aReaderThatClosesItsOutputEndsTheWatchQuietly() async throws {
            // Given: a watch in the last seconds before Asr (a line a second), its output a pipe
            let folder = try TestFolder("next-watch-pipe")
            let process = Process()
            process.executableURL = PraykitProcess.executable
            process.arguments =
                ["next"] + makkah + ["--format", "waybar", "--watch", "--now", "2026-11-29T15:15:50+03:00"]
            process.environment = ["PRAYKIT_DATABASE": folder.path("praykit.sqlite"), "PATH": "/usr/bin:/bin"]
            let output = Pipe()
            let errors = folder.path("err")
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            process.standardOutput = output
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
            try process.run()
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            // When: the reader takes the first line, then closes the pipe (a status bar restarting)
            let first = try await TestThread.run { () throws -> String in
                var bytes = Data()
                while !bytes.contains(UInt8(ascii: "\n")) {
                    guard let chunk = try output.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty else { break }
                    bytes += chunk
                }
                try output.fileHandleForReading.close()
                return String(decoding: bytes, as: UTF8.self)
            }
            let ended = try await TestThread.run {
                try ChildProcesses.wait(for: process, deadline: 120, pollMicroseconds: 1000)
            }
            // Then: the next write found no reader, and the watch ended with 0 and said nothing
            #expect(first.hasPrefix("{\"text\":\"Asr 10s\""), "\(first)")
            #expect(ended && process.terminationReason == .exit && process.terminationStatus == 0)
            #expect(try String(contentsOfFile: errors, encoding: .utf8).isEmpty)
        }
    #endif
}

/// A ``PrayClock`` whose waits return at once and move it on — by the time asked, as ``PrayClockFake``'s
/// do, or by what `moving` says — and that calls `onSleep` with the number of waits so far before each
/// returns: a test's way to change the world while the code under test waits.
final class PrayClockScripted: PrayClock {
    private let state: Mutex<(now: Date, sleeps: [TimeInterval])>
    private let onSleep: @Sendable (Int) -> Void
    private let moving: @Sendable (Int, TimeInterval) -> TimeInterval

    init(
        now: Date, moving: @escaping @Sendable (Int, TimeInterval) -> TimeInterval = { $1 },
        onSleep: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        state = Mutex((now, []))
        self.moving = moving
        self.onSleep = onSleep
    }

    /// The waits asked for, in seconds.
    var sleeps: [TimeInterval] { state.withLock { $0.sleeps } }

    func now() -> Date { state.withLock { $0.now } }

    func sleep(for seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        let count = state.withLock { state in
            state.sleeps.append(seconds)
            state.now += max(0, moving(state.sleeps.count, seconds))
            return state.sleeps.count
        }
        onSleep(count)
    }
}
