#if canImport(CPostgres)
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import PrayCore
    import PrayServices  // its SQLite layer only: SQLiteConnection, SQLiteStatement

    /// A copy of a SQLite sync store into an empty PostgreSQL database, table by table, keeping every
    /// key, ID and version as it is: the store's identity (which every cursor names) and its pairing
    /// secret (so that live codes still work), users with their version counters and row counts,
    /// devices (token hashes), pairing codes, failure counts, clients with their last mutation IDs,
    /// rows with their versions, and the payload hashes of recent mutations. A device's token and
    /// cursor then work on the new store as on the old one.
    ///
    /// The destination is written in one transaction: its schema is created when missing, the users
    /// table is locked against a server adding a user meanwhile, a database with users is refused, and
    /// the ID sequences are set past the copied IDs before the commit. The source is read in one
    /// snapshot inside that transaction, in batches, so memory stays small for a large store.
    struct SyncStoreCopy {
        let source: SyncStoreSQLite
        let destination: SyncStorePostgres
        let progress: @Sendable (SyncStoreCopyProgress) -> Void

        /// How many records one `INSERT` carries (10 columns at most: 5,000 parameters, far below
        /// PostgreSQL's 65,535).
        static let batchSize = 500

        /// A table to copy: its columns, and the count of the report it fills.
        struct Table {
            let name: String
            let columns: [String]
            let count: WritableKeyPath<SyncStoreCopyReport, Int>
        }

        /// The tables in an order their references allow.
        static var tables: [Table] {
            [
                Table(
                    name: "users",
                    columns: [
                        "id", "name", "created_at", "version", "row_count", "kind", "space_id", "title", "slug",
                    ],
                    count: \.users),
                Table(
                    name: "devices",
                    columns: [
                        "id", "user_id", "name", "token_lookup", "token_hash", "created_at", "last_seen", "revoked_at",
                    ], count: \.devices),
                Table(
                    name: "pairing_codes",
                    columns: [
                        "id", "user_id", "lookup", "code_hash", "created_at", "expires_at", "used_at", "attempts",
                        "space", "role",
                    ],
                    count: \.pairingCodes),
                Table(name: "members", columns: ["space", "member", "role", "added_at"], count: \.members),
                Table(name: "failures", columns: ["scope", "address", "window_start", "count"], count: \.failures),
                Table(
                    name: "clients", columns: ["id", "device_id", "last_mutation_id", "created_at"], count: \.clients),
                Table(
                    name: "sync_rows", columns: ["user_id", "collection", "key", "value", "deleted", "hlc", "version"],
                    count: \.rows),
                Table(
                    name: "recent_mutations", columns: ["client_id", "id", "payload_hash", "user_id", "seq"],
                    count: \.recentMutations),
            ]
        }

        /// The columns whose IDs come from a sequence in PostgreSQL (`BIGSERIAL`).
        static let sequences = [("users", "id"), ("pairing_codes", "id"), ("recent_mutations", "seq")]

        /// Copies everything, or nothing.
        /// - Throws: ``SyncStoreError`` (`notEmpty`); ``StorageError`` of either database.
        func run() throws -> SyncStoreCopyReport {
            let source = source
            let location = destination.location
            let migrations = destination.migrations
            let progress = progress
            return try destination.pool.transaction(idempotent: false) { postgres in
                try SyncStorePostgres.create(postgres, migrations: migrations, location: location)
                // SHARE ROW EXCLUSIVE: no server adds a user (or another copy runs) until the commit.
                try postgres.query("LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE")
                let users = try postgres.query("SELECT COUNT(*) FROM users").first?.int64(0) ?? 0
                guard users == 0 else {
                    throw SyncStoreError(
                        .notEmpty,
                        message: "\(location) already holds \(users) user\(users == 1 ? "" : "s"): a store is "
                            + "copied only into a database without users; nothing was written")
                }
                return try source.snapshot { sqlite in try Self.copy(from: sqlite, to: postgres, progress: progress) }
            }
        }

        /// Copies every table from the snapshot of `sqlite` in the transaction of `postgres`.
        private static func copy(
            from sqlite: SQLiteConnection, to postgres: PostgresConnection,
            progress: @Sendable (SyncStoreCopyProgress) -> Void
        ) throws -> SyncStoreCopyReport {
            var report = SyncStoreCopyReport()
            // The identity first: made at random when the schema was created here, it must be the old
            // store's, or every device's cursor would be refused as another store's.
            let identity = try sqlite.rows("SELECT key, value FROM store", [])
            try postgres.query("DELETE FROM store")
            for row in identity {
                try postgres.query(
                    "INSERT INTO store (key, value) VALUES ($1, $2)", [value(row.text(0)), value(row.text(1))])
            }
            report.storeID = identity.first { $0.text(0) == "id" }?.text(1) ?? ""
            // Failure counts need no user: a database without users may hold some.
            try postgres.query("DELETE FROM failures")
            var total = 0
            for table in tables {
                total += Int(try sqlite.first("SELECT COUNT(*) FROM \(table.name)")?.int64(0) ?? 0)
            }
            var copied = 0
            progress(SyncStoreCopyProgress(copied: 0, total: total))
            for table in tables {
                report[keyPath: table.count] = try copy(table, from: sqlite, to: postgres) { batch in
                    copied += batch
                    progress(SyncStoreCopyProgress(copied: copied, total: total))
                }
            }
            for (table, column) in sequences {
                // The next ID made there is past every copied one (`false`: the value is the next).
                try postgres.query(
                    """
                    SELECT setval(pg_get_serial_sequence('\(table)', '\(column)'), COALESCE(MAX(\(column)), 0) + 1,
                        false) FROM \(table)
                    """)
            }
            return report
        }

        /// Copies one table in batches; returns how many records.
        private static func copy(
            _ table: Table, from sqlite: SQLiteConnection, to postgres: PostgresConnection,
            copiedBatch: (Int) -> Void
        ) throws -> Int {
            let columns = table.columns.joined(separator: ", ")
            let statement = try sqlite.prepare("SELECT \(columns) FROM \(table.name)")
            var values: [SyncSQLValue] = []
            var pending = 0
            var count = 0
            func flush() throws {
                guard pending > 0 else { return }
                let width = table.columns.count
                let tuples = (0..<pending).map { record in
                    "(" + (1...width).map { "$\(record * width + $0)" }.joined(separator: ", ") + ")"
                }
                try postgres.query(
                    "INSERT INTO \(table.name) (\(columns)) VALUES \(tuples.joined(separator: ", "))", values)
                copiedBatch(pending)
                values.removeAll(keepingCapacity: true)
                pending = 0
            }
            while try statement.step() {
                for column in table.columns.indices { values.append(value(statement.text(Int32(column)))) }
                pending += 1
                count += 1
                if pending == batchSize { try flush() }
            }
            try flush()
            return count
        }

        /// A column's text as a parameter: PostgreSQL reads it as the column's type (`BIGINT`, …).
        private static func value(_ text: String?) -> SyncSQLValue {
            text.map { .text($0) } ?? .null
        }
    }
#endif
