import PrayCore
import PrayServices  // its SQLite layer only: Schema.Migration

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

extension SyncStoreSQLite {
    /// The store's own schema (SYNC.md §5), apart from PrayKit's database. Times are milliseconds
    /// since 1970; hashes are SHA-256 in hex; values are their wire JSON as text.
    static let migrations = [
        Schema.Migration(
            version: 1,
            sql: """
                CREATE TABLE store (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                ) WITHOUT ROWID;
                INSERT INTO store (key, value) VALUES ('id', lower(hex(randomblob(8))));
                CREATE TABLE users (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    created_at INTEGER NOT NULL,
                    version INTEGER NOT NULL DEFAULT 0,
                    row_count INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE devices (
                    id TEXT PRIMARY KEY NOT NULL,
                    user_id INTEGER NOT NULL REFERENCES users (id),
                    name TEXT NOT NULL,
                    token_lookup TEXT NOT NULL,
                    token_hash TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    last_seen INTEGER,
                    revoked_at INTEGER
                ) WITHOUT ROWID;
                CREATE INDEX devices_by_token ON devices (token_lookup);
                CREATE INDEX devices_by_user ON devices (user_id);
                CREATE TABLE pairing_codes (
                    id INTEGER PRIMARY KEY,
                    user_id INTEGER NOT NULL REFERENCES users (id),
                    lookup TEXT NOT NULL,
                    code_hash TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL,
                    used_at INTEGER,
                    attempts INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX pairing_codes_by_lookup ON pairing_codes (lookup);
                CREATE TABLE failures (
                    scope TEXT NOT NULL,
                    address TEXT NOT NULL,
                    window_start INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (scope, address)
                ) WITHOUT ROWID;
                CREATE INDEX failures_by_start ON failures (window_start);
                CREATE TABLE clients (
                    id TEXT PRIMARY KEY NOT NULL,
                    device_id TEXT NOT NULL REFERENCES devices (id),
                    last_mutation_id INTEGER NOT NULL DEFAULT 0,
                    created_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE sync_rows (
                    user_id INTEGER NOT NULL REFERENCES users (id),
                    collection TEXT NOT NULL,
                    key TEXT NOT NULL,
                    value TEXT,
                    deleted INTEGER NOT NULL CHECK (deleted IN (0, 1)),
                    hlc TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    PRIMARY KEY (user_id, collection, key)
                ) WITHOUT ROWID;
                CREATE INDEX sync_rows_by_version ON sync_rows (user_id, version);
                CREATE TABLE recent_mutations (
                    client_id TEXT NOT NULL REFERENCES clients (id),
                    id INTEGER NOT NULL,
                    payload_hash TEXT NOT NULL,
                    PRIMARY KEY (client_id, id)
                ) WITHOUT ROWID;
                """
        ),
        // Version 2: the payload hashes carry their user and an order (`seq`), so that the store keeps
        // a bounded number per user (``SyncStoreLimits/recentMutationsPerUser``) across its clients;
        // clients are found by device, to retire the oldest (``SyncStoreLimits/maximumClientsPerDevice``).
        // The columns in PostgreSQL's order (its version 2 adds them at the end), so that a copy
        // compares column by column.
        Schema.Migration(
            version: 2,
            sql: """
                CREATE TABLE recent_mutations_by_user (
                    client_id TEXT NOT NULL REFERENCES clients (id),
                    id INTEGER NOT NULL,
                    payload_hash TEXT NOT NULL,
                    user_id INTEGER NOT NULL REFERENCES users (id),
                    seq INTEGER PRIMARY KEY,
                    UNIQUE (client_id, id)
                );
                INSERT INTO recent_mutations_by_user (user_id, client_id, id, payload_hash)
                    SELECT devices.user_id, recent_mutations.client_id, recent_mutations.id,
                        recent_mutations.payload_hash
                    FROM recent_mutations JOIN clients ON clients.id = recent_mutations.client_id
                    JOIN devices ON devices.id = clients.device_id
                    ORDER BY recent_mutations.client_id, recent_mutations.id;
                DROP TABLE recent_mutations;
                ALTER TABLE recent_mutations_by_user RENAME TO recent_mutations;
                CREATE INDEX recent_mutations_by_user_seq ON recent_mutations (user_id, seq);
                CREATE INDEX clients_by_device ON clients (device_id, created_at);
                """
        ),
        // Version 3, spaces (protocol 2, SYNC.md §8): a space is a row of `users` — a person's
        // (`kind` person: their personal space, where their rows already are, so devices and cursors
        // keep working), a mosque's (`mosque`, its name in `title`) or a follow-code device's own
        // (`follower`) — with a public ID; `members` gives each user's role in a mosque space; a
        // pairing code with a `space` is an invitation for `role` in it. As PostgreSQL's version 3.
        Schema.Migration(
            version: 3,
            sql: """
                ALTER TABLE users ADD COLUMN kind TEXT NOT NULL DEFAULT 'person';
                ALTER TABLE users ADD COLUMN space_id TEXT;
                ALTER TABLE users ADD COLUMN title TEXT;
                UPDATE users SET space_id = 's_' || lower(hex(randomblob(8)));
                CREATE UNIQUE INDEX users_by_space ON users (space_id);
                CREATE TABLE members (
                    space INTEGER NOT NULL REFERENCES users (id),
                    member INTEGER NOT NULL REFERENCES users (id),
                    role TEXT NOT NULL,
                    added_at INTEGER NOT NULL,
                    PRIMARY KEY (space, member)
                ) WITHOUT ROWID;
                CREATE INDEX members_by_member ON members (member);
                ALTER TABLE pairing_codes ADD COLUMN space INTEGER REFERENCES users (id);
                ALTER TABLE pairing_codes ADD COLUMN role TEXT;
                CREATE INDEX pairing_codes_by_space ON pairing_codes (space);
                """
        ),
        // Version 4, published pages: a mosque space's `slug`, the last word of its public address
        // (`/m/<slug>/display`), unique on the server; NULL while it is not published (a unique index
        // lets any number of NULLs be). As PostgreSQL's version 4.
        Schema.Migration(
            version: 4,
            sql: """
                ALTER TABLE users ADD COLUMN slug TEXT;
                CREATE UNIQUE INDEX users_by_slug ON users (slug);
                """
        ),
    ]

