import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The devices seen since their last-seen time was last written, waiting to be written together.
///
/// A device's requests are authenticated by reading; when its last-seen time is a minute old or more,
/// the request notes the device here, and the first request to find nobody writing writes every
/// device noted — its own, and those that requests noted while it wrote — in one transaction, again
/// until none is left (at most ``maximumRounds`` times). A thousand followers pulling one change at
/// once so cost a few commits, not a thousand (on SQLite each commit waits for the disk), and none of
/// them waits for another's write. Alone, a request writes its own device's time before it answers,
/// as before.
final class SyncLastSeen: Sendable {
    private struct State {
        var pending: [String: Int64] = [:]
        var writing = false
    }

    /// The most transactions one request writes before it leaves the rest to the next.
    static let maximumRounds = 8

    private let state = Mutex(State())

    /// Notes that `device` was seen at `milliseconds`.
    /// - Returns: Whether the caller writes now (nobody else is writing): it then calls ``take()``
    ///   until it answers `nil`.
    func note(_ device: String, at milliseconds: Int64) -> Bool {
        state.withLock { state in
            state.pending[device] = max(state.pending[device] ?? 0, milliseconds)
            guard !state.writing else { return false }
            state.writing = true
            return true
        }
    }

    /// The devices to write, taken out; `nil` when none is left (the writing is then over).
    func take() -> [String: Int64]? {
        state.withLock { state in
            guard !state.pending.isEmpty else {
                state.writing = false
                return nil
            }
            defer { state.pending = [:] }
            return state.pending
        }
    }

    /// Ends the writing early (a failed write, or the last round): what is left waits for the next
    /// request that notes a device.
    func stop() { state.withLock { $0.writing = false } }
}
