import Dispatch
import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The screen's event stream (`GET /display/events`): server-sent events that tell an open page its
/// model changed, so that an iqama an editor moved — brought by sync into this machine's database —
/// is on the screen within seconds, without a reload. Each event carries only the model's tag (its
/// `ETag`); the page fetches `/display.json` again when the tag is not the one it holds.
///
/// A stream begins with `retry: 5000` and the model's tag now, so a page that reconnects (the
/// server restarted, the network came back) learns at once whether it missed a change. The model is
/// checked again after every change of the preferences or of the chosen mosque
/// (``PreferencesStore/preferencesSequence()`` and ``MosqueTimetableStore/mosqueSequence(named:)``:
/// a write of this process — the sync that `serve --display` runs — or of another on the same
/// database), and at every ping (``pingInterval``), which also drops the streams whose page is gone.
/// Streams are libmicrohttpd's suspended connections (``ServerStream``), as the sync server's: an
/// open page costs a socket and a few KB, never a thread.
final class DisplayEvents: Sendable {
    /// The bytes a stream keeps for a page that does not read; past them the stream ends (the page
    /// reconnects and fetches).
    static let streamCapacity = 16 * 1024
    /// The most streams open at once: a screen holds one; a few tabs and a test more. A new one past
    /// the limit ends the oldest.
    static let maximumStreams = 32

    private struct Listener {
        let stream: ServerStream
        /// The tag this stream was last told.
        var tag: String?
    }

    private struct State {
        var listeners: [Listener] = []
        /// The watch of the stores and the pings, while any stream is open.
        var watch: Task<Void, Never>?
        var timer: (any DispatchSourceTimer)?
    }

    /// Seconds between two pings of every stream (a comment line).
    let pingInterval: TimeInterval
    private let state = Mutex(State())
    /// Where the tag is worked out, one check at a time.
    private let queue = WorkQueue(label: "org.praykit.display")
    /// The model's tag now, or `nil` when it cannot be made (the failure is the model's to log).
    private let currentTag: @Sendable () -> String?
    private let preferences: any PreferencesStore
    private let mosques: any MosqueTimetableStore

    init(
        pingInterval: TimeInterval, preferences: any PreferencesStore, mosques: any MosqueTimetableStore,
        currentTag: @escaping @Sendable () -> String?
    ) {
        self.pingInterval = pingInterval
        self.preferences = preferences
        self.mosques = mosques
        self.currentTag = currentTag
    }

    /// How many streams are open.
    var count: Int { state.withLock { $0.listeners.count(where: { !$0.stream.isClosed }) } }

    /// Opens a stream that begins with the model's tag now, ending the oldest past ``maximumStreams``,
    /// and starts watching the stores with the first.
    func open() -> ServerStream {
        let stream = ServerStream(capacity: Self.streamCapacity)
        let tag = currentTag()
        stream.write(Data(("retry: 5000\n\n" + (tag.map(Self.event) ?? "")).utf8))
        let (oldest, start) = state.withLock { state -> (ServerStream?, Bool) in
            state.listeners.removeAll { $0.stream.isClosed }
            let oldest = state.listeners.count >= Self.maximumStreams ? state.listeners.removeFirst().stream : nil
            state.listeners.append(Listener(stream: stream, tag: tag))
            return (oldest, state.watch == nil)
        }
        oldest?.end()
        if start { startWatching() }
        return stream
    }

    /// Ends every stream and stops watching (a server that stops, a test).
    func endAll() {
        let (listeners, watch) = state.withLock { state in
            defer {
                state.listeners = []
                state.watch = nil
                // Cancelling calls nothing back: no handler runs under the lock.
                state.timer?.cancel()
                state.timer = nil
            }
            return (state.listeners, state.watch)
        }
        watch?.cancel()
        for listener in listeners { listener.stream.end() }
    }

    /// Works the tag out again and tells every stream that was told another.
    func recheck() {
        queue.submit { [self] in
            guard let tag = currentTag() else { return }
            let due = state.withLock { state -> [ServerStream] in
                var due: [ServerStream] = []
                for index in state.listeners.indices where state.listeners[index].tag != tag {
                    state.listeners[index].tag = tag
                    due.append(state.listeners[index].stream)
                }
                return due
            }
            let text = Data(Self.event(tag).utf8)
            for stream in due { stream.write(text) }
        }
    }

    /// Pings every stream, drops those that are over, and stops watching when none is left.
    func ping() {
        let listeners = state.withLock { $0.listeners }
        let line = Data(": ping\n\n".utf8)
        for listener in listeners { listener.stream.write(line) }
        let stopped = state.withLock { state -> Task<Void, Never>?? in
            state.listeners.removeAll { $0.stream.isClosed }
            guard state.listeners.isEmpty else { return nil }
            defer {
                state.watch = nil
                state.timer?.cancel()
                state.timer = nil
            }
            return .some(state.watch)
        }
        guard let stopped else {
            // A change the stores' sequences could not see (a new day) is found here at the latest.
            recheck()
            return
        }
        stopped?.cancel()
    }

    /// One `model` event: `{"etag": "\"…\""}`.
    static func event(_ tag: String) -> String {
        let escaped = tag.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
        return "event: model\ndata: {\"etag\":\"\(escaped)\"}\n\n"
    }

    /// Watches the preferences and the chosen mosque (the mosque's sequence is followed again when
    /// another is chosen), and pings on a timer of the queue.
    private func startWatching() {
        let watch = Task { [self, preferences, mosques] in
            var chosen: String?? = .none
            var mosqueWatch: Task<Void, Never>?
            for await saved in preferences.preferencesSequence() {
                if chosen != .some(saved[.mosque]) {
                    chosen = .some(saved[.mosque])
                    mosqueWatch?.cancel()
                    mosqueWatch = saved[.mosque].map { name in
                        Task { [self] in
                            for await _ in mosques.mosqueSequence(named: name) { recheck() }
                        }
                    }
                }
                recheck()
            }
            mosqueWatch?.cancel()
        }
        let started = state.withLock { state -> Bool in
            // Another stream may have started the watch meanwhile; the first one stays.
            guard state.watch == nil else { return false }
            state.watch = watch
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + pingInterval, repeating: pingInterval)
            timer.setEventHandler { [weak self] in self?.ping() }
            timer.resume()
            state.timer = timer
            return true
        }
        if !started { watch.cancel() }
    }
}
