#if canImport(CPostgres)
    import Foundation
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

        /// Runs `body` with a connection, outside any explicit transaction.
        /// - Throws: What `body` throws, with ``PostgresError`` made ``StorageError``.
        func withConnection<T: Sendable>(_ body: @Sendable (PostgresConnection) throws -> T) throws -> T {
            do {
                return try borrow(body)
            } catch let error as PostgresError {
                throw error.storageError
            }
        }

        /// Runs `body` in one transaction and commits; on a serialization failure, a deadlock or a lost
        /// connection, runs it all again (at most ``maximumAttempts`` times), so `body` must be safe to
        /// repeat — a push is, by construction.
        /// - Parameters:
        ///   - begin: The statement that opens it (`BEGIN ISOLATION LEVEL READ COMMITTED`, …).
        ///   - commit: Whether to commit; a read-only snapshot rolls back.
        /// - Throws: What `body` throws (then nothing was written), with ``PostgresError`` made
        ///   ``StorageError``.
        func transaction<T: Sendable>(
            _ begin: String = "BEGIN ISOLATION LEVEL READ COMMITTED", commit: Bool = true,
            _ body: @Sendable (PostgresConnection) throws -> T
        ) throws -> T {
            var attempt = 1
            while true {
                do {
                    return try borrow { connection in
                        try connection.query(begin)
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
                } catch let error as PostgresError {
                    guard error.isRetryable, attempt < Self.maximumAttempts else { throw error.storageError }
                    attempt += 1
                }
            }
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
