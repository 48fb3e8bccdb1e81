import Foundation
import PrayCore
import Synchronization
import Testing

@testable import PrayServer

/// Several servers' event streams joined by a relay (SYNC.md §9, "Several servers"), in one process
/// on a relay in memory that does what PostgreSQL's `LISTEN`/`NOTIFY` does (every listener hears every
/// notice, a listener that starts says `reread` first): a change on one server reaches the streams of
/// another and its own only once, a revocation ends a device's streams on every server, a listener that
/// was away reads the versions again and sends only those that moved, and a stream that opens just after
/// a change was told still gets it. The notices' payloads: split under PostgreSQL's 8,000 bytes, and
/// anything malformed read as "read the versions again". Order of events, never durations.
@Suite(.tags(.concurrency)) struct SyncEventRelayTests {
    static let store = "0123456789abcdef"
    static let mosque = "s_00000000000000aa"
    static let personal = "s_00000000000000bb"

    static func cursor(_ version: Int) -> String { "\(store).\(version)" }

    /// Two servers' streams on one relay, and their readers.
    struct Servers {
        /// The devices still paired, as the store would say.
        final class Paired: Sendable {
            let devices = Mutex<Set<String>>(["d_phone", "d_laptop", "d_screen", "d_tablet"])
            func remove(_ device: String) { _ = devices.withLock { $0.remove(device) } }
        }

        let relay = SyncEventRelayMemory()
        let paired = Paired()
        let a: SyncEvents
        let b: SyncEvents

        init() {
            let paired = paired
            a = SyncEvents(
                pingInterval: 3600, pairedDevices: { paired.devices.withLock { $0 } }, relay: relay, log: .silent)
            b = SyncEvents(
                pingInterval: 3600, pairedDevices: { paired.devices.withLock { $0 } }, relay: relay, log: .silent)
        }

        /// Ends every stream and wakes the listeners, so that both servers' threads stop.
        func close() {
            for device in ["d_phone", "d_laptop", "d_screen", "d_tablet"] {
                a.end(device: device)
                b.end(device: device)
            }
            relay.reconnect()
        }
    }

    @Test func aChangeOnOneServerReachesTheStreamsOfAnotherAndItsOwnOnce() async throws {
        // Given: a screen's stream on server B, a tablet's on server A, both reading the mosque
        let servers = Servers()
        defer { servers.close() }
        let screen = RecordedStream(servers.b.open(device: "d_screen", versions: [Self.mosque: Self.cursor(1)]))
        let tablet = RecordedStream(servers.a.open(device: "d_tablet", versions: [Self.mosque: Self.cursor(1)]))
        #expect(try await servers.relay.waitForListeners(2))
        // When: the phone's push on server A changes the mosque
        servers.a.changed([Self.mosque: Self.cursor(2)], except: "d_phone")
        // Then: both streams hear version 2, the tablet (on A) once, not again from A's own notice
        #expect(try await screen.read { $0.contains(Self.cursor(2)) })
        #expect(try await tablet.read { $0.contains(Self.cursor(2)) })
        servers.a.changed([Self.mosque: Self.cursor(3)], except: "d_phone")
        #expect(try await tablet.read { $0.contains(Self.cursor(3)) })
        #expect(try await screen.read { $0.contains(Self.cursor(3)) })
        #expect(tablet.text.components(separatedBy: Self.cursor(2)).count == 2, "\(tablet.text)")
        #expect(servers.relay.published.map(\.kind) == [.changed, .changed])
        // A change made by the screen itself is not echoed to it by either server.
        servers.b.changed([Self.mosque: Self.cursor(4)], except: "d_screen")
        #expect(try await tablet.read { $0.contains(Self.cursor(4)) })
        servers.b.changed([Self.mosque: Self.cursor(5)], except: "d_tablet")
        #expect(try await screen.read { $0.contains(Self.cursor(5)) })
        #expect(!screen.text.contains(Self.cursor(4)))
    }

    @Test func aRevocationEndsTheDevicesStreamsOnEveryServer() async throws {
        // Given: the laptop's streams on both servers, the phone's on B
        let servers = Servers()
        defer { servers.close() }
        let onA = RecordedStream(servers.a.open(device: "d_laptop", versions: [Self.personal: Self.cursor(1)]))
        let onB = RecordedStream(servers.b.open(device: "d_laptop", versions: [Self.personal: Self.cursor(1)]))
        let phone = RecordedStream(servers.b.open(device: "d_phone", versions: [Self.personal: Self.cursor(1)]))
        #expect(try await servers.relay.waitForListeners(2))
        // When: the operator revokes the laptop (a command: the notice comes from no server)
        try servers.relay.publish(SyncEventNotice(.ended, origin: "", device: "d_laptop"))
        // Then: both its streams end, on A and on B; the phone's stays
        #expect(try await onA.waitUntilEnded())
        #expect(try await onB.waitUntilEnded())
        #expect(!phone.isEnded)
        #expect(servers.b.count == 1)
    }

    @Test func aListenerThatWasAwayReadsTheVersionsAgainAndSendsOnlyThoseThatMoved() async throws {
        // Given: a stream that read the mosque at 3 and the personal space at 7
        let servers = Servers()
        defer { servers.close() }
        let laptop = RecordedStream(
            servers.b.open(device: "d_laptop", versions: [Self.mosque: Self.cursor(3), Self.personal: Self.cursor(7)]))
        let phone = RecordedStream(servers.b.open(device: "d_phone", versions: [Self.personal: Self.cursor(7)]))
        #expect(try await servers.relay.waitForListeners(1))
        // When: the listener was away while the mosque moved to 4 and the phone was revoked, and listens
        // again (PostgreSQL restarted)
        servers.relay.setVersions([Self.mosque: Self.cursor(4), Self.personal: Self.cursor(7)])
        servers.paired.remove("d_phone")
        servers.relay.reconnect()
        // Then: the mosque's new version reaches the laptop, the unchanged space is not sent again, and
        // the phone's stream ends
        #expect(try await laptop.read { $0.contains(Self.cursor(4)) })
        #expect(try await phone.waitUntilEnded())
        #expect(laptop.text.components(separatedBy: Self.cursor(7)).count == 2, "\(laptop.text)")
        #expect(servers.relay.versionReads.allSatisfy { $0 == [Self.mosque, Self.personal] })
    }

    @Test func aStreamThatOpensJustAfterAChangeWasToldStillGetsIt() throws {
        // Given: server B told of version 7 of the mosque (its stream of the tablet heard it)
        let servers = Servers()
        defer { servers.close() }
        let tablet = RecordedStream(servers.b.open(device: "d_tablet", versions: [Self.mosque: Self.cursor(6)]))
        servers.b.receive(
            SyncEventNotice(.changed, origin: "srv_a", device: "d_phone", versions: [Self.mosque: Self.cursor(7)]))
        // When: a stream opens with the versions the store gave just before that change
        let screen = RecordedStream(servers.b.open(device: "d_screen", versions: [Self.mosque: Self.cursor(6)]))
        // Then: it begins with 6, then 7 follows
        let six = try #require(screen.text.range(of: Self.cursor(6)))
        let seven = try #require(screen.text.range(of: Self.cursor(7)))
        #expect(six.upperBound <= seven.lowerBound)
        #expect(tablet.text.contains(Self.cursor(7)))
        // A notice of this server's own is skipped: it delivered it when it sent it.
        servers.b.receive(
            SyncEventNotice(
                .changed, origin: servers.b.origin, device: "d_phone", versions: [Self.mosque: Self.cursor(8)]))
        #expect(!screen.text.contains(Self.cursor(8)) && !tablet.text.contains(Self.cursor(8)))
    }

    @Test func membersChangedElsewhereEndTheDevicesStreamsAndTellTheOtherReaders() throws {
        let servers = Servers()
        defer { servers.close() }
        let owner = RecordedStream(servers.b.open(device: "d_phone", versions: [Self.mosque: Self.cursor(1)]))
        let screen = RecordedStream(servers.b.open(device: "d_screen", versions: [Self.mosque: Self.cursor(1)]))
        servers.b.receive(SyncEventNotice(.members, origin: "srv_a", device: "d_phone", space: Self.mosque))
        #expect(owner.isEnded)
        #expect(screen.text.contains("event: spaces"))
    }

    // MARK: - Payloads

    @Test func aNoticeRoundTripsThroughItsPayload() {
        let notice = SyncEventNotice(
            .changed, origin: "srv_0123456789abcdef", device: "d_00112233445566778899aabbccddeeff",
            versions: [Self.mosque: Self.cursor(12), Self.personal: Self.cursor(3)])
        let payloads = notice.payloads()
        #expect(payloads.count == 1)
        #expect(SyncEventNotice(payload: payloads[0]) == notice)
        #expect(!payloads[0].contains("pkd_"))
        let members = SyncEventNotice(.members, origin: "srv_1", device: "d_2", space: Self.mosque)
        #expect(SyncEventNotice(payload: members.payloads()[0]) == members)
    }

    @Test func aChangeOfManySpacesIsSplitUnderPostgreSQLsLimit() {
        var versions: [String: String] = [:]
        for index in 0..<400 { versions["s_" + String(format: "%016x", index)] = Self.cursor(index + 1) }
        let notice = SyncEventNotice(.changed, origin: "srv_0123456789abcdef", device: "d_1", versions: versions)
        let payloads = notice.payloads()
        #expect(payloads.count > 1)
        #expect(payloads.allSatisfy { $0.utf8.count <= SyncEventNotice.maximumPayloadBytes && $0.utf8.count < 8_000 })
        var heard: [String: String] = [:]
        for payload in payloads {
            let part = SyncEventNotice(payload: payload)
            #expect(part.kind == .changed && part.device == "d_1" && part.origin == notice.origin)
            heard.merge(part.versions) { _, new in new }
        }
        #expect(heard == versions)
    }

    @Test(arguments: [
        "", "not json", #"{"k":"vanish","o":"srv_1"}"#, #"{"k":"changed","o":"srv\n1"}"#,
        #"{"k":"changed","o":"srv_1","v":{"s_00000000000000aa":"0123.7\nevent: x"}}"#,
        #"{"k":"changed","o":"srv_1","v":{"space\"":"0123456789abcdef.7"}}"#,
        #"{"k":"members","o":"srv_1","d":"d_1","s":"../x"}"#,
    ])
    func aPayloadThatIsNotOneIsReadAsReadTheVersionsAgain(payload: String) {
        let notice = SyncEventNotice(payload: payload)
        #expect(notice.kind == .reread && notice.origin.isEmpty && notice.versions.isEmpty)
    }

    @Test func aCursorsVersionIsItsNumber() {
        #expect(SyncEventNotice.version(of: Self.cursor(42)) == 42)
        #expect(SyncEventNotice.version(of: "0") == nil)
        #expect(SyncEventNotice.version(of: "abc.") == nil)
        #expect(SyncEventNotice.version(of: "XYZ.1") == nil)
    }
}

