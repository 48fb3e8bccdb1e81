import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayCLI

/// `next`, `calendar` and `notify`, in-process on the real engine with a fake clock.
@Suite struct LivingCommandsTests {
    let makkah = ["--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--method", "umm-al-qura"]
    /// 2026-11-29 14:14 in Makkah: dhuhr was at 12:09, Asr is at 15:16.
    let pinned = ["--now", "2026-11-29T14:14:00+03:00"]

    // MARK: - next

    @Test func nextAnswersInEveryFormat() async throws {
        let plain = await CLI.run(["next"] + makkah + pinned)
        #expect(plain.stdout == "Asr at 15:16 in 1:02; now Dhuhr since 12:09\n", "\(plain.stderr)")
        let json = try CLI.json(await CLI.run(["next"] + makkah + pinned + ["--format", "json"]).stdout)
        #expect(json["now"] as? String == "2026-11-29T14:14:00+03:00")
        #expect((json["current"] as? [String: Any])?["prayer"] as? String == "dhuhr")
        #expect((json["current"] as? [String: Any])?["endsAt"] as? String == "2026-11-29T15:16:00+03:00")
        #expect((json["next"] as? [String: Any])?["prayer"] as? String == "asr")
        #expect((json["next"] as? [String: Any])?["iqama"] is NSNull)
        #expect(json["countdownSeconds"] as? Int == 3720)
        let waybar = try CLI.json(await CLI.run(["next"] + makkah + pinned + ["--format", "waybar"]).stdout)
        #expect(waybar["text"] as? String == "Asr 1:02")
        #expect(waybar["class"] as? String == "asr")
        #expect((waybar["percentage"] as? Int).map { (60...70).contains($0) } == true)
        #expect((waybar["tooltip"] as? String)?.contains("Dhuhr since 12:09") == true)
        let i3bar = await CLI.run(["next"] + makkah + pinned + ["--format", "i3bar"]).stdout
        #expect(i3bar.hasPrefix("{\"version\":1}\n[\n[{\"name\":\"praykit\",\"full_text\":\"Asr 1:02\""))
        #expect(await CLI.run(["next"] + makkah + pinned + ["--format", "polybar"]).stdout == "Asr 1:02\n")
        #expect(
            await CLI.run(["next"] + makkah + pinned + ["--format", "tmux"]).stdout == "#[bold]Asr#[default] 1:02\n")
    }

    @Test func nextShowsTheIqamaWhenSaved() async throws {
        let saved = try CLI.preferences([.iqama: "asr=+15"])
        let result = await CLI.run(["next"] + makkah + pinned, dependency: CLI.dependency(preferences: saved))
        #expect(result.stdout.contains("(iqama 15:31)"), "\(result.stdout)")
    }

    @Test func watchWritesAtTheTimelinesMomentsNotByPolling() async throws {
        // Given: 13:45 on the clock, Asr at 15:16: the first update after 14:16 is a minute mark.
        let clock = PrayClockFake(now: try #require(ISO8601DateFormatter().date(from: "2026-11-29T11:14:30Z")))
        // When: six lines with a fake clock (its waits return at once and move its time on).
        let result = await CLI.run(
            ["next"] + makkah + ["--format", "polybar", "--watch", "--updates", "6"], clock: clock)
        // Then: the countdown goes down one line at a time, and every wait ended on a timeline moment
        // (a whole minute before Asr, or the 60-second cap in the long stretch).
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 6)
        #expect(clock.sleeps.count == 5)
        #expect(clock.sleeps.allSatisfy { $0 <= 60 })
        #expect(result.stdout.hasPrefix("Asr 1:02\n"))
    }

    @Test func watchCountsSecondsInTheLastMinute() async throws {
        let clock = PrayClockFake(now: try #require(ISO8601DateFormatter().date(from: "2026-11-29T12:15:50Z")))
        let result = await CLI.run(
            ["next"] + makkah + ["--format", "polybar", "--watch", "--updates", "4"], clock: clock)
        #expect(result.stdout == "Asr 10s\nAsr 9s\nAsr 8s\nAsr 7s\n", "\(result.stdout)")
        #expect(clock.sleeps == [1, 1, 1])
    }

    // MARK: - calendar

    @Test func calendarIsStrictRFC5545() async throws {
        // Given
        let result = await CLI.run(
            ["calendar"] + makkah + [
                "--month", "2027-02", "--alarm", "10m", "--alarm", "0m", "--prayers", "fajr,maghrib",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        // When
        let calendar = try ICalendar.parse(result.stdout)
        // Then
        let events = calendar.components.filter { $0.name == "VEVENT" }
        #expect(events.count == 28 * 2)
        #expect(Set(events.compactMap { $0["UID"] }).count == events.count)
        let first = try #require(events.first)
        #expect(first["SUMMARY"] == "Fajr")
        #expect(first["DTSTART"]?.hasSuffix("Z") == true)
        #expect(try #require(first["DTSTART"]) < (try #require(first["DTEND"])))
        #expect(first.components.map { $0["TRIGGER"] } == ["-PT10M", "PT0M"])
        #expect(calendar.properties["X-WR-TIMEZONE"] == "Asia/Riyadh")
        // The same request gives the same UIDs (an import updates rather than duplicates).
        let again = try ICalendar.parse(
            await CLI.run(["calendar"] + makkah + ["--month", "2027-02", "--prayers", "fajr,maghrib"]).stdout)
        #expect(again.components.compactMap { $0["UID"] } == events.compactMap { $0["UID"] })
    }

    @Test func calendarOptionsAreChecked() async {
        for (arguments, message) in [
            (["--days", "3", "--month", "2027-02"], "use only one of --days, --month"),
            (["--alarm", "soon"], "--alarm must look like 10m"),
            (["--prayers", "fajr,tea"], "unknown time 'tea'"),
            (["--month", "2027-13"], "--month must look like YYYY-MM"),
        ] {
            let result = await CLI.run(["calendar"] + makkah + arguments)
            #expect(result.status == 64)
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }

    // MARK: - notify

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

/// A strict reader of RFC 5545 text, for the tests: CRLF line ends, lines of at most 75 octets,
/// continuation lines, balanced BEGIN/END, and the properties every VEVENT needs.
struct ICalendar {
    struct Component {
        let name: String
        var properties: [String: String] = [:]
        var components: [Component] = []
        subscript(name: String) -> String? { properties[name] }
    }

    var properties: [String: String] = [:]
    var components: [Component] = []

    enum Failure: Error { case invalid(String) }

    static func parse(_ text: String) throws -> ICalendar {
        guard text.hasSuffix("\r\n") else { throw Failure.invalid("the text does not end in CRLF") }
        // "\r\n" is one Character in Swift: drop it as one.
        let physical = text.dropLast(1).components(separatedBy: "\r\n")
        var lines: [String] = []
        for line in physical {
            guard line.utf8.count <= 75 else { throw Failure.invalid("line longer than 75 octets: \(line)") }
            guard !line.contains("\n"), !line.contains("\r") else { throw Failure.invalid("bare LF or CR") }
            if line.hasPrefix(" ") {
                guard !lines.isEmpty else { throw Failure.invalid("continuation first") }
                lines[lines.count - 1] += line.dropFirst()
            } else {
                lines.append(line)
            }
        }
        var stack: [Component] = []
        var calendar: ICalendar?
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw Failure.invalid("no colon: \(line)") }
            let name = String(line[..<colon]).split(separator: ";")[0].uppercased()
            let value = String(line[line.index(after: colon)...])
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                throw Failure.invalid("bad name \(name)")
            }
            switch name {
            case "BEGIN": stack.append(Component(name: value))
            case "END":
                guard let component = stack.popLast(), component.name == value else {
                    throw Failure.invalid("END:\(value) does not close its BEGIN")
                }
                if component.name == "VEVENT" {
                    for required in ["UID", "DTSTAMP", "DTSTART"] where component[required] == nil {
                        throw Failure.invalid("VEVENT without \(required)")
                    }
                }
                if component.name == "VALARM", component["ACTION"] == nil || component["TRIGGER"] == nil {
                    throw Failure.invalid("VALARM without ACTION or TRIGGER")
                }
                if stack.isEmpty {
                    guard component.name == "VCALENDAR" else { throw Failure.invalid("top level \(component.name)") }
                    calendar = ICalendar(properties: component.properties, components: component.components)
                } else {
                    stack[stack.count - 1].components.append(component)
                }
            default:
                guard !stack.isEmpty else { throw Failure.invalid("property outside a component") }
                stack[stack.count - 1].properties[name] = value
            }
        }
        guard stack.isEmpty, let calendar else { throw Failure.invalid("unbalanced components") }
        guard calendar.properties["VERSION"] == "2.0", calendar.properties["PRODID"] != nil else {
            throw Failure.invalid("VCALENDAR without VERSION 2.0 and PRODID")
        }
        return calendar
    }
}
