import Foundation
import PrayMocks
import Testing

/// The real binary's reminder daemon under a shifted clock (libfaketime, `FakeTime`), firing a real hook.
@Suite(.tags(.process, .binary, .faketime), .needsFaketime) struct NotifyDaemonTests {
    @Test func theHookFiresAtThePlannedInstant() async throws {
        // Given: the clock at 05:21:52 in Makkah, eight seconds before fajr (05:22 by the Muslim
        // World League's 18°), and a hook that writes what it got — and whether the daemon's own
        // environment (the database path, faketime's preload) reached it.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-notify-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("hook.log").path
        let hook =
            "echo \"$PRAYKIT_EVENT $PRAYKIT_PRAYER $PRAYKIT_TIME ${PRAYKIT_DATABASE:-no-database} "
            + "${LD_PRELOAD:-no-preload}\" >> '\(log)'"
        let script = """
            export TZ=UTC PRAYKIT_DATABASE='\(folder.path)/db.sqlite' PRAYKIT_LOG_LEVEL=info
            exec \(FakeTime.shellPrefix("@2026-11-29 02:21:52")) '\(PraykitProcess.executable.path)' notify \\
                --lat 21.4225 --lon 39.8262 --tz Asia/Riyadh --method mwl --hook '\(hook.replacingOccurrences(of: "'", with: "'\\''"))' --limit 1
            """
        // When: the daemon waits on the (shifted) wall clock and fires once.
        let result = try await Shell.run("/bin/bash", ["-c", script], deadline: 120)
        // Then: fajr's adhan, fired at or after 02:22:00 UTC of the shifted clock by the daemon's log —
        // never before the planned instant (how much after depends on the machine's load, so it is not
        // asserted) — and the hook got the event but nothing of the daemon's environment outside the
        // allowed variables.
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "2026-11-29T05:22:00+03:00 adhan fajr\n")
        let fired = try #require(
            result.stderr.split(separator: "\n").first { $0.contains(" info Reminder fired ") }, "\(result.stderr)")
        #expect(fired.hasPrefix("2026-11-29T02:2"), "\(fired)")
        #expect(fired >= "2026-11-29T02:22:00", "\(fired)")
        let line = try String(contentsOfFile: log, encoding: .utf8)
        #expect(line == "adhan fajr 2026-11-29T05:22:00+03:00 no-database no-preload\n")
    }
}