/// What PostgreSQL's `LISTEN`/`NOTIFY` does, in memory: every listener hears every notice published
/// after it began, and says `reread` when it begins and after ``reconnect()``.
final class SyncEventRelayMemory: SyncEventRelay {
    private struct State {
        var queues: [ObjectIdentifier: [SyncEventNotice]] = [:]
        var published: [SyncEventNotice] = []
        var versions: [String: String] = [:]
        var versionReads: [[String]] = []
    }

    private let state = Mutex(State())
    private let condition = NSCondition()

    var published: [SyncEventNotice] { state.withLock { $0.published } }
    var versionReads: [[String]] { state.withLock { $0.versionReads } }

    func publish(_ notice: SyncEventNotice) throws {
        // Through the payload, as PostgreSQL carries it.
        let heard = notice.payloads().map(SyncEventNotice.init(payload:))
        state.withLock { state in
            state.published += heard
            for key in state.queues.keys { state.queues[key, default: []] += heard }
        }
        condition.broadcast()
    }

    func listener() -> any SyncEventListener { Listener(relay: self) }

    func versions(of spaces: Set<String>) throws -> [String: String] {
        state.withLock { state in
            state.versionReads.append(spaces.sorted())
            return state.versions.filter { spaces.contains($0.key) }
        }
    }

