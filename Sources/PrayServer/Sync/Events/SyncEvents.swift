import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The event streams of one server (`GET /sync/v1/events`, SYNC.md §9, `docs/sync-protocol.md`): for
/// each device that holds one, the spaces it may read; a push into a space writes one `space` event
/// — its ID and new version, never a row — to every other stream that reads it, and the device then
/// pulls as it always does.
///
/// A stream begins with `retry: 5000` and one `space` event per space the device reads, with its
/// version now: a device that reconnects compares them with its cursors and pulls what it missed
/// (this is what `Last-Event-ID` would say, without a log of past events on the server). Every
/// ``pingInterval`` each stream gets a comment line (`: ping`), which also finds the streams whose
/// client is gone and ends those of devices revoked meanwhile (by the operator, in another process).
/// A device holds at most ``maximumStreamsPerDevice`` streams: a new one ends its oldest (a phone that
/// reconnects before the server has noticed that its old connection is gone).
///
/// With a ``SyncEventRelay`` (several servers on one PostgreSQL store), what happens here is also
/// published to the other servers, and what they publish reaches the streams here: a push on one
/// server wakes the streams of its spaces on every server, and a device revoked anywhere has its
/// streams ended everywhere at once. One thread holds it all while any stream is open: it pings, and
/// in between it waits on the relay's connection (`poll`), never a thread per stream.
final class SyncEvents: Sendable {
    /// The most streams one device holds at once: a phone that reconnects before its old connection
    /// has closed, and a few more.
    static let maximumStreamsPerDevice = 4
    /// The bytes a stream keeps for a reader that does not keep up; past them the stream ends (the
    /// device reconnects and pulls).
    static let streamCapacity = 16 * 1024

    /// One open stream.
    private struct Reader {
        let stream: ServerStream
        let device: String
        let spaces: Set<String>
    }

    private struct State {
        var readers: [Reader] = []
        /// The thread runs (it stops when the last stream has ended).
        var running = false
        /// The newest version told of each space the streams read (the version, and its cursor): what
        /// a stream opening now must not miss, and what a listener that was away compares with.
        var known: [String: (version: Int64, cursor: String)] = [:]
    }

    /// Seconds between two pings of every stream.
    let pingInterval: TimeInterval
    /// This server's ID in what it publishes (`srv_` and 16 hex digits, new at each start).
    let origin: String
    private let state = Mutex(State())
    /// The devices still paired, for the pings; `nil` when the store cannot say now.
    private let pairedDevices: @Sendable () -> Set<String>?
    private let relay: (any SyncEventRelay)?
    private let log: LogManager

    /// Creates the streams of one server.
    /// - Parameters:
    ///   - pingInterval: Seconds between two pings.
    ///   - pairedDevices: The devices still paired (the pings end the streams of the others).
    ///   - relay: The other servers of the store, or `nil` for a server alone.
    ///   - log: Streams ended for a revoked device and the relay's trouble.
    init(
        pingInterval: TimeInterval, pairedDevices: @escaping @Sendable () -> Set<String>?,
        relay: (any SyncEventRelay)? = nil, log: LogManager
    ) {
        self.pingInterval = pingInterval
        self.pairedDevices = pairedDevices
        self.relay = relay
        self.log = log
        var random = SystemRandomNumberGenerator()
        origin = "srv_" + SyncID.hex(count: 8, using: &random)
    }

    /// How many streams are open.
    var count: Int { state.withLock { $0.readers.count } }

    /// Whether a push must say what it changed: streams are open here, or other servers may hold some.
    var isHeard: Bool { relay != nil || count > 0 }

