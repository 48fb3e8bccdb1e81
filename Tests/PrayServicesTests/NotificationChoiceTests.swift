import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

/// The container's notifier: the configured hook, else the saved one (read at each delivery), else
/// desktop notifications.
@Suite struct NotificationChoiceTests {
    let event = ReminderEvent(
        at: Date(timeIntervalSince1970: 1_795_926_000), prayer: .fajr, kind: .adhan,
        prayerTime: Date(timeIntervalSince1970: 1_795_926_000))

    @Test func theGivenHookWinsThenTheSavedOneThenTheDesktop() throws {
        // Given: a saved hook
        var saved = Preferences()
        try saved.set("echo saved", for: .notifyHook)
        let store = PreferencesStoreFake(saved)
        // Then
        #expect(
            try NotificationServicePreferred(hook: "echo given", preferences: store, log: .silent).hookCommand()
                == "echo given")
        let preferred = NotificationServicePreferred(hook: nil, preferences: store, log: .silent)
        #expect(try preferred.hookCommand() == "echo saved")
        // A change to the saved hook is followed at once.
        store.update { $0.unset(.notifyHook) }
        #expect(try preferred.hookCommand() == nil)
    }

    @Test func withoutAHookTheDesktopServiceDelivers() async throws {
        let desktop = NotificationServiceMock()
        desktop.onDeliver { _, _ in }
        let preferred = NotificationServicePreferred(
            hook: nil, preferences: PreferencesStoreFake(), desktop: desktop, log: .silent)
        try await preferred.deliver(event, context: NotificationContext(timeZone: .gmt))
        #expect(desktop.deliverCalls.map(\.event) == [event])
    }

    @Test(.tags(.process)) func aHookRunsInsteadOfTheDesktop() async throws {
        // Given: a hook that writes the event to a file
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-hook-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("event").path
        let desktop = NotificationServiceMock()
        let preferred = NotificationServicePreferred(
            hook: "printf '%s %s' \"$PRAYKIT_EVENT\" \"$PRAYKIT_PRAYER\" > '\(file)'",
            preferences: PreferencesStoreFake(), desktop: desktop, log: .silent)
        // When
        try await preferred.deliver(event, context: NotificationContext(timeZone: .gmt))
        // Then
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "adhan fajr")
        #expect(desktop.deliverCalls.isEmpty)
    }
}