    /// What ``versions(of:)`` answers from now on.
    func setVersions(_ versions: [String: String]) { state.withLock { $0.versions = versions } }

    /// Every listener loses its connection and listens again: each says `reread`.
    func reconnect() {
        state.withLock { state in
            for key in state.queues.keys { state.queues[key, default: []].append(SyncEventNotice(.reread, origin: "")) }
        }
        condition.broadcast()
    }

    /// Waits until `count` listeners listen (or a minute, a guard against a hang).
    func waitForListeners(_ count: Int) async throws -> Bool {
        let guardTime = Date().addingTimeInterval(60)
        while state.withLock({ $0.queues.count }) < count, Date() < guardTime {
            try await Task.sleep(for: .milliseconds(5))
        }
        return state.withLock { $0.queues.count } >= count
    }

    fileprivate func register(_ listener: Listener) {
        state.withLock { $0.queues[ObjectIdentifier(listener)] = [SyncEventNotice(.reread, origin: "")] }
    }

    fileprivate func unregister(_ listener: Listener) {
        _ = state.withLock { $0.queues.removeValue(forKey: ObjectIdentifier(listener)) }
    }

    fileprivate func take(_ listener: Listener, timeout: TimeInterval) -> [SyncEventNotice] {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let taken = state.withLock { state -> [SyncEventNotice] in
                defer { state.queues[ObjectIdentifier(listener)] = [] }
                return state.queues[ObjectIdentifier(listener)] ?? []
            }
            if !taken.isEmpty || !condition.wait(until: deadline) { return taken }
        }
    }

    final class Listener: SyncEventListener {
        private let relay: SyncEventRelayMemory

        init(relay: SyncEventRelayMemory) {
            self.relay = relay
            relay.register(self)
        }

        func receive(timeout: TimeInterval) -> [SyncEventNotice] { relay.take(self, timeout: timeout) }

        func close() { relay.unregister(self) }
    }
}

