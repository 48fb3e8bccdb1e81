import PrayCore

/// The container for tests: ``PrayKitOverrides`` — the one shape of overriding, the one an app uses
/// on the live container — over a base whose every service is a mock that fails the test (and throws
/// ``MockError``) when used without being set up, except the clock (``PrayClockFake``), the log
/// (``LogServiceMemory``, from level `trace`), the sound service (``SoundServiceMock/withoutPlayer()``)
/// and the stores: empty ``PreferencesStoreFake`` and ``PrayerLogStoreFake`` with a
/// ``BackupServiceFake`` over those two, and empty ``MosqueTimetableStoreFake``, ``QadaStoreFake``,
/// ``FastStoreFake`` and ``ReminderStateStoreFake``. A test sets the services it uses one by one; the
/// managers (`prayerManager()`, `locationManager()`, `reminderManager()`) are built from them.
///
/// ```swift
/// var dependency = PrayDependencyMock()
/// let prayers = PrayerServiceMock()
/// prayers.onPrayerTimes { request in   // a schedule for every day asked (PrayerManager asks three)
///     PrayerAPI.Response(schedules: request.dates.map { .mock(date: $0) }, source: .calculated)
/// }
/// dependency.prayers = prayers
/// let app = MyApp(dependency: dependency)
/// ```
public typealias PrayDependencyMock = PrayKitOverrides

extension PrayKitOverrides {
    /// A container for tests (``PrayDependencyMock``): unconfigured mocks, empty in-memory stores, a
    /// fake clock at 2026-11-29 12:00 UTC that never waits, and an in-memory log.
    public init() {
        self.init(MockContainer())
    }
}
