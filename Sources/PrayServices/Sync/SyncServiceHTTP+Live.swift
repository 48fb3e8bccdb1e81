import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Live updates (SYNC.md §9, docs/sync-protocol.md § Events): the event stream held while online, a
// pull for each change it announces, a reconnect with a jittered backoff when it closes.
extension SyncServiceHTTP {
    /// Seconds of silence (about two pings) after which the stream counts as lost.
    static let liveSilence: TimeInterval = 60

    /// The live updates: see ``SyncService/live()``.
    public func live() -> AsyncStream<SyncLiveEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SyncLiveEvent.self)
        let task = Task { [self] in
            await runLive { continuation.yield($0) }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Holds the stream until the task is cancelled, telling `emit` what happens. Returns at once when
    /// the network service cannot stream.
    func runLive(_ emit: @escaping @Sendable (SyncLiveEvent) -> Void) async {
        guard network.supportsStreams else { return }
        var failures = 0
        while !Task.isCancelled {
            let wait: TimeInterval?
            do {
                let session = try openSession()
                try await listen(session, emit: emit)
                failures = 0
                wait = Self.backoff(failures: 1)
                closeLive("the server ended the stream", wait: wait, emit: emit)
            } catch let error as SyncError where Self.waitsForThePerson(error.kind) {
                wait = nil
                closeLive(error.message, wait: nil, emit: emit)
            } catch {
                if Task.isCancelled { break }
                if let error = error as? NetworkError, error.status == 401 {
                    // A cycle records that the server no longer accepts this device, as it always does.
                    _ = try? await syncNow()
                }
                failures += 1
                wait = Self.backoff(failures: failures)
                closeLive(Self.liveReason(error), wait: wait, emit: emit)
            }
            // A device that must act (log in again) is asked again every interval, in case it did.
            do { try await clock.sleep(for: wait ?? interval) } catch { break }
        }
        closeLive(nil, wait: nil, emit: nil)
    }

    /// One stream: opens it, pulls once (what the versions it begins with may say was missed), then
    /// once for each change after the last pull began. Returns when the server ends the stream.
    private func listen(_ session: Session, emit: @escaping @Sendable (SyncLiveEvent) -> Void) async throws {
        let url = session.server.appendingPathComponent("sync/v1/events")
        let request = HTTPRequest(
            url: url, headers: ["Authorization": "Bearer \(session.token)", "Accept": "text/event-stream"])
        let parser = SyncEventParser()
        let (events, arrivals) = AsyncStream.makeStream(of: SyncEventParser.Event.self)
        let reading = Task { [network] in
            defer { arrivals.finish() }
            return try await network.stream(request, idleTimeout: Self.liveSilence) { piece in
                for event in parser.feed(piece) { arrivals.yield(event) }
                return true
            }
        }
        defer { reading.cancel() }
        var pulledThrough = -1
        for await event in events {
            switch event.kind {
            case .opened:
                let now = clock.now()
                setLive(since: now)
                emit(.connected(at: now))
            case .space, .spaces:
                guard event.sequence > pulledThrough else { continue }
                pulledThrough = parser.sequence
                let report = try await syncNow()
                if report.received > 0 || !report.gone.isEmpty { emit(.arrived(report)) }
            }
        }
        _ = try await reading.value
    }

    /// Records that the stream closed (`reason`), and tells `emit`.
    private func closeLive(_ reason: String?, wait: TimeInterval?, emit: (@Sendable (SyncLiveEvent) -> Void)?) {
        try? database.write { connection in
            try SyncJournal.set(.live, nil, connection)
            if let reason { try SyncJournal.set(.liveError, reason, connection) }
        }
        if let reason, let emit { emit(.disconnected(reason: reason, retryIn: wait)) }
    }

    /// Records that this process holds the stream since `date`.
    private func setLive(since date: Date) {
        let value = "\(Int64((date.timeIntervalSince1970 * 1000).rounded())) \(getpid())"
        try? database.write { connection in
            try SyncJournal.set(.live, value, connection)
            try SyncJournal.set(.liveError, nil, connection)
        }
    }

    /// The instant of a `live` record whose process still runs.
    static func liveSince(_ record: String?) -> Date? {
        guard let parts = record?.split(separator: " "), parts.count == 2, let milliseconds = Int64(parts[0]),
            let process = Int32(parts[1]), process > 0
        else { return nil }
        guard kill(process, 0) == 0 || errno == EPERM else { return nil }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// 2, 4, 8… seconds up to a minute, each between half and all of it (so that devices cut off
    /// together do not come back together).
    static func backoff(failures: Int) -> TimeInterval {
        let ceiling = min(60, pow(2, Double(min(max(failures, 1), 6))))
        return ceiling * Double.random(in: 0.5...1)
    }

    /// Why a stream closed, in words.
    static func liveReason(_ error: any Error) -> String {
        if let error = error as? NetworkError {
            switch error.kind {
            case .timeout: return "the server was silent for \(Int(liveSilence)) s"
            case .status where error.status == 401: return "the server no longer accepts this device"
            case .status: return "the server answered \(error.status ?? 0)"
            default: return "the server cannot be reached (\(error.message))"
            }
        }
        if let error = error as? SyncError { return error.message }
        return "\(error)"
    }
}

/// Reads server-sent events from the pieces of a stream: an `opened` event at its first block, then a
/// `space` or `spaces` event for each whole event (comments and other fields are skipped), each with
/// its place in the order of arrival.
final class SyncEventParser: Sendable {
    /// An event of the stream.
    struct Event: Sendable {
        enum Kind: Sendable { case opened, space, spaces }
        let kind: Kind
        /// Its place in the order of arrival, from 0.
        let sequence: Int
    }

    private struct State {
        /// The line being read, its bytes.
        var line: [UInt8] = []
        /// The lines of the event being read.
        var lines: [String] = []
        /// The last byte was a CR: an LF right after it ends nothing more.
        var afterCR = false
        var opened = false
        var count = 0
    }

    private let state = Mutex(State())

    /// How many events arrived, less one (the place of the last).
    var sequence: Int { state.withLock { $0.count - 1 } }

    /// The events that `piece` completes. Lines end at CRLF, LF or CR, wherever the pieces split them;
    /// an empty line ends an event.
    func feed(_ piece: Data) -> [Event] {
        state.withLock { state in
            var events: [Event] = []
            for byte in piece {
                if state.afterCR {
                    state.afterCR = false
                    if byte == 0x0A { continue }
                }
                guard byte == 0x0A || byte == 0x0D else {
                    // A line that never ends must not grow without bound.
                    if state.line.count < 64 * 1024 { state.line.append(byte) }
                    continue
                }
                state.afterCR = byte == 0x0D
                if state.line.isEmpty {
                    if let event = Self.event(state.lines, &state) { events += event }
                    state.lines = []
                } else {
                    state.lines.append(String(decoding: state.line, as: UTF8.self))
                    state.line = []
                }
            }
            return events
        }
    }

    /// The events one block of lines makes: `opened` at the first block of the protocol (not at an
    /// error's body), then its `space` or `spaces` event, if it is one.
    private static func event(_ lines: [String], _ state: inout State) -> [Event]? {
        guard !lines.isEmpty else { return nil }
        var events: [Event] = []
        if !state.opened, lines.contains(where: { $0.hasPrefix("retry:") || $0.hasPrefix("event:") }) {
            state.opened = true
            events.append(Event(kind: .opened, sequence: state.count))
            state.count += 1
        }
        let name = lines.first { $0.hasPrefix("event:") }.map {
            $0.dropFirst("event:".count).trimmingWhitespace()
        }
        let kind: Event.Kind? =
            switch name {
            case "space": .space
            case "spaces": .spaces
            default: nil
            }
        if let kind {
            events.append(Event(kind: kind, sequence: state.count))
            state.count += 1
        }
        return events
    }
}
