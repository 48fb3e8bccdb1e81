import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// ``SyncService`` over the `/sync/v1/` protocol of SYNC.md, speaking to `praykit serve` through a
/// ``NetworkService``, with the outbox, the stamps and the state in the SQLite database.
///
/// A cycle pushes the outbox in batches of at most 500 (each push is idempotent, so a retry after a
/// lost answer changes nothing twice), then pulls pages until the server has no more, applying each
/// page and acknowledging the outbox in one transaction. One cycle runs at a time in a process; two
/// processes syncing at once only repeat each other's idempotent work.
public final class SyncServiceHTTP: SyncService {
    let database: SQLiteDatabase
    let network: any NetworkService
    let clock: any PrayClock
    let log: LogManager
    let journal: SyncJournal
    let gate = CycleGate()
    let local = Mutex(LocalState())
    /// How long ``triggerSync()`` waits, so that several changes go together, seconds.
    public let triggerDelay: TimeInterval
    /// How often ``runScheduler()`` syncs when nothing happens, seconds.
    public let interval: TimeInterval

    /// The most history entries kept.
    static let historyLimit = 100
    /// Requests tried after a write must never hold the person up: one attempt of a few seconds.
    static let quickTimeout: TimeInterval = 4

    /// What this process knows beside the database.
    struct LocalState {
        var syncing = false
        var triggered = false
        var lastObserver = 0
        var observers: [Int: @Sendable () -> Void] = [:]
        /// The journal's count of outbox entries written when the last cycle of this process began.
        var writesAtLastCycle = 0
        /// The `Retry-After` of the server's last 429 or 5xx, seconds.
        var retryAfter: TimeInterval?
    }

    /// Creates the service.
    /// - Parameters:
    ///   - database: The database whose log and settings sync.
    ///   - network: The HTTP client.
    ///   - clock: The clock: stamps, the server's offset, and the scheduler's waits.
    ///   - log: The logger; tokens and codes never reach it.
    ///   - journal: Sync's journal: the machine identity that tells a copied database, and the count of
    ///     outbox entries the stores sharing it wrote (``needsSyncAfterWrite``). The container gives
    ///     the service and its stores one journal.
    ///   - triggerDelay: How long ``triggerSync()`` waits before a cycle, seconds.
    ///   - interval: How often ``runScheduler()`` syncs when nothing happens, seconds.
    public init(
        database: SQLiteDatabase, network: any NetworkService, clock: any PrayClock, log: LogManager,
        journal: SyncJournal = SyncJournal(), triggerDelay: TimeInterval = 5, interval: TimeInterval = 30 * 60
    ) {
        self.database = database
        self.network = network
        self.clock = clock
        self.log = log
        self.journal = journal
        self.triggerDelay = triggerDelay
        self.interval = interval
    }

    /// The file that keeps this device's token.
    public var tokenPath: String { SyncJournal.tokenPath(forDatabase: database.path) }

    /// The database's serial queue, where the service's `async` view runs.
    public var workQueue: WorkQueue { database.workQueue }

    /// The token's file.
    var tokenFile: SyncTokenFile { SyncTokenFile(path: tokenPath, log: log) }

    /// Whether a store sharing this service's journal wrote an outbox entry since this process's last
    /// cycle began: the change waits for ``syncAfterWrite()``.
    public var needsSyncAfterWrite: Bool {
        let written = journal.writes.total
        return local.withLock { $0.writesAtLastCycle != written }
    }

    func setSyncing(_ syncing: Bool) {
        local.withLock { $0.syncing = syncing }
        notifyLocal()
    }

    func notifyLocal() {
        for observer in local.withLock({ Array($0.observers.values) }) { observer() }
    }
}