    /// Opens a stream for `device`, which reads the spaces of `versions` (ID → version now), ending
    /// the device's oldest when it holds ``maximumStreamsPerDevice``. A newer version told meanwhile
    /// (between the store's answer and now) follows the first events.
    func open(device: String, versions: [String: String]) -> ServerStream {
        let stream = ServerStream(capacity: Self.streamCapacity)
        var text = "retry: 5000\n\n"
        for (space, version) in versions.sorted(by: { $0.key < $1.key }) {
            text += Self.event(space: space, version: version)
        }
        stream.write(Data(text.utf8))
        let (oldest, newer, start) = state.withLock { state -> (ServerStream?, [String: String], Bool) in
            state.readers.removeAll { $0.stream.isClosed }
            var oldest: ServerStream?
            if state.readers.count(where: { $0.device == device }) >= Self.maximumStreamsPerDevice,
                let index = state.readers.firstIndex(where: { $0.device == device })
            {
                oldest = state.readers.remove(at: index).stream
            }
            state.readers.append(Reader(stream: stream, device: device, spaces: Set(versions.keys)))
            var newer: [String: String] = [:]
            for (space, cursor) in versions {
                let version = SyncEventNotice.version(of: cursor) ?? 0
                if let known = state.known[space], known.version > version {
                    newer[space] = known.cursor
                } else {
                    state.known[space] = (version, cursor)
                }
            }
            defer { state.running = true }
            return (oldest, newer, !state.running)
        }
        for (space, version) in newer.sorted(by: { $0.key < $1.key }) {
            stream.write(Data(Self.event(space: space, version: version).utf8))
        }
        oldest?.end()
        if start { startThread() }
        return stream
    }

    /// A push changed `spaces`: their new `versions` go to every stream that reads them, but those of
    /// `device`, which made the change, here and on the other servers.
    func changed(_ versions: [String: String], except device: String) {
        guard !versions.isEmpty else { return }
        deliver(versions, except: device)
        publish(SyncEventNotice(.changed, origin: origin, device: device, versions: versions))
    }

    /// The members of `space` changed, or it was deleted: its readers get a `spaces` event (they list
    /// their spaces and pull), and the streams of `device` end (it reconnects with its new spaces),
    /// here and on the other servers.
    func membershipChanged(_ space: String?, by device: String) {
        membersChanged(space, by: device)
        publish(SyncEventNotice(.members, origin: origin, device: device, space: space))
    }

    /// Ends the streams of `device` here (it retired, or its token no longer works; a store shared by
    /// several servers tells the others itself).
    func end(device: String) {
        let ended = state.withLock { state in
            let ended = state.readers.filter { $0.device == device }
            state.readers.removeAll { $0.device == device }
            return ended
        }
        guard !ended.isEmpty else { return }
        for reader in ended { reader.stream.end() }
        log.info("Event streams ended", metadata: ["sync.device": device, "sync.streams": "\(ended.count)"])
    }

    /// What another server published: its change, membership or revocation reaches the streams here;
    /// a ``SyncEventNotice/Kind/reread`` reads the versions of their spaces again. This server's own
    /// notices are skipped (it acted on them when it sent them).
    func receive(_ notice: SyncEventNotice) {
        guard notice.origin.isEmpty || notice.origin != origin else { return }
        switch notice.kind {
        case .changed: deliver(notice.versions, except: notice.device)
        case .members: membersChanged(notice.space, by: notice.device)
        case .ended: end(device: notice.device)
        case .reread: reread()
        }
    }

    /// Pings every stream, drops those that are over, and ends those of devices no longer paired.
    /// - Returns: Whether any stream is left (when none is, the thread stops).
    @discardableResult
    func ping(now: Date) -> Bool {
        let paired = pairedDevices()
        let line = Data(": ping \(SyncAPI.timestamp(now))\n\n".utf8)
        let readers = state.withLock { $0.readers }
        for reader in readers {
            if let paired, !paired.contains(reader.device) {
                log.info("Event stream ended: device revoked", metadata: ["sync.device": reader.device])
                reader.stream.end()
            } else {
                reader.stream.write(line)
            }
        }
        return state.withLock { state in
            state.readers.removeAll { $0.stream.isClosed }
            if state.readers.isEmpty {
                state.running = false
                state.known = [:]
            }
            return !state.readers.isEmpty
        }
    }

