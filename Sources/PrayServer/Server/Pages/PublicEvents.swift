import Dispatch
import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The public event streams of published mosques, which say only that a mosque changed — no row,
/// nothing secret — so that an open page fetches its model again, and that it is no longer published:
///
/// - `GET /m/<slug>/events` (``Kind/version``): `event: version` with the space's version now, and
///   again each time it grows;
/// - `GET /m/<slug>/display/events` (``Kind/model``): the screen's own events, as `/display/events`
///   sends them on the screen's machine — `event: model` with the tag (`ETag`) of the screen's model
///   now, and again each time it is another (the mosque changed, or a new day began): the published
///   screen fetches its model when the tag is not the one it holds.
///
/// Both begin with `retry: 5000`, and end with `event: gone` when the mosque is no longer published.
/// While any stream is open, a thread of its own looks at the version of each mosque followed — one
/// read of the store per mosque, whatever the number of streams — every ``pollInterval``, and at once
/// when this server's sync endpoints have just written the store (``nudge()``) or, with a PostgreSQL
/// store, when any server of the store says it wrote it (its `LISTEN`), and works the model's tag out
/// again (from the kept answers: ``PageCache``) when the version grew and at every ping. The look
/// reads the store rather than trusting what it heard: a change the relay did not carry (an
/// unpublication, `praykit serve sync …` in another process) arrives at the next poll. Every
/// ``pingInterval`` each stream gets a comment line, which also finds the streams whose reader is gone. At most ``maximumStreams`` are open at once; the server's per-address connection
/// limit bounds what one address holds.
final class PublicEvents: Sendable {
    /// The most public streams open at once.
    static let maximumStreams = 10_000
    /// The bytes a stream keeps for a reader that does not keep up.
    static let streamCapacity = 4 * 1024

    /// What a stream says.
    enum Kind: Sendable {
        /// `event: version`, the space's version.
        case version
        /// `event: model`, the tag of the screen's model (as `/display/events`).
        case model
    }

    private struct Listener {
        let stream: ServerStream
        let slug: String
        let kind: Kind
        /// The tag a ``Kind/model`` stream was last told.
        var tag: String?
    }

    private struct State {
        var listeners: [Listener] = []
        var versions: [String: Int64] = [:]
        var running = false
        var sincePing: TimeInterval = 0
    }

    /// Seconds between two looks at the versions.
    let pollInterval: TimeInterval
    /// Seconds between two pings.
    let pingInterval: TimeInterval
    private let version: @Sendable (String) throws -> Int64?
    private let modelTag: @Sendable (String) -> String?
    /// The other servers of the store (PostgreSQL), or `nil` for a server alone.
    private let relay: (any SyncEventRelay)?
    private let state = Mutex(State())
    /// Signalled by ``nudge()``: the thread looks before its poll interval is over.
    private let wake = DispatchSemaphore(value: 0)
    private let log: LogManager

    /// Creates the streams.
    /// - Parameters:
    ///   - pollInterval: Seconds between two looks at the versions.
    ///   - pingInterval: Seconds between two pings.
    ///   - version: The version of the mosque published at a slug, `nil` when none is.
    ///   - modelTag: The tag of the screen's model of the mosque published at a slug, `nil` when there
    ///     is none.
    ///   - relay: The other servers of the store (PostgreSQL): what any of them publishes (a push,
    ///     a change of members) makes the thread look at once, between its polls.
    ///   - log: Where a failed look is logged.
    init(
        pollInterval: TimeInterval, pingInterval: TimeInterval, version: @escaping @Sendable (String) throws -> Int64?,
        modelTag: @escaping @Sendable (String) -> String?, relay: (any SyncEventRelay)? = nil, log: LogManager
    ) {
        self.pollInterval = pollInterval
        self.pingInterval = pingInterval
        self.version = version
        self.modelTag = modelTag
        self.relay = relay
        self.log = log
    }

    /// How many streams are open.
    var count: Int { state.withLock { $0.listeners.count } }

    /// Opens a stream of `kind` of the mosque at `slug`, now at `version`; `nil` when
    /// ``maximumStreams`` are open.
    func open(slug: String, version: Int64, kind: Kind) -> ServerStream? {
        let stream = ServerStream(capacity: Self.streamCapacity)
        let tag = kind == .model ? modelTag(slug) : nil
        let first = kind == .model ? tag.map(Self.modelEvent) ?? "" : Self.event(version)
        stream.write(Data(("retry: 5000\n\n" + first).utf8))
        let start = state.withLock { state -> Bool? in
            state.listeners.removeAll { $0.stream.isClosed }
            guard state.listeners.count < Self.maximumStreams else { return nil }
            state.listeners.append(Listener(stream: stream, slug: slug, kind: kind, tag: tag))
            state.versions[slug] = max(state.versions[slug] ?? version, version)
            defer { state.running = true }
            return !state.running
        }
        guard let start else { return nil }
        if start { startPolling() }
        return stream
    }