    // MARK: - The schema as made

    /// One entry of `sqlite_master`: a table, an index, a view or a trigger, with its SQL as stored.
    struct SchemaObject: Hashable, Sendable, CustomStringConvertible {
        let type: String
        let name: String
        let table: String
        let sql: String

        var description: String { "\(type) \(name)" }
    }

    /// The schema a store of `version` has when PrayKit made it: the migrations up to that version
    /// applied to a database in memory, as SQLite stores them (an `ALTER TABLE` rewrites a table's
    /// SQL, so the text is compared with SQLite's, not with the migrations').
    /// - Throws: ``StorageError`` when SQLite cannot run them.
    static func schemaAsMade(version: Int) throws -> Set<SchemaObject> {
        let memory = try SQLiteConnection(path: ":memory:")
        try Schema.migrate(memory, migrations: migrations.filter { $0.version <= version }, log: .silent)
        return try schemaObjects(memory)
    }

    /// What `sqlite_master` of `connection` holds, but SQLite's statistics tables (`ANALYZE` and
    /// `PRAGMA optimize` make them; they hold no code).
    static func schemaObjects(_ connection: SQLiteConnection) throws -> Set<SchemaObject> {
        Set(
            try connection.rows("SELECT type, name, tbl_name, sql FROM sqlite_master", []).map { row in
                SchemaObject(
                    type: row.text(0) ?? "", name: row.text(1) ?? "", table: row.text(2) ?? "", sql: row.text(3) ?? "")
            }.filter { !($0.type == "table" && $0.name.hasPrefix("sqlite_stat")) })
    }

