#if canImport(CPostgres)
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import PrayCore
    import Synchronization

    /// A few PostgreSQL connections, opened on first use and shared by the threads of one process: a
    /// caller takes a free one, or waits for one. A connection found lost is dropped and opened again
    /// at its next use. Errors leave here as ``StorageError``s (SQLSTATE and message, never the
    /// connection string, which may hold a password).
    final class PostgresPool: Sendable {
        /// One connection, behind its own mutex: `nil` until first use and after a loss.
        private final class Slot: Sendable {
            let connection = Mutex<PostgresConnection?>(nil)
        }

        private let conninfo: String
        private let slots: [Slot]
        private let next = Atomic<Int>(0)

        /// How many times a transaction runs at most when it meets a serialization failure, a deadlock
        /// or a lost connection.
        static let maximumAttempts = 5

        /// Creates a pool of `size` connections (at least one) to `conninfo`; nothing is opened yet.
        init(conninfo: String, size: Int) {
            self.conninfo = conninfo
            slots = (0..<max(1, size)).map { _ in Slot() }
        }

        /// Runs `body` in one transaction and commits. A serialization failure or a deadlock rolled it
        /// back: it runs again (at most ``maximumAttempts`` times in all). So does a connection found
        /// lost at `BEGIN` (a server restarted since its last use), as nothing ran yet; a connection
        /// lost later leaves unknown whether the commit happened, so it runs again only when
        /// `idempotent` says running it twice is safe — a push is, by construction.
        /// - Parameters:
        ///   - begin: The statement that opens it (`BEGIN ISOLATION LEVEL READ COMMITTED`, …).
        ///   - commit: Whether to commit; a read-only snapshot rolls back.
        ///   - idempotent: Whether `body` may run again after a connection lost in its midst.
        /// - Throws: What `body` throws (then nothing was written), with ``PostgresError`` made
        ///   ``StorageError``.
        func transaction<T: Sendable>(
            _ begin: String = "BEGIN ISOLATION LEVEL READ COMMITTED", commit: Bool = true, idempotent: Bool,
            _ body: @Sendable (PostgresConnection) throws -> T
        ) throws -> T {
            var attempt = 1
            while true {
                do {
                    return try borrow { connection in
                        do {
                            try connection.query(begin)
                        } catch let error as PostgresError {
                            throw BeginFailure(error: error)
                        }
                        do {
                            let result = try body(connection)
                            try connection.query(commit ? "COMMIT" : "ROLLBACK")
                            return result
                        } catch {
                            // Nothing to do if this fails too: the connection is then lost, and the
                            // server rolls the transaction back when it notices.
                            _ = try? connection.query("ROLLBACK")
                            throw error
                        }
                    }
                } catch let failure as BeginFailure {
                    guard failure.error.connectionLost, attempt < Self.maximumAttempts else {
                        throw failure.error.storageError
                    }
                } catch let error as PostgresError {
                    let again = error.isSerializationFailure || (error.connectionLost && idempotent)
                    guard again, attempt < Self.maximumAttempts else { throw error.storageError }
                }
                attempt += 1
            }
        }

        /// Runs one statement by itself, outside any transaction (`SELECT pg_notify(…)`, which is then
        /// sent at once), and again on a new connection when the one it took was found lost (a server
        /// restarted since its last use): for statements that may run twice.
        /// - Throws: ``StorageError``.
        func run(_ sql: String, _ values: [SyncSQLValue]) throws {
            var attempt = 1
            while true {
                do {
                    try borrow { connection in _ = try connection.query(sql, values) }
                    return
                } catch let error as PostgresError {
                    guard error.connectionLost, attempt < 2 else { throw error.storageError }
                }
                attempt += 1
            }
        }

        /// A failure of a transaction's `BEGIN`, after which nothing of it ran.
        private struct BeginFailure: Error {
            let error: PostgresError
        }

        /// Takes a free connection (the next in turn when all are busy, waiting for it), opening it
        /// when needed, and drops it afterwards if it was lost.
        private func borrow<T: Sendable>(_ body: @Sendable (PostgresConnection) throws -> T) throws -> T {
            let start = next.wrappingAdd(1, ordering: .relaxed).oldValue & Int.max
            for offset in 0..<slots.count {
                let slot = slots[(start + offset) % slots.count]
                if let result = try slot.connection.withLockIfAvailable({ try use(&$0, body) }) { return result }
            }
            return try slots[start % slots.count].connection.withLock { try use(&$0, body) }
        }

        private func use<T: Sendable>(
            _ slot: inout PostgresConnection?, _ body: @Sendable (PostgresConnection) throws -> T
        ) throws -> T {
            let connection = try slot ?? PostgresConnection(conninfo: conninfo)
            slot = connection
            defer { if connection.isBroken { slot = nil } }
            return try body(connection)
        }
    }
#endif