    /// Looks at the version of every mosque followed, writes what changed, pings when it is time, and
    /// drops the streams that are over.
    /// - Parameter elapsed: Seconds since the last look.
    /// - Returns: Whether any stream is left.
    @discardableResult
    func look(elapsed: TimeInterval) -> Bool {
        let (slugs, known) = state.withLock { state in
            (Set(state.listeners.map(\.slug)), state.versions)
        }
        var now: [String: Int64?] = [:]
        for slug in slugs {
            do {
                now[slug] = .some(try version(slug))
            } catch {
                // The store is busy or away: the next look tries again.
                log.warning("Public events: a version could not be read", metadata: ["error": "\(error)"])
            }
        }
        let (listeners, ping) = state.withLock { state -> ([Listener], Bool) in
            state.sincePing += elapsed
            let ping = state.sincePing >= pingInterval
            if ping { state.sincePing = 0 }
            for (slug, version) in now { state.versions[slug] = version ?? -1 }
            return (state.listeners, ping)
        }
        // The model's tag of each mosque a screen follows, when it may have changed: a new version, or
        // a ping (a new day changes the model without a version).
        var tags: [String: String] = [:]
        for slug in Set(listeners.filter { $0.kind == .model }.map(\.slug)) {
            guard case .some(.some(let version)) = now[slug], ping || version != known[slug] else { continue }
            tags[slug] = modelTag(slug)
        }
        var told: [(ServerStream, String)] = []
        for listener in listeners {
            guard let read = now[listener.slug] else { continue }
            guard let version = read else {
                listener.stream.write(Data("event: gone\ndata: {}\n\n".utf8))
                listener.stream.end()
                continue
            }
            switch listener.kind {
            case .version:
                if version != known[listener.slug] { listener.stream.write(Data(Self.event(version).utf8)) }
            case .model:
                if let tag = tags[listener.slug], tag != listener.tag {
                    listener.stream.write(Data(Self.modelEvent(tag).utf8))
                    told.append((listener.stream, tag))
                }
            }
        }
        if !told.isEmpty {
            state.withLock { state in
                for index in state.listeners.indices {
                    if let tag = told.first(where: { $0.0 === state.listeners[index].stream })?.1 {
                        state.listeners[index].tag = tag
                    }
                }
            }
        }
        if ping {
            for listener in listeners { listener.stream.write(Data(": ping\n\n".utf8)) }
        }
        return state.withLock { state in
            state.listeners.removeAll { $0.stream.isClosed }
            let following = Set(state.listeners.map(\.slug))
            state.versions = state.versions.filter { following.contains($0.key) }
            if state.listeners.isEmpty { state.running = false }
            return !state.listeners.isEmpty
        }
    }

    /// Ends every open stream; the thread stops at its next look.
    func endAll() {
        let listeners = state.withLock { state in
            defer { state.listeners = [] }
            return state.listeners
        }
        for listener in listeners { listener.stream.end() }
    }

    /// The store may have changed (this server's sync endpoints wrote it): the thread looks now, when
    /// any stream is open. Several nudges before the look make one look.
    func nudge() {
        guard state.withLock({ $0.running }) else { return }
        wake.signal()
    }

    /// One `version` event.
    static func event(_ version: Int64) -> String {
        "event: version\ndata: {\"version\":\"\(version)\"}\n\n"
    }

    /// One `model` event: the model's tag, as the screen's own stream writes it (``DisplayEvents``).
    static func modelEvent(_ tag: String) -> String {
        DisplayEvents.event(tag)
    }

    /// Looks on a thread of its own while any stream is open: every ``pollInterval``, or sooner when
    /// nudged.
    private func startPolling() {
        DetachedThread.start(name: "praykit-public-events") { [self] in
            // With other servers on the store, a push through any of them (this one's too) is published
            // through it: hearing it ends the wait. Alone, this server's own pushes nudge the thread.
            let listener = relay?.listener()
            defer { listener?.close() }
            var open = true
            var last = DispatchTime.now()
            while open {
                if let listener {
                    _ = listener.receive(timeout: pollInterval)
                } else {
                    _ = wake.wait(timeout: .now() + pollInterval)
                }
                // Nudges that came meanwhile are answered by this one look.
                while wake.wait(timeout: .now()) == .success {}
                let now = DispatchTime.now()
                open = look(elapsed: Double(now.uptimeNanoseconds - last.uptimeNanoseconds) / 1e9)
                last = now
            }
        }
    }
}
