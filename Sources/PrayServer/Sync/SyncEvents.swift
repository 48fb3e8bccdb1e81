import Foundation
import PrayCore
import Synchronization

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
final class SyncEvents: Sendable {
    /// The most streams one device holds at once: a phone that reconnects before its old connection
    /// has closed, and a few more.
    static let maximumStreamsPerDevice = 4
    /// The bytes a stream keeps for a reader that does not keep up; past them the stream ends (the
    /// device reconnects and pulls).
    static let streamCapacity = 16 * 1024

    private struct Listener {
        let stream: ServerStream
        let device: String
        let spaces: Set<String>
    }

    private struct State {
        var listeners: [Listener] = []
        var pinging = false
    }

    /// Seconds between two pings of every stream.
    let pingInterval: TimeInterval
    private let state = Mutex(State())
    /// The devices still paired, for the pings; `nil` when the store cannot say now.
    private let pairedDevices: @Sendable () -> Set<String>?
    private let log: LogManager

    init(pingInterval: TimeInterval, pairedDevices: @escaping @Sendable () -> Set<String>?, log: LogManager) {
        self.pingInterval = pingInterval
        self.pairedDevices = pairedDevices
        self.log = log
    }

    /// How many streams are open.
    var count: Int { state.withLock { $0.listeners.count } }

    /// Opens a stream for `device`, which reads the spaces of `versions` (ID → version now), ending
    /// the device's oldest when it holds ``maximumStreamsPerDevice``.
    func open(device: String, versions: [String: String]) -> ServerStream {
        let stream = ServerStream(capacity: Self.streamCapacity)
        var text = "retry: 5000\n\n"
        for (space, version) in versions.sorted(by: { $0.key < $1.key }) {
            text += Self.event(space: space, version: version)
        }
        stream.write(Data(text.utf8))
        let (oldest, startPings) = state.withLock { state -> (ServerStream?, Bool) in
            state.listeners.removeAll { $0.stream.isClosed }
            var oldest: ServerStream?
            if state.listeners.count(where: { $0.device == device }) >= Self.maximumStreamsPerDevice,
                let index = state.listeners.firstIndex(where: { $0.device == device })
            {
                oldest = state.listeners.remove(at: index).stream
            }
            state.listeners.append(Listener(stream: stream, device: device, spaces: Set(versions.keys)))
            defer { state.pinging = true }
            return (oldest, !state.pinging)
        }
        oldest?.end()
        if startPings { startPinging() }
        return stream
    }

    /// A push changed `spaces`: their new `versions` go to every stream that reads them, but those of
    /// `device`, which made the change.
    func changed(_ versions: [String: String], except device: String) {
        let listeners = state.withLock { $0.listeners }
        for listener in listeners where listener.device != device {
            for space in listener.spaces.sorted() {
                guard let version = versions[space] else { continue }
                listener.stream.write(Data(Self.event(space: space, version: version).utf8))
            }
        }
    }

    /// The members of `space` changed, or it was deleted: its readers get a `spaces` event (they list
    /// their spaces and pull), and the streams of `device` end (it reconnects with its new spaces).
    func membershipChanged(_ space: String?, by device: String) {
        let listeners = state.withLock { $0.listeners }
        for listener in listeners {
            if listener.device == device {
                listener.stream.end()
            } else if let space, listener.spaces.contains(space) {
                listener.stream.write(Data("event: spaces\ndata: {}\n\n".utf8))
            }
        }
    }

    /// Ends the streams of `device` (it retired, or its token no longer works).
    func end(device: String) {
        let ended = state.withLock { state in
            let ended = state.listeners.filter { $0.device == device }
            state.listeners.removeAll { $0.device == device }
            return ended
        }
        for listener in ended { listener.stream.end() }
    }

    /// Pings every stream, drops those that are over, and ends those of devices no longer paired.
    /// - Returns: Whether any stream is left.
    @discardableResult
    func ping(now: Date) -> Bool {
        let paired = pairedDevices()
        let line = Data(": ping \(SyncAPI.timestamp(now))\n\n".utf8)
        let listeners = state.withLock { $0.listeners }
        for listener in listeners {
            if let paired, !paired.contains(listener.device) {
                log.info("Event stream ended: device revoked", metadata: ["sync.device": listener.device])
                listener.stream.end()
            } else {
                listener.stream.write(line)
            }
        }
        return state.withLock { state in
            state.listeners.removeAll { $0.stream.isClosed }
            if state.listeners.isEmpty { state.pinging = false }
            return !state.listeners.isEmpty
        }
    }

    /// One `space` event.
    static func event(space: String, version: String) -> String {
        "event: space\ndata: {\"space\":\"\(space)\",\"version\":\"\(version)\"}\n\n"
    }

    /// Pings on a thread of its own while any stream is open.
    private func startPinging() {
        let thread = Thread { [self] in
            var open = true
            while open {
                Thread.sleep(forTimeInterval: pingInterval)
                open = ping(now: Date())
            }
        }
        thread.name = "praykit-sync-events"
        thread.start()
    }
}
