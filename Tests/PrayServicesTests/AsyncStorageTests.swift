import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// The stores' `async` views on a real database: they run on the database's own queue, so the main
/// actor goes on while a write waits for another connection's lock — as an app's does while its
/// widget writes to the same file. Nothing here measures time: the order of events is the proof.
@Suite(.tags(.concurrency)) struct AsyncStorageTests {
    let day = CivilDate.mockDate

    /// A database whose write lock another connection holds, and the events the main actor saw.
    @MainActor final class LockedDatabase {
        let test: TestDatabase
        /// The other connection: inside `BEGIN IMMEDIATE` until ``release()``.
        private let other: SQLiteDatabase
        /// What happened, in the order the main actor saw it.
        var events: [String] = []
        /// Whether the write under test has returned or thrown.
        var writeEnded = false

        /// Creates a database with one entry, then takes its write lock through another connection.
        init() throws {
            test = try TestDatabase()
            try test.prayerLog.record(.prayed, for: .fajr, on: .mockDate)
            // The write under test waits up to 120 s for the lock instead of the standard 10 s: the
            // main actor may be kept busy for seconds by other tests on a loaded machine, and only the
            // order of events is under test here, never how soon the main actor ran.
            try test.database.read { try $0.execute("PRAGMA busy_timeout = 120000") }
            other = SQLiteDatabase(path: test.path, log: .silent)
            try other.read { try $0.execute("BEGIN IMMEDIATE") }
            events.append("another connection holds the write lock")
        }

        /// Lets the main actor run (it sleeps between looks) until a call of `test` holds the
        /// connection — with the lock taken, a write that holds it is waiting for the lock — or until
        /// the write under test has ended.
        func waitUntilTheConnectionIsInUse() async throws {
            while !test.database.isConnectionInUse, !writeEnded {
                try await Task.sleep(for: .milliseconds(1))
            }
        }

        /// Commits the other connection's empty transaction, which releases the lock.
        func release() throws {
            try other.read { try $0.execute("COMMIT") }
            other.close()
            events.append("the other connection released the lock")
        }
    }

    @MainActor @Test func aRecordWaitingForAnotherConnectionsLockLeavesTheMainActorFree() async throws {
        // Given: another connection holds the write lock
        let locked = try LockedDatabase()
        // When: the main actor records through the async view
        let record = Task { @MainActor in
            defer { locked.writeEnded = true }
            let entry = try await locked.test.prayerLog.async.record(.late, for: .dhuhr, on: day)
            locked.events.append("the record committed")
            return entry
        }
        try await locked.waitUntilTheConnectionIsInUse()
        // Then: the main actor runs while the record waits for the lock, and the record completes once
        // the lock is released. (The synchronous `record` would hold the main actor until SQLite gave
        // up after its busy timeout, and the lock would never be released in time.)
        #expect(!locked.writeEnded)
        locked.events.append("the main actor ran while the record waited")
        try locked.release()
        let entry = try await record.value
        #expect(
            locked.events == [
                "another connection holds the write lock", "the main actor ran while the record waited",
                "the other connection released the lock", "the record committed",
            ])
        #expect(entry.status == .late)
        #expect(try locked.test.prayerLog.entries(from: day, through: day).map(\.status) == [.prayed, .late])
    }

    @MainActor @Test func readingAndObservingWhileAWriteWaitsLeaveTheMainActorFree() async throws {
        // Given: a record through the async view is waiting for another connection's lock, holding
        // this database's connection
        let locked = try LockedDatabase()
        let record = Task { @MainActor in
            defer { locked.writeEnded = true }
            try await locked.test.prayerLog.async.record(.late, for: .dhuhr, on: day)
        }
        try await locked.waitUntilTheConnectionIsInUse()
        #expect(!locked.writeEnded)
        // When: the main actor reads and starts observing (the synchronous reads would wait here for
        // the connection, which the waiting record holds)
        let read = Task { @MainActor in
            let entries = try await locked.test.prayerLog.async.entries(from: day, through: day)
            locked.events.append("the read returned")
            return entries
        }
        var observed = locked.test.prayerLog.entriesSequence(from: day, through: day).makeAsyncIterator()
        let preferences = locked.test.preferences.preferencesSequence()
        locked.events.append("the main actor made two streams while the record waited")
        try locked.release()
        // Then: the record, then the read, then the streams' first values come after the release
        try await record.value
        let entries = try await read.value
        #expect(
            locked.events == [
                "another connection holds the write lock", "the main actor made two streams while the record waited",
                "the other connection released the lock", "the read returned",
            ])
        #expect(entries.map(\.status) == [.prayed, .late])
        #expect(await observed.next()?.map(\.status) == [.prayed, .late])
        for await values in preferences {
            #expect(values.isEmpty)
            break
        }
    }

    @MainActor @Test func qadaFastMosqueAndSyncReadsWhileAWriteWaitsLeaveTheMainActorFree() async throws {
        // Given: a record through the async view waits for another connection's lock, holding the
        // connection that the qada, fast and mosque stores and the sync service share
        let locked = try LockedDatabase()
        let database = locked.test.database
        let qada = QadaStoreSQLite(database: database, log: .silent)
        let fasts = FastStoreSQLite(database: database, log: .silent)
        let mosques = MosqueTimetableStoreSQLite(database: database, log: .silent)
        let sync = SyncServiceHTTP(
            database: database, network: NetworkServiceMock(), clock: PrayClockFake(), log: .silent)
        let record = Task { @MainActor in
            defer { locked.writeEnded = true }
            try await locked.test.prayerLog.async.record(.late, for: .dhuhr, on: day)
        }
        try await locked.waitUntilTheConnectionIsInUse()
        #expect(!locked.writeEnded)
        // When: the main actor reads each of them through its async view (the synchronous reads would
        // wait here for the connection)
        let reads = Task { @MainActor in
            let counts = [
                try await qada.async.entries().count, try await fasts.async.entries(from: day, through: day).count,
                try await mosques.async.mosques().count, try await sync.async.unsyncedCount(),
                try await sync.async.history(limit: 5).count, try await sync.async.failedChanges().count,
            ]
            let phase = try await sync.async.currentStatus().phase
            locked.events.append("the reads returned")
            return (counts, phase)
        }
        locked.events.append("the main actor asked while the record waited")
        try locked.release()
        // Then: the reads come after the release, with the stores' answers
        try await record.value
        let (counts, phase) = try await reads.value
        #expect(
            locked.events == [
                "another connection holds the write lock", "the main actor asked while the record waited",
                "the other connection released the lock", "the reads returned",
            ])
        #expect(counts == [0, 0, 0, 0, 0, 0] && phase == .off)
        for queue in [qada.workQueue, fasts.workQueue, mosques.workQueue, sync.workQueue] {
            #expect(try await queue.run { database.workQueue.isCurrent })
        }
    }

    @Test func aStreamYieldsOnlyWhenItsValueChanged() async throws {
        // Given: a stream of the day's log, with every value it yields kept
        let test = try TestDatabase()
        let stream = test.database.observe(buffering: .unbounded) {
            try test.prayerLog.entries(from: day, through: day)
        }
        // When: a write elsewhere (a setting), a write of the log, the same again, and a last change,
        // each read by the stream before the next write (its reads run in turn on the database's queue,
        // so an empty job there waits for them)
        let settled = { try await test.database.workQueue.run {} }
        try await settled()
        try test.preferences.update { try $0.set("isna", for: .method) }
        try await settled()
        try test.prayerLog.record(.prayed, for: .fajr, on: day)
        try await settled()
        try test.prayerLog.record([try test.prayerLog.entries(from: day, through: day)[0]])
        try await settled()
        try test.prayerLog.record(.late, for: .dhuhr, on: day)
        // Then: the first value and each change, once each, until the last change
        var seen: [[Prayer]] = []
        for await entries in stream {
            seen.append(entries.map(\.prayer))
            if entries.count == 2 { break }
        }
        #expect(seen == [[], [.fajr], [.fajr, .dhuhr]])
    }

    @Test func theAsyncViewsRunOnTheDatabasesQueueAndDoWhatTheSyncMethodsDo() async throws {
        // Given
        let test = try TestDatabase()
        let asyncLog = test.prayerLog.async
        // When
        try await test.preferences.async.update { try $0.set("isna", for: .method) }
        let entry = try await asyncLog.record(.missed, for: .asr, on: day)
        try await asyncLog.record([try PrayerLogEntry(date: day, prayer: .isha, status: .qada, recordedAt: .now)])
        let removed = try await asyncLog.delete([.isha], on: day)
        let exported = try await test.backup.async.exportData()
        // Then: the same answers as the synchronous methods
        #expect(try await test.preferences.async.preferences() == test.preferences.preferences())
        #expect(try await asyncLog.entries(from: day, through: day) == [entry])
        #expect(try await asyncLog.statistics(today: day) == test.prayerLog.statistics(today: day))
        #expect(removed.map(\.prayer) == [.isha])
        #expect(exported == (try test.backup.exportData()))
        try await test.backup.async.importData(UserData(preferences: Preferences(), prayerLog: []))
        #expect(try test.prayerLog.entries(from: day, through: day).isEmpty)
        // and each store's queue is its database's
        let queue = test.database.workQueue
        for store in [test.preferences.workQueue, test.prayerLog.workQueue, test.backup.workQueue] {
            #expect(try await store.run { queue.isCurrent })
        }
        #expect(!(try await WorkQueue.shared.run { queue.isCurrent }))
    }
}
