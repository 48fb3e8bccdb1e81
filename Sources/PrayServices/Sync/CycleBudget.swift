import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How far one cycle may go: a server that keeps answering `hasMore` with a new cursor, or never
/// acknowledges the outbox, must not keep a device busy forever (a `log record` that never exits, a
/// daemon that pulls in a loop). Past a limit the cycle stops with ``SyncErrorKind/cycleTooLong``;
/// what it applied stays, and the next cycle goes on from its cursor.
struct CycleBudget {
    /// The limits of one cycle.
    struct Limits {
        /// Requests (pushes and pulls).
        var requests: Int
        /// Rows pulled.
        var rows: Int
        /// Bytes of the answers.
        var bytes: Int
        /// Time since the cycle began, on the service's clock.
        var seconds: TimeInterval

        /// A cycle a person or a scheduler asked for: far beyond a real first sync (a decade's log of a
        /// device is ~18,000 rows in 19 pages of 1,000), far below a loop that never ends.
        static let full = Limits(requests: 2_000, rows: 1_000_000, bytes: 512 << 20, seconds: 600)
        /// The short cycle after a write: a push and a pull of what changed meanwhile, given up
        /// quickly otherwise (the rest waits for the next cycle).
        static let afterWrite = Limits(requests: 8, rows: 5_000, bytes: 8 << 20, seconds: 15)
    }

    /// The limits.
    let limits: Limits
    /// When the cycle began.
    let started: Date
    /// What it has spent.
    private(set) var requests = 0
    private(set) var rows = 0
    private(set) var bytes = 0

    init(limits: Limits, started: Date) {
        self.limits = limits
        self.started = started
    }

    /// Counts an answer of `bytes` bytes at `now`.
    /// - Throws: ``SyncError`` (`cycleTooLong`) past a limit, saying which.
    mutating func spend(bytes: Int, now: Date) throws(SyncError) {
        requests += 1
        self.bytes += bytes
        try check(now: now)
    }

    /// Counts `rows` pulled rows, applied already.
    /// - Throws: ``SyncError`` (`cycleTooLong`) past a limit, saying which.
    mutating func pulled(rows: Int, now: Date) throws(SyncError) {
        self.rows += rows
        try check(now: now)
    }

    private func check(now: Date) throws(SyncError) {
        let seconds = now.timeIntervalSince(started)
        let over: String? =
            requests > limits.requests
            ? "\(requests) requests"
            : rows > limits.rows
                ? "\(rows) rows"
                : bytes > limits.bytes
                    ? "\(bytes >> 20) MB" : seconds > limits.seconds ? "\(Int(seconds)) s" : nil
        guard let over else { return }
        throw SyncError(
            .cycleTooLong,
            message: "the server kept sending more than one sync takes (\(over)); what arrived is kept, "
                + "and the next sync goes on from there")
    }
}
