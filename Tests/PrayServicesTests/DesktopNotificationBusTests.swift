import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

#if canImport(Glibc)
    import Glibc
#endif

/// Desktop notifications through `gdbus` on a real session bus: a private `dbus-daemon` the test
/// starts (no service files, so nothing else answers), with `dbus-monitor` recording what arrives for
/// `org.freedesktop.Notifications`. No notification server runs there, so the bus itself answers the
/// call with ServiceUnknown — which is the proof the call reached it.
@Suite(.tags(.process, .concurrency), .needsSessionBus) struct DesktopNotificationBusTests {
    @Test func theGdbusFallbackCallsNotifyOnTheSessionBus() async throws {
        // Given: a private bus, and on the path only a gdbus (no notify-send) that talks to it.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let gdbus = try #require(
            ChildProcess.find("gdbus", path: "/usr/bin:/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "")),
            "gdbus is missing: apt-get install libglib2.0-bin (.ci/run does)")
        let bus = try await SessionBus.start(in: folder)
        defer { bus.stop() }
        try await folder.executable(
            "bin/gdbus", "#!/bin/sh\nDBUS_SESSION_BUS_ADDRESS='\(bus.address)' exec '\(gdbus)' \"$@\"\n")
        let desktop = NotificationServiceDesktop(log: .silent, path: folder.path("bin"))
        let time = Date(timeIntervalSince1970: 1_795_918_920)  // 2026-11-29T05:22:00+03:00
        let event = ReminderEvent(at: time, prayer: .fajr, kind: .adhan, prayerTime: time)
        let context = NotificationContext(
            place: "Dhu'l-Hulayfa \"Bir Ali\"\u{1B}", timeZone: try #require(TimeZone(identifier: "Asia/Riyadh")))
        // When
        let error = await #expect(throws: NotificationError.self) {
            try await desktop.deliver(event, context: context)
        }
        // Then: the bus answered, and the monitor saw Notify with the signature `susssasa{sv}i`, the
        // texts exactly (the place without its control character) and -1, the server's own timeout.
        #expect(error?.message.contains("ServiceUnknown") == true, "\(String(describing: error))")
        let call = try await bus.notifyCall()
        #expect(
            call == [
                "string \"praykit\"", "uint32 0", "string \"\"", "string \"🕌 Fajr\"",
                "string \"Fajr at 05:22 — Dhu'l-Hulayfa \"Bir Ali\"\u{FFFD}\"", "array [", "]", "array [", "]",
                "int32 -1",
            ], "\(call)")
    }
}

/// A private D-Bus session bus and a `dbus-monitor` on it.
struct SessionBus: Sendable {
    let address: String
    let pids: [pid_t]
    let monitorFile: String

    /// Starts the bus (`dbus-daemon --fork`) and the monitor, and waits until the monitor is watching.
    static func start(in folder: TemporaryFolder) async throws -> SessionBus {
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
              "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(folder.path("bus"))</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        try Data(config.utf8).write(to: folder.url.appendingPathComponent("bus.conf"))
        let monitorFile = folder.path("monitor")
        // The bus leaves the shell's process group by itself (`--fork`), the monitor through `setsid`:
        // the shell's run is over when it exits, and the two live on until ``stop()``.
        let script = """
            set -e
            dbus-daemon --config-file='\(folder.path("bus.conf"))' --fork --nopidfile --print-address=1 \
                --print-pid=1 > '\(folder.path("daemon"))'
            address=$(head -n 1 '\(folder.path("daemon"))')
            setsid dbus-monitor --address "$address" "type='method_call',interface='org.freedesktop.Notifications'" \
                > '\(monitorFile)' 2>&1 < /dev/null &
            echo $! > '\(folder.path("monitor.pid"))'
            """
        let started = try await ChildProcess.run("/bin/sh", ["-c", script], deadline: 60)
        guard started.status == 0, !started.timedOut else {
            throw BusError(
                message: "the bus did not start (\(started.status)): \(started.standardError) — it needs dbus-daemon, "
                    + "dbus-bin and util-linux (apt-get install; .ci/run does)")
        }
        let daemon = try #require(TemporaryFolder.text(folder.path("daemon"))).split(separator: "\n")
        let monitor = try #require(TemporaryFolder.text(folder.path("monitor.pid"))).trimmed
        let pids = [daemon.dropFirst().first.flatMap { pid_t($0) }, pid_t(monitor)].compactMap { $0 }
        let bus = SessionBus(address: String(daemon.first ?? ""), pids: pids, monitorFile: monitorFile)
        // The monitor has become one when the bus has taken its unique name back (NameLost).
        guard await eventually({ bus.monitorText.contains("member=NameLost") }) else {
            bus.stop()
            throw BusError(message: "dbus-monitor did not start: \(bus.monitorText)")
        }
        return bus
    }

    var monitorText: String { TemporaryFolder.text(monitorFile) ?? "" }

    /// The arguments of the first Notify call the monitor saw, one line each, once it has written them
    /// all (the expiry timeout, an `int32`, is the last).
    func notifyCall() async throws -> [String] {
        var call: [String] = []
        let seen = await eventually {
            let lines = monitorText.split(separator: "\n", omittingEmptySubsequences: false)
            guard let start = lines.firstIndex(where: { $0.contains("member=Notify") }) else { return false }
            call = lines[(start + 1)...].prefix { $0.hasPrefix(" ") }.map { $0.trimmed }
            return call.last?.hasPrefix("int32") == true
        }
        guard seen else { throw BusError(message: "no Notify call reached the bus: \(monitorText)") }
        return call
    }

    func stop() {
        for pid in pids { kill(pid, SIGKILL) }
    }

    struct BusError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Whether `condition` holds, looking again for up to 20 s (hang protection, not a measure).
    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<400 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }

    func eventually(_ condition: () -> Bool) async -> Bool { await Self.eventually(condition) }

    /// The first value `make` gives, looking again for up to 20 s; `nil` when it gives none.
    static func eventualValue<Value>(_ make: () -> Value?) async -> Value? {
        var value: Value?
        _ = await eventually {
            value = make()
            return value != nil
        }
        return value
    }
}
