import Foundation
import PrayCore
import PrayMocks
import Synchronization
import Testing

@testable import PrayServices

/// The timer, iqama, the reminder plan and the daemon, on the real engine and a fake clock: across
/// midnight, a clock change, Ramadan and Friday.
@Suite(.tags(.concurrency)) struct RemindersTests {
    let engine = PrayerServiceAstronomical(log: .silent)

    func schedules(
        _ zone: String, latitude: Double, longitude: Double, from date: String, days: Int,
        method: CalculationMethod = .muslimWorldLeague
    ) throws -> [PrayerSchedule] {
        let request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: latitude, longitude: longitude),
            timeZone: try #require(TimeZone(identifier: zone)), date: try CivilDate(parsing: date), days: days,
            parameters: CalculationParameters(method: method))
        return try engine.prayerTimes(for: request).schedules
    }

    func makkah(_ date: String, days: Int = 3) throws -> [PrayerSchedule] {
        try schedules("Asia/Riyadh", latitude: 21.4225, longitude: 39.8262, from: date, days: days, method: .ummAlQura)
    }

    // MARK: - Timer

    @Test func theTimerFollowsTheDayAcrossMidnight() throws {
        // Given: 28, 29 and 30 November in Makkah.
        let days = try makkah("2026-11-28")
        let timer = PrayerTimer(schedules: days)
        let today = days[1]
        // When: after isha, and just after midnight.
        let afterIsha = try #require(today[.isha]).date.addingTimeInterval(60)
        let afterMidnight = Date(timeIntervalSince1970: Double(today.date.daysSince1970 + 1) * 86_400 - 3 * 3600 + 60)
        let evening = try #require(timer.status(at: afterIsha))
        let night = try #require(timer.status(at: afterMidnight))
        // Then: isha is current until the next fajr, which is next.
        #expect(evening.current?.time.prayer == .isha)
        #expect(evening.current?.endsAt == days[2][.fajr]?.date)
        #expect(evening.next.date == days[2][.fajr]?.date)
        #expect(night.current?.time.prayer == .isha)
        #expect(night.current?.time.date == today[.isha]?.date)
        #expect(night.next.prayer == .fajr)
        #expect(abs(night.countdown - (days[2][.fajr]!.date.timeIntervalSince(afterMidnight))) < 1e-6)
    }

    @Test func windowsEndAtTheNextTime() throws {
        let days = try makkah("2026-11-28")
        let timer = PrayerTimer(schedules: days)
        let today = days[1]
        for (prayer, end) in [
            (Prayer.fajr, Prayer.sunrise), (.sunrise, .dhuhr), (.dhuhr, .asr), (.asr, .maghrib), (.maghrib, .isha),
        ] {
            let time = try #require(today[prayer])
            let status = try #require(timer.status(at: time.date.addingTimeInterval(30)))
            #expect(status.current?.time.prayer == prayer)
            #expect(status.current?.endsAt == today[end]?.date)
            #expect(status.next.prayer == end)
            #expect(status.sinceAdhan == 30)
        }
    }

    @Test func theTimelineHasEveryMinuteOfTheLastHourAndEverySecondOfTheLastMinute() throws {
        let days = try makkah("2026-11-28")
        let timer = PrayerTimer(schedules: days)
        let asr = try #require(days[1][.asr]).date
        let start = asr.addingTimeInterval(-7200)
        let moments = timer.timeline(from: start, until: asr, reminder: 600)
        #expect(moments.first == asr.addingTimeInterval(-3600))
        #expect(moments.last == asr)
        #expect(moments.contains(asr.addingTimeInterval(-600)))
        #expect(moments.filter { $0 < asr.addingTimeInterval(-60) }.count == 59)
        #expect(moments.filter { $0 >= asr.addingTimeInterval(-60) }.count == 61)
        #expect(moments == moments.sorted())
    }

    @Test func theTimerCountsRealSecondsAcrossAClockChange() throws {
        // London springs forward at 01:00 UTC on 2026-03-29: from isha to fajr is an hour shorter on the
        // clock face, not in seconds.
        let days = try schedules("Europe/London", latitude: 51.5074, longitude: -0.1278, from: "2026-03-28", days: 3)
        let timer = PrayerTimer(schedules: days)
        let isha = try #require(days[0][.isha]).date
        let fajr = try #require(days[1][.fajr]).date
        let status = try #require(timer.status(at: isha.addingTimeInterval(1)))
        #expect(status.next.date == fajr)
        #expect(status.countdown == fajr.timeIntervalSince(isha) - 1)
        let moments = timer.timeline(from: isha, until: fajr)
        #expect(Set(moments).count == moments.count)
        #expect(moments.last == fajr)
    }

    // MARK: - Iqama

    @Test func iqamaAfterTheAdhanRoundsUpAndFixedTimesAndJumuahApply() throws {
        // Given: 2026-11-27 is a Friday.
        let days = try makkah("2026-11-27", days: 1)
        let friday = days[0]
        #expect(friday.date.isoWeekday == 5)
        let settings = try IqamaSettings(
            parsing: "fajr=+20,dhuhr=+15,isha=20:30", jumuah: "12:45,13:30", roundingMinutes: 5)
        let fajr = try #require(friday[.fajr])
        let iqama = try #require(settings.iqama(of: fajr, in: friday))
        let clock = NotificationContext(timeZone: try #require(TimeZone(identifier: "Asia/Riyadh")))
        // Fajr + 20 minutes, rounded up to the next multiple of 5 minutes.
        let fajrMinutes = Int(clock.clock(fajr.date).prefix(2))! * 60 + Int(clock.clock(fajr.date).suffix(2))!
        let expected = (fajrMinutes + 20 + 4) / 5 * 5
        #expect(clock.clock(iqama) == String(format: "%02d:%02d", expected / 60, expected % 60))
        #expect(iqama.timeIntervalSince(fajr.date) >= 20 * 60 && iqama.timeIntervalSince(fajr.date) < 25 * 60)
        let isha = try #require(friday[.isha])
        #expect(settings.iqama(of: isha, in: friday).map(clock.clock) == "20:30")
        #expect(settings.jumuahTimes(in: friday).map(clock.clock) == ["12:45", "13:30"])
        // On Friday the timer's dhuhr iqama is the first Jumu'ah.
        let timer = PrayerTimer(schedules: days, iqama: settings)
        #expect(timer.iqamaDate(of: try #require(friday[.dhuhr])).map(clock.clock) == "12:45")
        #expect(throws: ValidationError.self) { try IqamaSettings(parsing: "fajr=+20,fajr=+10") }
        #expect(throws: ValidationError.self) { try IqamaSettings(parsing: "", jumuah: "25:00") }
        // A rounding the parser would refuse, set through the public initializer, rounds nothing
        // (it trapped multiplying Int.max minutes into seconds).
        for step in [Int.max, 0, -5, 61] {
            let unchecked = IqamaSettings(rules: [.fajr: .afterAdhan(minutes: 20)], roundingMinutes: step)
            #expect(unchecked.iqama(of: fajr, in: friday) == fajr.date.addingTimeInterval(20 * 60), "\(step)")
        }
    }

    // MARK: - Plan

    @Test func ramadanAndFridayEventsArePlanned() async throws {
        // Given: 2027-02-08 is 1 Ramadan 1448 (Umm al-Qura); 2027-02-12 is a Friday.
        let manager = ReminderManager(
            prayers: engine, hijri: HijriServiceUmmAlQura(prayerService: engine, log: .silent), log: .silent)
        let zone = try #require(TimeZone(identifier: "Asia/Riyadh"))
        let request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 21.4225, longitude: 39.8262), timeZone: zone,
            date: try CivilDate(parsing: "2027-02-07"), parameters: CalculationParameters(method: .ummAlQura))
        let start = Date(
            timeIntervalSince1970: Double(try CivilDate(parsing: "2027-02-07").daysSince1970) * 86_400 - 3 * 3600)
        // When
        let events = try await manager.events(
            for: request, from: start, until: start.addingTimeInterval(6 * 86_400),
            settings: ReminderSettings(minutesBefore: [10]), iqama: try IqamaSettings(parsing: "", jumuah: "12:50"))
        // Then
        let context = NotificationContext(timeZone: zone)
        func day(_ event: ReminderEvent) -> String {
            "\((try? CivilDate(containing: event.at, in: zone))?.description ?? "")"
        }
        #expect(!events.contains { $0.kind == .iftar && day($0) == "2027-02-07" })
        #expect(events.contains { $0.kind == .iftar && day($0) == "2027-02-08" })
        #expect(events.contains { $0.kind == .imsak && day($0) == "2027-02-08" })
        let jumuah = events.filter { $0.kind == .jumuah }
        #expect(jumuah.count == 1 && day(jumuah[0]) == "2027-02-12" && context.clock(jumuah[0].at) == "12:50")
        #expect(!events.contains { $0.kind == .adhan && $0.prayer == .dhuhr && day($0) == "2027-02-12" })
        #expect(events.filter { $0.kind == .reminder }.allSatisfy { $0.prayerTime.timeIntervalSince($0.at) == 600 })
        #expect(events == events.sorted())
    }

    // MARK: - Daemon

    /// A plan of three events, whatever the range asked (filtered to it).
    func fixedPlan(_ times: [Date]) -> ReminderDaemon.Planner {
        { from, until in
            times.enumerated().map { index, time in
                ReminderEvent(at: time, prayer: Prayer.obligatory[index % 5], kind: .adhan, prayerTime: time)
            }.filter { $0.at >= from && $0.at < until }
        }
    }

    @Test func theDaemonFiresEachEventOnceAtItsMoment() async throws {
        // Given
        let clock = PrayClockFake()
        let start = clock.now()
        let times = [start.addingTimeInterval(90), start.addingTimeInterval(3600), start.addingTimeInterval(7300)]
        let fired = Recorder()
        let delivered = Recorder()
        let daemon = ReminderDaemon(
            clock: clock, log: .silent, plan: fixedPlan(times),
            deliver: { event in delivered.append(event, at: event.at) },
            announce: { event in fired.append(event, at: clock.now()) })
        // When
        let result = try await daemon.run(until: start.addingTimeInterval(8000))
        // Then: every event at exactly its moment, once, delivered once (deliveries run concurrently, in
        // no set order), and the clock was read at least every minute.
        #expect(result.map(\.at) == times)
        #expect(fired.moments == times)
        #expect(delivered.moments.sorted() == times)
        #expect(clock.sleeps.allSatisfy { $0 <= 60 })
    }

    @Test func aMissedEventIsNotFiredLateAndASetBackClockDoesNotRepeat() async throws {
        // Given: the machine sleeps through the first event (the clock jumps 15 minutes), and the clock
        // is later set back 5 minutes, to before the second event.
        let clock = PrayClockFake()
        let start = clock.now()
        let times = [start.addingTimeInterval(300), start.addingTimeInterval(1200), start.addingTimeInterval(1500)]
        let fired = Recorder()
        let daemon = ReminderDaemon(
            clock: clock, log: .silent, plan: fixedPlan(times), deliver: { _ in },
            announce: { event in
                fired.append(event, at: clock.now())
                if event.at == times[1] { clock.advance(by: -300) }  // the clock is set back
            })
        clock.advance(by: 900)  // asleep over the first event (15 minutes)
        // When
        let result = try await daemon.run(until: start.addingTimeInterval(2000), limit: 5)
        // Then: the first event is missed, the second fires once (not again after the set-back), then
        // the third.
        #expect(result.map(\.at) == [times[1], times[2]])
        #expect(fired.moments.count == 2)
    }

    @Test(.tags(.process)) func theCommandHookReceivesTheEvent() async throws {
        // Given
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-hook-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("event")
        let hook = NotificationServiceCommand(
            command: "env | grep ^PRAYKIT_ | sort > '\(file.path)'", log: .silent)
        let zone = try #require(TimeZone(identifier: "Asia/Riyadh"))
        let time = Date(timeIntervalSince1970: 1_795_950_000)
        let event = ReminderEvent(
            at: time.addingTimeInterval(-600), prayer: .asr, kind: .reminder, prayerTime: time, minutesBefore: 10,
            iqama: time.addingTimeInterval(900))
        // When
        try await hook.deliver(event, context: NotificationContext(place: "Makkah", timeZone: zone))
        // Then
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("PRAYKIT_EVENT=reminder\n"))
        #expect(text.contains("PRAYKIT_PRAYER=asr\n"))
        #expect(text.contains("PRAYKIT_MINUTES_BEFORE=10\n"))
        #expect(text.contains("PRAYKIT_TIME=2026-11-29T14:00:00+03:00\n"))
        #expect(text.contains("PRAYKIT_AT=2026-11-29T13:50:00+03:00\n"))
        #expect(text.contains("PRAYKIT_IQAMA=2026-11-29T14:15:00+03:00\n"))
        #expect(text.contains("PRAYKIT_PLACE=Makkah\n"))
        // A failing hook is an error, not silence.
        let failing = NotificationServiceCommand(command: "echo broken >&2; exit 3", log: .silent)
        await #expect(throws: NotificationError.self) {
            try await failing.deliver(event, context: NotificationContext(timeZone: zone))
        }
    }
}

/// Records events with a moment each, in the order they came.
final class Recorder: Sendable {
    private let state = Mutex<[(ReminderEvent, Date)]>([])
    func append(_ event: ReminderEvent, at moment: Date) { state.withLock { $0.append((event, moment)) } }
    var moments: [Date] { state.withLock { $0.map(\.1) } }
}
