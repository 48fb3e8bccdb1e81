import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The connections open from each client, counted by address key
/// (``ServerAPI/Configuration/addressKey(_:)``: an IPv4 address, or an IPv6 address's /64), for the
/// limit per address (``ServerAPI/Configuration/connectionLimitPerAddress``). libmicrohttpd's own
/// limit counts each IPv6 address apart, so a client with a /64 — every home and phone — could open
/// the limit once per address it picks; this one counts the /64 once.
///
/// A connection is ``admits(_:)``-checked as it is accepted (a client at its limit is closed before
/// anything is read), then counted from ``opened(_:)`` to ``closed(_:)``.
///
/// ```swift
/// let counts = ServerConnectionCounts(limit: 2)
/// counts.opened("2001:db8::1"); counts.opened("2001:db8::2")
/// counts.admits("2001:db8::3")   // false: the same /64 has two
/// ```
final class ServerConnectionCounts: Sendable {
    /// The most connections open at once per key; 0 for no limit.
    let limit: Int
    private let counts = Mutex<[String: Int]>([:])

    /// Creates the counts.
    /// - Parameter limit: The most connections open at once per key; 0 for no limit.
    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Whether a connection just accepted from `address` may be taken: its key has fewer than the
    /// limit open.
    func admits(_ address: String) -> Bool {
        guard limit > 0 else { return true }
        let key = ServerAPI.Configuration.addressKey(address)
        return counts.withLock { ($0[key] ?? 0) < limit }
    }

    /// Counts a connection that opened from `address`.
    /// - Returns: Its key, for ``closed(_:)``, and whether it is within the limit (two accepted at once
    ///   may both have passed ``admits(_:)``: the later is over it and must be closed).
    func opened(_ address: String) -> (key: String, withinLimit: Bool) {
        let key = ServerAPI.Configuration.addressKey(address)
        let count = counts.withLock { counts in
            counts[key, default: 0] += 1
            return counts[key] ?? 0
        }
        return (key, limit == 0 || count <= limit)
    }

    /// Counts a connection of `key` that closed.
    func closed(_ key: String) {
        counts.withLock { counts in
            let left = (counts[key] ?? 1) - 1
            counts[key] = left > 0 ? left : nil
        }
    }

    /// The connections open for the key of `address`.
    func count(_ address: String) -> Int {
        counts.withLock { $0[ServerAPI.Configuration.addressKey(address)] ?? 0 }
    }
}
