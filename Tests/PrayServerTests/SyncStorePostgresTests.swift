#if canImport(CPostgres)
    import Foundation
    import PrayCore
    import PrayMocks
    @testable import PrayServer
    import Synchronization
    import Testing

    /// The contract run against ``SyncStorePostgres`` on a throwaway cluster (a database per store),
    /// plus pushes and pulls at once on several connections. Skipped, with a message saying so, only
    /// when PostgreSQL's server binaries are not installed.
    @Suite(.tags(.postgres, .concurrency), .needsPostgreSQL)
    struct SyncStorePostgresTests {
        @Test(arguments: SyncStoreContract.cases)
        func contract(_ test: SyncStoreContractCase) throws {
            try PostgresCluster.with { cluster in
                try test.run(
                    SyncStoreContract { limits in
                        SyncStorePostgres(url: try cluster.newDatabase(), limits: limits, connections: 2, log: .silent)
                    })
            }
        }

        @Test func concurrentPushesAndPullsNeitherSkipNorDouble() async throws {
            try await PostgresCluster.with { cluster in
                // Given: 6 devices of one user, each pushing 15 times on a pool of 4 connections, while
                // another device pages through pulls
                let store = SyncStorePostgres(url: try cluster.newDatabase(), connections: 4, log: .silent)
                let contract = SyncStoreContract { _ in store }
                _ = try store.addUser(named: "amina", now: SyncStoreContract.now)
                let devices = try (0..<6).map { try contract.pairDevice(store, name: "device \($0)") }
                let reader = try contract.pairDevice(store, name: "reader")
                let readerClient = "c_" + String(repeating: "f", count: 32)
                let seen = try await withThrowingTaskGroup(of: [String].self) { group in
                    for (index, device) in devices.enumerated() {
                        group.addTask {
                            let client = "c_" + String(repeating: String(index, radix: 16), count: 32)
                            for id in 1...15 {
                                let key = "2026-\(String(format: "%02d", index + 1))-\(String(format: "%02d", id))/fajr"
                                let push = SyncAPI.PushRequest(
                                    clientID: client,
                                    mutations: [
                                        try SyncStoreContract.put(id, key, at: Int64(id * 10 + index), client: client)
                                    ])
                                _ = try store.push(push, from: device, now: SyncStoreContract.now)
                            }
                            return []
                        }
                    }
                    // The reader pages while the pushes run: every row it gets is new to it.
                    group.addTask {
                        var cursor = "0"
                        var keys: [String] = []
                        // Until it has every row (or far more pages than the rows need, if any went missing).
                        for _ in 0..<100_000 {
                            let page = try store.pull(
                                .init(clientID: readerClient, cursor: cursor, limit: 4), from: reader,
                                now: SyncStoreContract.now)
                            keys += page.rows.map { "\($0.row.collection)/\($0.row.key)" }
                            cursor = page.cursor
                            if !page.hasMore && keys.count >= 90 { break }
                        }
                        return keys
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                // Then: 90 changes, each its own version; the paging reader saw each row once
                let users = try store.users()
                #expect(users[0].version == 90 && users[0].rowCount == 90)
                #expect(seen.count == 90 && Set(seen).count == 90)
                let paged = try contract.allRows(
                    store, devices[0], client: "c_00000000000000000000000000000000", limit: 7)
                #expect(paged.rows.count == 90 && Set(paged.rows.map { "\($0.collection)/\($0.key)" }).count == 90)
            }
        }

        @Test func aLostConnectionIsOpenedAgain() throws {
            try PostgresCluster.with { cluster in
                // Given: a store on one connection, used once
                let url = try cluster.newDatabase()
                let store = SyncStorePostgres(url: url, connections: 1, log: .silent)
                let (_, _, device) = try SyncStoreContract { _ in store }.storeWithDevice()
                // When: the server ends every connection to the database, as a restart would
                try cluster.endConnections(to: url)
                // Then: the next push opens a new connection and is applied
                let push = SyncAPI.PushRequest(
                    clientID: SyncStoreContract.clientA, mutations: [try SyncStoreContract.put(1)])
                #expect(try store.push(push, from: device, now: SyncStoreContract.now).lastMutationID == 1)
                #expect(try store.users().first?.version == 1)
            }
        }

        /// Counts the runs of a transaction's body.
        final class Runs: Sendable {
            let count = Mutex(0)
            /// Counts one more run and returns the count.
            func next() -> Int {
                count.withLock {
                    $0 += 1; return $0
                }
            }
        }

        @Test(arguments: ["40001", "40P01"])
        func aSerializationFailureOrADeadlockRunsTheTransactionAgain(_ state: String) throws {
            try PostgresCluster.with { cluster in
                // Given: a transaction whose first run fails with the SQLSTATE
                let pool = PostgresPool(conninfo: try cluster.newDatabase(), size: 1)
                let runs = Runs()
                // When
                let result = try pool.transaction(idempotent: false) { connection in
                    if runs.next() == 1 {
                        try connection.query(
                            "DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '\(state)'; END $$")
                    }
                    return try connection.query("SELECT 42").first?.int64(0)
                }
                // Then: it ran again, and the second run committed
                #expect(result == 42 && runs.count.withLock { $0 } == 2)
            }
        }

        @Test func otherFailuresAreNotRunAgain() throws {
            try PostgresCluster.with { cluster in
                // Given: a transaction that breaks a constraint
                let pool = PostgresPool(conninfo: try cluster.newDatabase(), size: 1)
                let runs = Runs()
                // Then: one run, and the error names the SQLSTATE
                do {
                    try pool.transaction(idempotent: true) { connection in
                        _ = runs.next()
                        try connection.query("DO $$ BEGIN RAISE EXCEPTION 'taken' USING ERRCODE = '23505'; END $$")
                    }
                    Issue.record("a failing transaction succeeded")
                } catch let error as StorageError {
                    #expect(error.kind == .constraint && error.message.contains("SQLSTATE 23505"), "\(error)")
                }
                #expect(runs.count.withLock { $0 } == 1)
            }
        }

        @Test(arguments: [true, false])
        func aConnectionLostMidwayRunsAgainOnlyWhatIsIdempotent(_ idempotent: Bool) throws {
            try PostgresCluster.with { cluster in
                // Given: a transaction whose first run loses its connection after BEGIN
                let pool = PostgresPool(conninfo: try cluster.newDatabase(), size: 1)
                let runs = Runs()
                // When
                let result = Result {
                    try pool.transaction(idempotent: idempotent) { connection in
                        if runs.next() == 1 { try connection.query("SELECT pg_terminate_backend(pg_backend_pid())") }
                        return try connection.query("SELECT 42").first?.int64(0)
                    }
                }
                // Then: run again on a new connection when it may be; else an error (the commit's fate
                // would be unknown)
                if idempotent {
                    #expect(try result.get() == 42 && runs.count.withLock { $0 } == 2)
                } else {
                    #expect(throws: StorageError.self) { try result.get() }
                    #expect(runs.count.withLock { $0 } == 1)
                    #expect(try pool.transaction(idempotent: false) { try $0.query("SELECT 1").count } == 1)
                }
            }
        }

        @Test func aSQLStateComesWithTheStatementNotItsValues() throws {
            try PostgresCluster.with { cluster in
                // Given: a store whose schema another program changed under it
                let url = try cluster.newDatabase()
                let store = SyncStorePostgres(url: url, log: .silent)
                _ = try store.users()
                try cluster.execute("DROP TABLE pairing_codes", in: url)
                // Then: the error names the SQLSTATE (42P01, undefined table) and the statement only
                do {
                    _ = try store.addUser(named: "amina", now: SyncStoreContract.now)
                    Issue.record("a store without its table answered")
                } catch let error as StorageError {
                    #expect(error.message.contains("SQLSTATE 42P01"), "\(error)")
                    #expect(error.sql?.contains("pairing_codes") == true && !"\(error)".contains("amina"), "\(error)")
                }
                // And the refused change left nothing behind
                #expect(try store.users().isEmpty)
            }
        }

        @Test func aWrongPasswordIsRefusedWithoutRepeatingItAndIsNotTakenForAnOutage() throws {
            try PostgresCluster.with { cluster in
                // Given: a database whose role logs in with a password (SCRAM over the socket)
                let url = try cluster.newDatabase(ownedByPasswordUser: true).replacingOccurrences(
                    of: "user=postgres", with: "user=\(PostgresCluster.passwordUser)")
                // When: the store is given a wrong password
                let wrong = SyncStorePostgres(url: url + "&password=wrong-secret-77", log: .silent)
                do {
                    _ = try wrong.users()
                    Issue.record("a wrong password was let in")
                } catch let error as StorageError {
                    // Then: PostgreSQL's reason, the database named, no password; not `unavailable`
                    // (a server answered: trying again will not help)
                    #expect(error.kind == .other && "\(error)".contains("password authentication failed"), "\(error)")
                    #expect(!"\(error)".contains("wrong-secret-77") && error.path == wrong.location, "\(error)")
                    #expect(wrong.location.contains("password=…") || !wrong.location.contains("wrong-secret"))
                }
                // And the right password works, the schema created by its role
                let right = SyncStorePostgres(url: url + "&password=\(PostgresCluster.password)", log: .silent)
                _ = try right.addUser(named: "amina", now: SyncStoreContract.now)
                #expect(try right.users().map(\.name) == ["amina"])
            }
        }

        @Test func aServerStoppedIsUnavailableUntilItIsBackThenTheStoreCarriesOn() throws {
            // Given: a store on a cluster of this test's own, in use
            let cluster = try PostgresCluster.privateCluster()
            defer { cluster.remove() }
            let store = SyncStorePostgres(url: try cluster.newDatabase(), connections: 2, log: .silent)
            _ = try store.addUser(named: "amina", now: SyncStoreContract.now)
            // When: the server stops
            try cluster.stopServer()
            // Then: `unavailable`, naming the database; nothing written
            do {
                _ = try store.addUser(named: "bilal", now: SyncStoreContract.now)
                Issue.record("a stopped server answered")
            } catch let error as StorageError {
                #expect(error.kind == .unavailable && error.path == store.location, "\(error)")
                #expect("\(error)".contains("cannot be reached"), "\(error)")
            }
            // When: it is back, the same connections are opened again
            try cluster.startServer()
            _ = try store.addUser(named: "bilal", now: SyncStoreContract.now)
            #expect(try store.users().map(\.name) == ["amina", "bilal"])
        }

        @Test func aConnectionErrorNeverShowsThePassword() throws {
            // Given: a URL with a password to a socket folder where no server listens
            let store = SyncStorePostgres(
                url: "postgresql://pray:s3cret@/praykit?host=/nonexistent-praykit-socket", log: .silent)
            // Then: a StorageError without the password or the URL
            do {
                _ = try store.users()
                Issue.record("a store without a server answered")
            } catch let error as StorageError {
                // Nothing answers on that socket: an outage, for which a device is told to come back
                #expect(error.kind == .unavailable && error.message.contains("cannot connect"), "\(error)")
                // The database is named, its password hidden
                #expect(
                    !"\(error)".contains("s3cret") && "\(error)".contains("postgresql://pray:…@/praykit"), "\(error)")
            }
            #expect(store.location == "postgresql://pray:…@/praykit?host=/nonexistent-praykit-socket")
        }
    }
#endif
