import PrayCore

/// The database schema, as ordered migrations numbered by `PRAGMA user_version`. Each migration runs
/// in its own transaction, so a killed process leaves the schema at one version or the next.
/// `package`: the sync server's SQLite store (PrayServer) brings its own migrations.
package enum Schema {
    /// One step of a schema: the `user_version` it makes and its SQL.
    package struct Migration {
        package let version: Int
        package let sql: String

        /// Creates a step.
        package init(version: Int, sql: String) {
            self.version = version
            self.sql = sql
        }
    }

    static let migrations = [
        Migration(
            version: 1,
            sql: """
                CREATE TABLE preferences (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE prayer_log (
                    day INTEGER NOT NULL,
                    prayer INTEGER NOT NULL CHECK (prayer BETWEEN 0 AND 6),
                    status INTEGER NOT NULL CHECK (status BETWEEN 0 AND 3),
                    recorded_at INTEGER NOT NULL,
                    PRIMARY KEY (day, prayer)
                ) WITHOUT ROWID;
                """
        ),
        Migration(
            version: 2,
            sql: """
                CREATE TABLE remote_timetable (
                    provider TEXT NOT NULL,
                    place TEXT NOT NULL,
                    day INTEGER NOT NULL,
                    times TEXT NOT NULL,
                    fetched_at INTEGER NOT NULL,
                    PRIMARY KEY (provider, place, day)
                ) WITHOUT ROWID;
                """
        ),
        // Version 3: the prayer log keeps stable text codes instead of enum positions. Version 1 and 2
        // stored the position in [fajr, dhuhr, asr, maghrib, isha] and [prayed, late, missed, qada].
        Migration(
            version: 3,
            sql: """
                CREATE TABLE prayer_log_v3 (
                    day INTEGER NOT NULL,
                    prayer TEXT NOT NULL CHECK (prayer IN ('fajr', 'dhuhr', 'asr', 'maghrib', 'isha')),
                    status TEXT NOT NULL CHECK (status IN ('prayed', 'late', 'missed', 'qada')),
                    recorded_at INTEGER NOT NULL,
                    PRIMARY KEY (day, prayer)
                ) WITHOUT ROWID;
                INSERT INTO prayer_log_v3 (day, prayer, status, recorded_at)
                    SELECT day,
                        CASE prayer WHEN 0 THEN 'fajr' WHEN 1 THEN 'dhuhr' WHEN 2 THEN 'asr'
                            WHEN 3 THEN 'maghrib' WHEN 4 THEN 'isha' END,
                        CASE status WHEN 0 THEN 'prayed' WHEN 1 THEN 'late' WHEN 2 THEN 'missed'
                            WHEN 3 THEN 'qada' END,
                        recorded_at
                    FROM prayer_log;
                DROP TABLE prayer_log;
                ALTER TABLE prayer_log_v3 RENAME TO prayer_log;
                """
        ),
        // Version 4: sync (SYNC.md §4). Notes on log entries; the outbox of changes the server has not
        // acknowledged, numbered without gaps; the stamp of every synced row's current value, deleted
        // rows included (the tombstones); the changes the server refused; sync's own state; the history
        // of cycles. Nothing is synced, and nothing is added to these tables, until `sync login`.
        Migration(
            version: 4,
            sql: """
                ALTER TABLE prayer_log ADD COLUMN note TEXT;
                CREATE TABLE sync_state (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE sync_outbox (
                    mutation_id INTEGER PRIMARY KEY,
                    collection TEXT NOT NULL CHECK (collection IN ('log', 'pref', 'place')),
                    key TEXT NOT NULL,
                    op TEXT NOT NULL CHECK (op IN ('put', 'delete')),
                    hlc TEXT NOT NULL,
                    value TEXT,
                    created_at INTEGER NOT NULL
                );
                CREATE INDEX sync_outbox_row ON sync_outbox (collection, key);
                CREATE TABLE sync_rows (
                    collection TEXT NOT NULL,
                    key TEXT NOT NULL,
                    hlc TEXT NOT NULL,
                    deleted INTEGER NOT NULL CHECK (deleted IN (0, 1)),
                    PRIMARY KEY (collection, key)
                ) WITHOUT ROWID;
                CREATE TABLE sync_failed (
                    mutation_id INTEGER PRIMARY KEY,
                    collection TEXT NOT NULL,
                    key TEXT NOT NULL,
                    op TEXT NOT NULL,
                    hlc TEXT NOT NULL,
                    value TEXT,
                    reason TEXT NOT NULL,
                    failed_at INTEGER NOT NULL
                );
                CREATE TABLE sync_history (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    at INTEGER NOT NULL,
                    succeeded INTEGER NOT NULL,
                    pushed INTEGER NOT NULL,
                    pulled INTEGER NOT NULL,
                    rejected INTEGER NOT NULL,
                    message TEXT
                );
                """
        ),
        // Version 5: mosques' own timetables (`praykit timetable import`): a mosque by name with the
        // place and zone its clock times belong to, and its days as JSON ({"adhan": {"fajr": 365},
        // "iqama": {…}, "jumuah": [750]}, minutes after midnight). Removing a mosque removes its days.
        Migration(
            version: 5,
            sql: """
                CREATE TABLE mosque (
                    name TEXT PRIMARY KEY NOT NULL,
                    latitude REAL NOT NULL,
                    longitude REAL NOT NULL,
                    elevation REAL NOT NULL,
                    time_zone TEXT NOT NULL,
                    imported_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE mosque_day (
                    mosque TEXT NOT NULL REFERENCES mosque (name) ON DELETE CASCADE,
                    day INTEGER NOT NULL,
                    times TEXT NOT NULL,
                    PRIMARY KEY (mosque, day)
                ) WITHOUT ROWID;
                """
        ),
        // Version 6: the prayers to make up (`praykit qada`): an entry per id, `opening/<prayer>` (the
        // count owed before the log counts, from `day`) or `made-up/<hex>` (prayers made up on `day`);
        // days since 1970 and milliseconds, as in the prayer log. The checks keep a row readable.
        Migration(
            version: 6,
            sql: """
                CREATE TABLE qada_entry (
                    id TEXT PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('opening', 'made-up')),
                    prayer TEXT NOT NULL CHECK (prayer IN ('fajr', 'dhuhr', 'asr', 'maghrib', 'isha')),
                    count INTEGER NOT NULL CHECK (count BETWEEN 0 AND 100000),
                    day INTEGER NOT NULL CHECK (day BETWEEN -719162 AND 2932896),
                    source TEXT,
                    recorded_at INTEGER NOT NULL,
                    note TEXT
                ) WITHOUT ROWID;
                """
        ),
        // Version 7 (6 is the qada table): fasts (`praykit fast`), one per day; the status as its stable
        // code (fasted, missed, excused, made-up, voluntary), recorded_at in milliseconds since 1970.
        Migration(
            version: 7,
            sql: """
                CREATE TABLE fast (
                    day INTEGER PRIMARY KEY NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('fasted', 'missed', 'excused', 'made-up', 'voluntary')),
                    recorded_at INTEGER NOT NULL,
                    note TEXT
                );
                """
        ),
        // Version 8 (6 and 7 are the qada and fast tables): the sync outbox takes the collections of
        // sync's row schema 2 (`qada`, `fast`, `hijri-start`, `mosque`). SQLite cannot change a CHECK,
        // so the table is copied, in order.
        Migration(
            version: 8,
            sql: """
                CREATE TABLE sync_outbox_v8 (
                    mutation_id INTEGER PRIMARY KEY,
                    collection TEXT NOT NULL
                        CHECK (collection IN ('log', 'pref', 'place', 'qada', 'fast', 'hijri-start', 'mosque')),
                    key TEXT NOT NULL,
                    op TEXT NOT NULL CHECK (op IN ('put', 'delete')),
                    hlc TEXT NOT NULL,
                    value TEXT,
                    created_at INTEGER NOT NULL
                );
                INSERT INTO sync_outbox_v8 (mutation_id, collection, key, op, hlc, value, created_at)
                    SELECT mutation_id, collection, key, op, hlc, value, created_at FROM sync_outbox;
                DROP TABLE sync_outbox;
                ALTER TABLE sync_outbox_v8 RENAME TO sync_outbox;
                CREATE INDEX sync_outbox_row ON sync_outbox (collection, key);
                """
        ),
        // Version 9: the conflicts list (SYNC.md §8, I15) — a local value a pulled row replaced before
        // the server had it, kept for the person to keep or dismiss — and an outbox without a CHECK on
        // the collection's name: the collections are registered once, in SyncCollection.all, and an
        // entry of an unknown one is refused where the outbox is read.
        Migration(
            version: 9,
            sql: """
                CREATE TABLE sync_conflicts (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    collection TEXT NOT NULL,
                    key TEXT NOT NULL,
                    local_value TEXT,
                    winner_hlc TEXT,
                    reason TEXT NOT NULL,
                    at INTEGER NOT NULL
                );
                CREATE TABLE sync_outbox_v9 (
                    mutation_id INTEGER PRIMARY KEY,
                    collection TEXT NOT NULL,
                    key TEXT NOT NULL,
                    op TEXT NOT NULL CHECK (op IN ('put', 'delete')),
                    hlc TEXT NOT NULL,
                    value TEXT,
                    created_at INTEGER NOT NULL
                );
                INSERT INTO sync_outbox_v9 (mutation_id, collection, key, op, hlc, value, created_at)
                    SELECT mutation_id, collection, key, op, hlc, value, created_at FROM sync_outbox;
                DROP TABLE sync_outbox;
                ALTER TABLE sync_outbox_v9 RENAME TO sync_outbox;
                CREATE INDEX sync_outbox_row ON sync_outbox (collection, key);
                """
        ),
        // Version 10: mosque spaces (SYNC.md §8). `sync_spaces`: each space this device follows, by ID,
        // with the name its timetable has here (`mosque`'s name), the server's name, this user's role,
        // the space's own pull cursor, and when the server said it is gone (the copy stays).
        // `mosque_space_rows`: a mosque's settings, notices and announced month starts, by the mosque's
        // name here, so a copy outlives the space.
        Migration(
            version: 10,
            sql: """
                CREATE TABLE sync_spaces (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL UNIQUE,
                    title TEXT NOT NULL,
                    role TEXT NOT NULL,
                    cursor TEXT NOT NULL DEFAULT '0',
                    gone_at INTEGER
                ) WITHOUT ROWID;
                CREATE TABLE mosque_space_rows (
                    mosque TEXT NOT NULL,
                    collection TEXT NOT NULL,
                    key TEXT NOT NULL,
                    value TEXT NOT NULL,
                    PRIMARY KEY (mosque, collection, key)
                ) WITHOUT ROWID;
                """
        ),
    ]

    /// The newest version.
    static var latest: Int { migrations.last?.version ?? 0 }

    /// Brings the database to the last of `migrations` (PrayKit's own, ``latest``, by default).
    /// - Throws: ``StorageError``, `schemaTooNew` for a database of a newer PrayKit.
    package static func migrate(
        _ connection: SQLiteConnection, migrations: [Migration] = Schema.migrations, log: LogManager
    ) throws(StorageError) {
        let latest = migrations.last?.version ?? 0
        let current = Int(try connection.integer("PRAGMA user_version") ?? 0)
        guard current <= latest else {
            throw StorageError(
                kind: .schemaTooNew, message: "schema version \(current), this PrayKit knows up to \(latest)",
                path: connection.path
            )
        }
        for migration in migrations where migration.version > current {
            do {
                try connection.transaction {
                    // Another process may have migrated while this one waited for the lock.
                    guard Int(try connection.integer("PRAGMA user_version") ?? 0) < migration.version else { return }
                    try connection.execute(migration.sql)
                    try connection.execute("PRAGMA user_version = \(migration.version)")
                }
            } catch let error as StorageError {
                throw error
            } catch {
                throw StorageError(kind: .other, message: "\(error)", path: connection.path)
            }
        }
        if current < latest {
            log.info(
                "Database migrated",
                metadata: ["storage.path": connection.path, "storage.from": "\(current)", "storage.to": "\(latest)"]
            )
        }
    }
}