/// A stream with a writer that keeps what is written, as a server would send it.
final class RecordedStream: Sendable {
    private final class Writer: ServerStream.Writer {
        let state = Mutex((text: "", ended: false))
        func write(_ bytes: Data) -> Bool {
            state.withLock { state in
                guard !state.ended else { return false }
                state.text += String(decoding: bytes, as: UTF8.self)
                return true
            }
        }
        func end() { state.withLock { $0.ended = true } }
        var isClosed: Bool { state.withLock { $0.ended } }
    }

    private let writer = Writer()

    init(_ stream: ServerStream) { stream.attach(writer) }

    var text: String { writer.state.withLock { $0.text } }
    var isEnded: Bool { writer.state.withLock { $0.ended } }

    /// Waits until `condition` holds of what was written (or a minute, a guard against a hang).
    func read(until condition: @escaping @Sendable (String) -> Bool) async throws -> Bool {
        let guardTime = Date().addingTimeInterval(60)
        while !condition(text), Date() < guardTime { try await Task.sleep(for: .milliseconds(5)) }
        return condition(text)
    }

    /// Waits until the stream has ended (or a minute).
    func waitUntilEnded() async throws -> Bool {
        let guardTime = Date().addingTimeInterval(60)
        while !isEnded, Date() < guardTime { try await Task.sleep(for: .milliseconds(5)) }
        return isEnded
    }
}

/// The last-seen times of many devices written together (``SyncLastSeen``): a request that notes its
/// device while another writes leaves its time to that writer, which takes it in its next round.
@Suite struct SyncLastSeenTests {
    @Test func devicesSeenWhileOneWritesAreWrittenByItsNextRound() {
        let seen = SyncLastSeen()
        // The first request writes; two more note their devices meanwhile and leave at once.
        #expect(seen.note("d_1", at: 1_000))
        #expect(seen.take() == ["d_1": 1_000])
        #expect(!seen.note("d_2", at: 2_000))
        #expect(!seen.note("d_3", at: 3_000))
        #expect(!seen.note("d_2", at: 1_500))
        // Its next round takes both (the later time of d_2), then nothing is left and it is over.
        #expect(seen.take() == ["d_2": 2_000, "d_3": 3_000])
        #expect(seen.take() == nil)
        // The next request writes again.
        #expect(seen.note("d_4", at: 4_000))
        seen.stop()
        #expect(seen.note("d_5", at: 5_000))
        #expect(seen.take() == ["d_4": 4_000, "d_5": 5_000])
    }
}
