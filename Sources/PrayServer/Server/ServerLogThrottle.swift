import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How often the server logs what clients cause — a malformed `Content-Length`, a head too large, a
/// client gone mid-answer, libmicrohttpd's own words about such things: at most one line per kind and
/// client address (``ServerAPI/Configuration/addressKey(_:)``) in each ``interval`` of the injected
/// clock; the next line of that kind and address then says how many were left out
/// (`log.suppressed`). A client that sends a thousand bad requests a second costs the log one line a
/// minute, and the operator still sees that it happened and how often.
///
/// The table is bounded (``maximumKeys``): when it is full, the kinds and addresses whose interval
/// ended are dropped, and if it is still full, the addresses of a kind share one key.
///
/// ```swift
/// let throttle = ServerLogThrottle(clock: clock)
/// if let suppressed = throttle.admit("content-length", address: "192.0.2.7") {
///     log.warning("Bad Content-Length", metadata: ["log.suppressed": "\(suppressed)"])
/// }
/// ```
final class ServerLogThrottle: Sendable {
    /// The clock the intervals are counted on.
    let clock: any PrayClock
    /// Seconds between two lines of one kind and address.
    let interval: TimeInterval
    /// The most kinds and addresses remembered at once.
    let maximumKeys: Int
    private let state = Mutex<State>(State())

    private struct State {
        var entries: [String: (start: Date, suppressed: Int)] = [:]
        var totalSuppressed = 0
    }

    /// Creates a throttle.
    /// - Parameters:
    ///   - clock: The clock the intervals are counted on.
    ///   - interval: Seconds between two lines of one kind and address; a minute by default.
    ///   - maximumKeys: The most kinds and addresses remembered at once.
    init(clock: any PrayClock, interval: TimeInterval = 60, maximumKeys: Int = 4096) {
        self.clock = clock
        self.interval = interval
        self.maximumKeys = max(1, maximumKeys)
    }

    /// Counts one event of `kind` from `address`: `nil` when it is not to be logged (one of its kind
    /// and address was, less than ``interval`` ago), else the number of its kind and address left out
    /// since the last line (0 for none), for that line to say.
    func admit(_ kind: String, address: String) -> Int? {
        let now = clock.now()
        let interval = interval
        let maximumKeys = maximumKeys
        var key = kind + " " + ServerAPI.Configuration.addressKey(address)
        return state.withLock { state in
            if state.entries[key] == nil, state.entries.count >= maximumKeys {
                state.entries = state.entries.filter { now.timeIntervalSince($0.value.start) < interval }
                if state.entries.count >= maximumKeys { key = kind + " (many addresses)" }
            }
            if let entry = state.entries[key], now >= entry.start, now.timeIntervalSince(entry.start) < interval {
                state.entries[key]?.suppressed += 1
                state.totalSuppressed += 1
                return nil
            }
            let suppressed = state.entries[key]?.suppressed ?? 0
            state.entries[key] = (now, 0)
            return suppressed
        }
    }

    /// Every event left out since the start.
    var totalSuppressed: Int { state.withLock { $0.totalSuppressed } }
}
