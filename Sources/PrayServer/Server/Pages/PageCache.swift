import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The answers of published mosques' models and feeds, kept while they cannot have changed: an answer
/// is made from the space's rows at one version, on one day in the mosque's zone, so it is kept under
/// the space, its version, the page and its query, and the quarter of an hour it was made in (every
/// zone's midnight falls on a quarter of an hour, so a new day is a new key). A push gives the space a
/// new version, and the next request makes its answers again; a request for an answer kept reads the
/// store once (the version) and computes nothing — a feed fetched again by ten thousand calendars, or
/// its `304`, costs a query.
///
/// At most ``maximumBytes`` of answers are kept: past them, those of earlier quarters go first, then
/// the oldest.
final class PageCache: Sendable {
    /// What an answer is kept under.
    struct Key: Hashable {
        let space: String
        let version: Int64
        let page: String
        let query: String
        let quarter: Int64
    }

    private struct Entry {
        let response: ServerAPI.Response
        let order: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var next = 0
    }

    /// The most bytes of answers kept.
    let maximumBytes: Int
    private let state = Mutex(State())

    /// Creates an empty cache.
    init(maximumBytes: Int = 16 * 1024 * 1024) {
        self.maximumBytes = maximumBytes
    }

    /// The key of `page` of `space` with `query`, now.
    static func key(space: SyncPublishedSpace, page: String, query: ServerAPI.Fields, now: Date) -> Key {
        Key(
            space: space.id, version: space.version, page: page,
            // Each name and value after its length: no value can pass for a separator and another
            // parameter (`lang=ar%26month%3D2027-02` is not `lang=ar&month=2027-02`).
            query: query.sorted { $0.key < $1.key }.map {
                "\($0.key.utf8.count):\($0.key)=\($0.value.utf8.count):\($0.value)"
            }
            .joined(separator: " "),
            quarter: Int64((now.timeIntervalSince1970 / 900).rounded(.down)))
    }

    /// The answer kept under `key`, if any.
    func answer(_ key: Key) -> ServerAPI.Response? {
        state.withLock { $0.entries[key]?.response }
    }

    /// Keeps `response` (a `200`) under `key`.
    func keep(_ response: ServerAPI.Response, under key: Key) {
        guard response.status == 200, response.body.count <= maximumBytes / 4 else { return }
        state.withLock { state in
            if let old = state.entries[key] { state.bytes -= old.response.body.count }
            state.entries[key] = Entry(response: response, order: state.next)
            state.next += 1
            state.bytes += response.body.count
            guard state.bytes > maximumBytes else { return }
            for (old, entry) in state.entries where old.quarter < key.quarter {
                state.entries[old] = nil
                state.bytes -= entry.response.body.count
            }
            for (old, entry) in state.entries.sorted(by: { $0.value.order < $1.value.order })
            where state.bytes > maximumBytes {
                state.entries[old] = nil
                state.bytes -= entry.response.body.count
            }
        }
    }

    /// How many answers are kept.
    var count: Int { state.withLock { $0.entries.count } }
}
