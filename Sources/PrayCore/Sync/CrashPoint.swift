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

/// Named places in sync's write paths where a test can have the process killed, to prove that a
/// crash there loses nothing (SYNC.md §6). A point fires only when `PRAYKIT_CRASH_POINT` names it
/// — the process then sends itself SIGKILL, the crash no handler sees — so it costs one comparison
/// of a string read once, and nothing at all in normal use. In PrayCore (`package`) because both sides
/// of sync have points: the device's client (PrayServices) and the server's stores (PrayServer).
///
/// ```swift
/// CrashPoint.reach(.clientPushAnswered)  // dies here when PRAYKIT_CRASH_POINT=client-push-answered
/// ```
package enum CrashPoint: String, CaseIterable, Sendable {
    /// The client: the server answered a push (and kept it); the outbox is not yet acknowledged.
    case clientPushAnswered = "client-push-answered"
    /// The client: a pull page arrived; nothing of it is applied yet.
    case clientPullReceived = "client-pull-received"
    /// The client: inside the transaction that applies a pull page, after its rows, before the cursor.
    case clientPullApplying = "client-pull-applying"
    /// The client: a local write and its outbox entry are committed; the sync after it has not begun.
    case clientWriteCommitted = "client-write-committed"
    /// The server: a push's transaction committed; the answer is not yet sent.
    case serverPushCommitted = "server-push-committed"
    /// The server: inside a push's transaction, after its rows, before the commit.
    case serverPushApplying = "server-push-applying"

    /// The point named by `PRAYKIT_CRASH_POINT`, read once.
    private static let armed: CrashPoint? = ProcessInfo.processInfo.environment["PRAYKIT_CRASH_POINT"].flatMap(
        CrashPoint.init(rawValue:))

    /// Kills this process at once with SIGKILL when `point` is the armed one; else returns.
    package static func reach(_ point: CrashPoint) {
        guard armed == point else { return }
        kill(getpid(), SIGKILL)
    }
}