    /// Refuses a store whose schema is not the one PrayKit made for its version: a trigger, a view, a
    /// table or an index more, or one whose SQL differs, is code or data someone else put there (a
    /// trigger runs with the server's rights at the next write). Read before the store is migrated
    /// or written, on a connection of its own that runs nothing of the file's.
    /// - Throws: ``StorageError`` (`insecure`) naming what is extra or changed; or SQLite's error.
    static func checkSchema(at path: String) throws(StorageError) {
        let found: Set<SchemaObject>
        let version: Int
        do {
            let connection = try SQLiteConnection(path: path)
            version = Int(try connection.integer("PRAGMA user_version") ?? 0)
            found = try schemaObjects(connection)
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(kind: .other, message: "\(error)", path: path)
        }
        // A new file has nothing yet; a newer PrayKit's store is refused when it is opened.
        guard version > 0 || !found.isEmpty, version <= (migrations.last?.version ?? 0) else { return }
        let made: Set<SchemaObject>
        do {
            made = try schemaAsMade(version: version)
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(kind: .other, message: "\(error)", path: path)
        }
        guard found != made else { return }
        let madeNames = Set(made.map(\.name))
        let extra = found.filter { !madeNames.contains($0.name) }.map(\.description).sorted()
        let changed = found.filter { madeNames.contains($0.name) && !made.contains($0) }.map(\.description).sorted()
        let missing = Set(made.map(\.name)).subtracting(found.map(\.name)).sorted()
        var parts: [String] = []
        if !extra.isEmpty { parts.append("what PrayKit did not make: " + extra.joined(separator: ", ")) }
        if !changed.isEmpty { parts.append("changed: " + changed.joined(separator: ", ")) }
        if !missing.isEmpty { parts.append("missing: " + missing.joined(separator: ", ")) }
        throw StorageError(
            kind: .insecure,
            message: "the sync store's schema is not the one PrayKit made for version \(version) ("
                + parts.joined(separator: "; ") + "); nothing was run or written. If you did not add them, the "
                + "file was tampered with: restore it from a backup",
            path: path)
    }

    // MARK: - The file

    /// Makes sure the store's file is private before SQLite opens it: a new file is created here with
    /// mode 0600 (`O_EXCL`, without following a link) in a folder created 0700, so it is never
    /// readable by others, not even for a moment; SQLite gives its `-wal` and `-shm` files the same
    /// mode. An existing file must be a regular file of this user that no one else can read or write.
    /// - Throws: ``StorageError`` (`cannotOpen`) saying what is wrong and what to do.
    static func preparePrivateFile(_ path: String) throws(StorageError) {
        let folder = FilePath.folder(of: path)
        if !folder.isEmpty { try createFolder(folder, path: path) }
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        guard errno == EEXIST else { throw openError(path) }
        var status = stat()
        guard lstat(path, &status) == 0 else { throw openError(path) }
        guard status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
            throw StorageError(
                kind: .cannotOpen,
                message: "the sync store is not a regular file (a link or a folder); nothing was opened",
                path: path)
        }
        guard status.st_uid == geteuid() else {
            throw StorageError(
                kind: .cannotOpen,
                message: "the sync store belongs to another user (uid \(status.st_uid)); run the server as its owner",
                path: path)
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw StorageError(
                kind: .cannotOpen,
                message: "the sync store can be read or written by others (mode 0\(String(mode, radix: 8))); "
                    + "run chmod 600 on it (and on its -wal and -shm files)",
                path: path)
        }
    }

    /// Creates each missing folder of `folder` with mode 0700 (`mkdir` with the mode, so there is no
    /// moment at which it is open to others).
    private static func createFolder(_ folder: String, path: String) throws(StorageError) {
        var current = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            current += "/" + component
            var status = stat()
            if stat(current, &status) == 0 { continue }
            if mkdir(current, 0o700) != 0, errno != EEXIST { throw openError(path, folder: current) }
        }
    }

    private static func openError(_ path: String, folder: String? = nil) -> StorageError {
        let reason = String(cString: strerror(errno))
        let what = folder.map { "cannot create the folder \($0)" } ?? "cannot create the sync store"
        return StorageError(kind: .cannotOpen, message: "\(what): \(reason)", path: path)
    }
}
