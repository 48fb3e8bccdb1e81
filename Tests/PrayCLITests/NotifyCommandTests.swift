import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

/// `praykit notify` in-process on the real engine: the plan of a dry run, the daemon firing each
/// event at its moment on a fake clock, and the systemd unit it prints. (The real binary under a
/// shifted clock: NotifyDaemonTests; sounds: NotifySoundTests.)
@Suite struct NotifyCommandTests {
    let makkah = ["--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--method", "umm-al-qura"]

    @Test func notifyPrintsItsPlan() async throws {
        // Given: the first two days of Ramadan 1448 begin 2027-02-08.
        let result = await CLI.run(
            ["notify"] + makkah + [
                "--dry-run", "--from", "2027-02-08T00:00:00+03:00", "--until", "2027-02-09T00:00:00+03:00",
                "--before", "10", "--format", "json",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try #require(try CLI.json(result.stdout)["events"] as? [[String: Any]])
        let kinds = events.map { "\($0["kind"] as? String ?? "") \($0["prayer"] as? String ?? "")" }
        #expect(kinds.contains("imsak fajr") && kinds.contains("iftar maghrib"))
        #expect(kinds.filter { $0.hasPrefix("reminder") }.count == 5)
        // Imsak (10 minutes before fajr) and the 10-minute reminder come first, together.
        #expect(events.prefix(2).allSatisfy { $0["at"] as? String == "2027-02-08T05:28:00+03:00" })
        #expect(events.filter { $0["kind"] as? String == "reminder" }.allSatisfy { $0["minutesBefore"] as? Int == 10 })
    }

    @Test func notifyRunsTheDaemonOnTheClock() async throws {
        // Given: 05:15 on 2026-11-29 in Makkah, fajr at 05:20.
        let clock = PrayClockFake(now: try #require(ISO8601DateFormatter().date(from: "2026-11-29T02:15:00Z")))
        var dependency = CLI.dependency()
        let notifications = NotificationServiceMock()
        notifications.onDeliver { _, _ in }
        dependency.notifications = notifications
        let sync = SyncServiceMock()
        dependency.sync = sync
        // When: it runs until three events have fired.
        let result = await CLI.run(
            ["notify"] + makkah + ["--before", "2", "--limit", "3"], dependency: dependency, clock: clock)
        // Then: the reminder, fajr and the reminder before dhuhr, each at its moment, in order on
        // standard output, each delivered (deliveries run concurrently, so in no set order).
        #expect(result.status == 0, "\(result.stderr)")
        let calls = notifications.deliverCalls.sorted { $0.event.at < $1.event.at }
        #expect(calls.map(\.event.kind) == [.reminder, .adhan, .reminder])
        #expect(calls.map(\.event.prayer) == [.fajr, .fajr, .dhuhr])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3 && lines.first == "2026-11-29T05:18:00+03:00 reminder fajr", "\(lines)")
        #expect(
            lines.map { $0.split(separator: " ").dropFirst().joined(separator: " ") } == [
                "reminder fajr", "adhan fajr", "reminder dhuhr",
            ])
        #expect(clock.now() == calls[2].event.at)
        // Sync's scheduler ran beside the reminders, once.
        #expect(sync.runSchedulerCalls == 1)
    }

    @Test func notifyPrintsASystemdUnit() async {
        let result = await CLI.run(["notify", "--print-unit"])
        #expect(result.stdout.contains("RestartPreventExitStatus=64\n"))
        #expect(result.stdout.contains("[Service]\nType=simple\nExecStart="))
        #expect(result.stdout.contains(" notify\n"))
        #expect(result.stdout.contains("WantedBy=default.target"))
    }
}