    /// One `space` event.
    static func event(space: String, version: String) -> String {
        "event: space\ndata: {\"space\":\"\(space)\",\"version\":\"\(version)\"}\n\n"
    }

    // MARK: - Helpers

    /// Writes the `versions` to the streams that read them, but those of `device`, and remembers them.
    private func deliver(_ versions: [String: String], except device: String) {
        let readers = state.withLock { state in
            for (space, cursor) in versions {
                let version = SyncEventNotice.version(of: cursor) ?? 0
                if version >= state.known[space]?.version ?? 0 { state.known[space] = (version, cursor) }
            }
            return state.readers
        }
        for reader in readers where reader.device != device {
            for space in reader.spaces.sorted() {
                guard let version = versions[space] else { continue }
                reader.stream.write(Data(Self.event(space: space, version: version).utf8))
            }
        }
    }

    /// A `spaces` event to the readers of `space`, and the end of the streams of `device`.
    private func membersChanged(_ space: String?, by device: String) {
        let readers = state.withLock { $0.readers }
        for reader in readers {
            if reader.device == device {
                reader.stream.end()
            } else if let space, reader.spaces.contains(space) {
                reader.stream.write(Data("event: spaces\ndata: {}\n\n".utf8))
            }
        }
    }

    /// Sends `notice` to the other servers; a failure is logged (their streams then hear of it at the
    /// next change, or at the devices' next pull).
    private func publish(_ notice: SyncEventNotice) {
        guard let relay else { return }
        do {
            try relay.publish(notice)
        } catch {
            log.warning(
                "Event notice not sent to the other servers",
                metadata: ["sync.event": notice.kind.rawValue, "error": "\(error)"])
        }
    }

    /// Reads the versions of every space the streams read and sends those newer than the last told
    /// (what the other servers published while the listener was away), and ends the streams of
    /// devices revoked meanwhile.
    private func reread() {
        guard let relay else { return }
        let spaces = state.withLock { Set($0.readers.flatMap(\.spaces)) }
        guard !spaces.isEmpty else { return }
        do {
            let current = try relay.versions(of: spaces)
            let moved = state.withLock { state in
                current.filter { space, cursor in
                    (SyncEventNotice.version(of: cursor) ?? 0) > state.known[space]?.version ?? 0
                }
            }
            if !moved.isEmpty { deliver(moved, except: "") }
        } catch {
            log.warning("Event stream versions not read again", metadata: ["error": "\(error)"])
        }
        guard let paired = pairedDevices() else { return }
        let revoked = Set(state.withLock { $0.readers.map(\.device) }).subtracting(paired)
        for device in revoked.sorted() {
            log.info("Event stream ended: device revoked", metadata: ["sync.device": device])
            end(device: device)
        }
    }

    /// Whether no stream is left (then the thread stops, and the next stream starts it again).
    private func stopIfNone() -> Bool {
        state.withLock { state in
            guard state.readers.isEmpty else { return false }
            state.running = false
            state.known = [:]
            return true
        }
    }

    /// Pings, and listens to the other servers in between, on a thread of its own while any stream is
    /// open.
    private func startThread() {
        DetachedThread.start(name: "praykit-sync-events") { [self] in
            let listener = relay?.listener()
            defer { listener?.close() }
            var nextPing = Date().addingTimeInterval(pingInterval)
            while true {
                let now = Date()
                if now >= nextPing {
                    guard ping(now: now) else { return }
                    nextPing = now.addingTimeInterval(pingInterval)
                }
                let wait = max(0, nextPing.timeIntervalSince(Date()))
                if let listener {
                    for notice in listener.receive(timeout: wait) { receive(notice) }
                    // Every stream ended (retired, revoked): no need to listen until the next ping.
                    guard !stopIfNone() else { return }
                } else {
                    DetachedThread.sleep(seconds: wait)
                }
            }
        }
    }
}
