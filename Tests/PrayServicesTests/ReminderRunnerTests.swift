import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Synchronization
import Testing

/// The reminder daemon as an app or a service runs it, without the command line: on mocks and fakes,
/// with a fake clock that never waits, so each test observes the order of events and never the time.
@Suite struct ReminderRunnerTests {
    /// The services of one runner, each a mock or fake the test reads afterwards.
    struct Services {
        let clock = PrayClockFake()  // 2026-11-29 12:00 UTC, the mock date
        let prayers = PrayerServiceMock()
        let notifications = NotificationServiceMock()
        let player = SoundServiceMock()
        let state = ReminderStateStoreFake()
        let sync = SyncServiceMock()
        let memory = LogServiceMemory()

        init() {
            prayers.onPrayerTimes { request in
                PrayerAPI.Response(schedules: request.dates.map { PrayerSchedule.mock(date: $0) }, source: .calculated)
            }
            notifications.onDeliver { _, _ in }
            player.onPlayer { SoundPlayer(kind: .paplay, path: "/usr/bin/paplay") }
            player.onPlay { file, volume in SoundPlayback(id: 1, file: file, volume: volume) }
            player.onStop { nil }
        }

        /// A runner over these services, at Makkah by the mock schedule (asr 15:30, maghrib 18:00
        /// UTC), for asr and maghrib with a reminder ten minutes before each.
        func runner() -> ReminderRunner {
            let log = LogManager(services: [memory], minLevel: .trace)
            let location = LocationManager(
                timeZoneService: TimeZoneServiceMock(), placeService: PlaceServiceMock(),
                preferences: PreferencesStoreFake(), locationService: LocationServiceMock(), log: log)
            var runner = ReminderRunner(
                reminders: ReminderManager(prayers: prayers, hijri: HijriServiceMock(), log: log), location: location,
                notifications: notifications, player: player, state: state, sync: sync, clock: clock, log: log)
            runner.settings = ReminderSettings(
                minutesBefore: [10], ramadan: false, jumuah: false, prayers: [.asr, .maghrib])
            runner.calculation = {
                let request = PrayerAPI.Request(
                    coordinates: .mockMakkah, timeZone: .gmt, date: .mockDate,
                    parameters: CalculationParameters(method: .ummAlQura))
                return ReminderRunner.Calculation(request: request, placeName: "Makkah")
            }
            return runner
        }
    }

    @Test func eventsPlayAnnounceDeliverAndAreRecordedInOrder() async throws {
        // Given: an adhan and a reminder sound, and an announcer that notes each event with its place
        let services = Services()
        var runner = services.runner()
        runner.sounds = ReminderSounds(adhan: "/s/adhan.wav", reminder: "/s/chime.wav", volume: 70)
        runner.startMetadata = ["reminder.hook": "app"]
        let journal = Journal()
        runner.announce = { event, context in
            journal.append("\(event.kind.rawValue) \(event.prayer.rawValue) at \(context.place ?? "-")")
        }
        // When: three events fire on the fake clock
        let fired = try await runner.run(limit: 3)
        // Then: asr's reminder and adhan, then maghrib's reminder — each announced in that order after
        // its sound started, delivered with the plan's place and zone, and recorded as handled.
        let expected = ["reminder asr at Makkah", "adhan asr at Makkah", "reminder maghrib at Makkah"]
        #expect(fired.map { "\($0.kind.rawValue) \($0.prayer.rawValue) at Makkah" } == expected)
        #expect(journal.entries == expected)
        #expect(services.player.playCalls.map(\.file) == ["/s/chime.wav", "/s/adhan.wav", "/s/chime.wav"])
        #expect(services.player.playCalls.allSatisfy { $0.volume == 70 })
        // Deliveries run side by side: which ends first is not the daemon's to say.
        let delivered = services.notifications.deliverCalls
        #expect(Set(delivered.map(\.event.id)) == Set(fired.map(\.id)))
        #expect(delivered.allSatisfy { $0.context == NotificationContext(place: "Makkah", timeZone: .gmt) })
        #expect(services.state.recorded.map(\.id) == fired.map(\.id))
        // The clock stood at each event's moment when it fired: the fake moved on to the third.
        #expect(try #require(fired.last).at <= services.clock.now())
        // The sync scheduler ran beside it and was ended with it; no process was registered (an app
        // has no signals to handle).
        #expect(services.sync.runSchedulerCalls == 1)
        #expect(services.state.runningDaemon() == nil)
        let started = try #require(services.memory.events.first { $0.message == "Reminder daemon started" })
        #expect(started.metadata == ["reminder.hook": "app", "reminder.player": "/usr/bin/paplay"])
    }

    @Test func aCancelledRunEndsWithCancellation() async throws {
        // Given: a runner with no end, in a task cancelled at once
        let services = Services()
        let runner = services.runner()
        let task = Task { try await runner.run() }
        // When
        task.cancel()
        // Then: the run ends by throwing CancellationError, its scheduler ended with it.
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(services.sync.runSchedulerCalls == 1)
    }

    @Test func aRunUntilAnInstantFiresWhatComesBeforeIt() async throws {
        // Given: a run until 17:00 UTC, with a plan that counts how often it was asked
        let services = Services()
        var runner = services.runner()
        let plans = Journal()
        let calculation = runner.calculation
        runner.calculation = {
            plans.append("plan")
            return try await calculation()
        }
        // When
        let fired = try await runner.run(until: services.clock.now().addingTimeInterval(5 * 3600))
        // Then: asr's two events only, and the place was read again for the plans after the first.
        #expect(fired.map(\.kind) == [.reminder, .adhan])
        #expect(fired.allSatisfy { $0.prayer == .asr })
        #expect(plans.entries.count > 1)
        #expect(services.player.playCalls.isEmpty)  // no sounds chosen
    }
}
