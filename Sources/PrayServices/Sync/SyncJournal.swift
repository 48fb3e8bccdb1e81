import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// Sync's side of the database (SYNC.md §4), used inside the stores' own transactions so that a
/// change and its outbox entry are committed together or not at all.
///
/// - `sync_state`: the server, this device, the client ID, the next mutation ID, the last stamp, the
///   server's clock offset, the pull cursor, the machine logged in from.
/// - `sync_outbox`: the changes the server has not acknowledged, numbered 1, 2, 3… without gaps.
/// - `sync_rows`: the stamp of each synced row's current value; deleted rows stay as tombstones, so an
///   older write pulled later never brings a row back.
/// - `sync_failed`: the changes the server refused, for the person to retry or drop.
///
/// Nothing is written to these tables until `sync login` turns sync on.
public struct SyncJournal: Sendable {
    /// The identity of this machine: the copy of a database to another machine is told by it.
    private let machineIdentity: @Sendable () -> String
    /// Counts the outbox entries this process wrote: the sync service it is shared with reads it to
    /// know that a write is waiting to be sent (``SyncServiceHTTP/needsSyncAfterWrite``).
    public let writes: SyncOutboxWrites

    /// Creates a journal.
    /// - Parameters:
    ///   - machineIdentity: This machine's identity; by default the contents of the file named by
    ///     `PRAYKIT_MACHINE_ID_FILE`, else `/etc/machine-id` (see ``currentMachineIdentity()``).
    ///   - writes: The counter of outbox entries written, shared by the stores and the sync service of
    ///     one container; a new one by default.
    public init(
        machineIdentity: @escaping @Sendable () -> String = SyncJournal.currentMachineIdentity,
        writes: SyncOutboxWrites = SyncOutboxWrites()
    ) {
        self.machineIdentity = machineIdentity
        self.writes = writes
    }

    /// This machine's identity: the first line of the file `PRAYKIT_MACHINE_ID_FILE` names (tests use
    /// it), else of `/etc/machine-id`, else of `/var/lib/dbus/machine-id`, else (where neither exists:
    /// Apple platforms, containers) a random identity made once and kept in the user's state folder —
    /// never the host name, which changes when a laptop joins another network. An app on Apple
    /// platforms gives its own, stabler one (`identifierForVendor`) through
    /// `PrayDependency.Configuration.machineIdentity`. Read once per process: every status and every
    /// write asks for it.
    public static func currentMachineIdentity() -> String { machineIdentityOfThisProcess }

    private static let machineIdentityOfThisProcess: String = machineIdentity(
        environment: ProcessInfo.processInfo.environment)

    /// The identity ``currentMachineIdentity()`` reads, from `environment` and these files.
    /// - Parameters:
    ///   - environment: `PRAYKIT_MACHINE_ID_FILE`, and `XDG_STATE_HOME`/`HOME` for the kept identity.
    ///   - systemFiles: The machine's own identity files, in order.
    static func machineIdentity(
        environment: [String: String],
        systemFiles: [String] = ["/etc/machine-id", "/var/lib/dbus/machine-id"]
    ) -> String {
        let candidates = [environment["PRAYKIT_MACHINE_ID_FILE"]] + systemFiles.map(Optional.some)
        for case let path? in candidates {
            if let line = firstLine(of: path) { return line }
        }
        return keptIdentity(in: stateFolder(environment))
    }

    /// The first line of a file, when it has a non-empty one (at most 128 characters).
    private static func firstLine(of path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let line = text.split(whereSeparator: \.isNewline).first, !line.isEmpty
        else { return nil }
        return String(line.prefix(128))
    }

    /// `$XDG_STATE_HOME/praykit`, else `~/.local/state/praykit` (Apple platforms: the Application
    /// Support folder's `PrayKit`): a folder that a copy of the database alone does not carry.
    static func stateFolder(_ environment: [String: String]) -> String {
        #if canImport(Darwin)
            if let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first {
                return support.appendingPathComponent("PrayKit").path
            }
        #endif
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/praykit" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FilePath.userHome()
        return home + "/.local/state/praykit"
    }

    /// The identity kept in `folder`'s `machine-id`, made (128 random bits) on first use; a folder
    /// that cannot be written gives one for this process only, so a later process may see a copy where
    /// there is none — it then asks to log in again, and loses nothing.
    static func keptIdentity(in folder: String) -> String {
        let path = folder + "/machine-id"
        if let line = firstLine(of: path) { return line }
        var generator = SystemRandomNumberGenerator()
        let made = "kept:" + SyncID.hex(count: 16, using: &generator)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Created without replacing: two processes making it at once keep the first one's.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            let bytes = Array((made + "\n").utf8)
            _ = write(descriptor, bytes, bytes.count)
            close(descriptor)
        }
        return firstLine(of: path) ?? made
    }

    /// The file that keeps the device token of the database at `databasePath`: beside it, 0600.
    public static func tokenPath(forDatabase databasePath: String) -> String { databasePath + ".sync-token" }

    /// The keys of `sync_state`.
    enum Key: String, CaseIterable {
        case enabled, server, user
        case deviceID = "device_id"
        case deviceName = "device_name"
        case clientID = "client_id"
        case nextMutationID = "next_mutation_id"
        case lastHLC = "last_hlc"
        case clockOffset = "clock_offset"
        case machine
        case cursor
        case loggedOut = "logged_out"
        case lastSynced = "last_synced"
        case lastError = "last_error"
        /// Why the last cycle failed (``SyncStatus/OfflineReason``).
        case lastErrorKind = "last_error_kind"
        case preferServer = "prefer_server"
        case needsFullPush = "needs_full_push"
        /// The row schema of the last pull (1 when absent).
        case schema
        /// `1` on a device paired with a follow code: it reads its one space and journals nothing of its own.
        case follower
        /// While a process holds the event stream: `<milliseconds since 1970> <process ID>`.
        case live
        /// Why the event stream last closed, in words.
        case liveError = "live_error"
    }

    /// Why the server will not take this device's changes until it logs in again.
    enum LoggedOut: String {
        /// The server refused the token (revoked, unknown).
        case unauthorized
        /// The database was copied from another machine.
        case copied
    }
}

// MARK: - State

extension SyncJournal {
    /// The value of a state key.
    static func get(_ key: Key, _ connection: SQLiteConnection) throws -> String? {
        let statement = try connection.prepare("SELECT value FROM sync_state WHERE key = ?")
        try statement.bind([.text(key.rawValue)])
        return try statement.step() ? statement.text(0) : nil
    }

    /// Sets, or with `nil` removes, a state key.
    static func set(_ key: Key, _ value: String?, _ connection: SQLiteConnection) throws {
        if let value {
            try connection.prepare(
                "INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
            ).run([.text(key.rawValue), .text(value)])
        } else {
            try connection.prepare("DELETE FROM sync_state WHERE key = ?").run([.text(key.rawValue)])
        }
    }

    /// Whether changes are journaled: from `sync login` until `sync logout`.
    static func isOn(_ connection: SQLiteConnection) throws -> Bool {
        try get(.enabled, connection) == "1"
    }
}

// MARK: - Writing changes

extension SyncJournal {
    /// Journals puts (a value) and deletes (`nil`) of rows of `collection`, in order, when sync is on.
    /// A month of a mosque this device follows goes into the mosque's space when it may write there
    /// (`mosque-month`), and is refused when it follows it as a viewer (``SyncError`` `readOnly`; with
    /// `refusingReadOnly` false, as for a restore, it stays on this device); one whose space is gone
    /// stays on this device. A follow-code device journals nothing of its own.
    func changed(
        _ collection: SyncCollection, _ rows: [(key: String, value: SyncValue?)], now: Date,
        _ connection: SQLiteConnection, refusingReadOnly: Bool = true
    ) throws {
        guard try Self.isOn(connection) else { return }
        for row in rows {
            guard collection == .mosque, let (name, year, month) = try? SyncRules.parseMosqueKey(row.key) else {
                try append(collection, row.key, value: row.value, now: now, connection)
                continue
            }
            switch try SyncSpaces.target(ofMosque: name, connection) {
            case .own:
                // A mosque no longer updated is this device's copy, not the person's data, until kept.
                if try SyncSpaces.space(named: name, connection) == nil {
                    try append(collection, row.key, value: row.value, now: now, connection)
                }
            case .space(let space):
                let key = SyncSpaces.localKey(space: space, key: "\(year.zeroPadded(4))-\(month.zeroPadded(2))")
                let value = row.value?.payload(as: SyncMosqueValue.self).map { SyncValue.mosqueMonth(.init($0)) }
                try append(.mosqueMonth, key, value: value, now: now, connection)
            case .readOnly(let space):
                if refusingReadOnly { throw SyncSpaces.readOnly(space) }
            }
        }
    }

    /// Journals a put or a delete of a mosque's row of a space collection (its settings, a notice), when
    /// sync is on and the mosque is a space this device may write; refuses a viewer's (``SyncError``
    /// `readOnly`). Nothing is journaled for a mosque that is not a space: its settings stay here.
    func changed(
        inMosque name: String, _ collection: SyncCollection, key: String, value: SyncValue?, now: Date,
        _ connection: SQLiteConnection
    ) throws {
        guard try Self.isOn(connection) else { return }
        switch try SyncSpaces.target(ofMosque: name, connection) {
        case .own: return
        case .space(let space):
            try append(collection, SyncSpaces.localKey(space: space, key: key), value: value, now: now, connection)
        case .readOnly(let space): throw SyncSpaces.readOnly(space)
        }
    }

    /// Journals the rows of `collection` an import replaced, when sync is on: a delete of every key of
    /// `before` that `after` lacks, then a put of every row of `after`.
    func replaced(
        _ collection: SyncCollection, before: [String], after: [(key: String, value: SyncValue?)], now: Date,
        _ connection: SQLiteConnection
    ) throws {
        let kept = Set(after.map(\.key))
        let gone = Set(before).subtracting(kept).sorted().map { (key: $0, value: SyncValue?.none) }
        try changed(collection, gone + after, now: now, connection, refusingReadOnly: false)
    }

    /// Adds one change to the outbox under the next mutation ID, with a new stamp, and records the
    /// stamp as the row's. A follow-code device adds none of its own data (it has none on the server).
    func append(
        _ collection: SyncCollection, _ key: String, value: SyncValue?, now: Date, _ connection: SQLiteConnection,
        stamp: HLC? = nil
    ) throws {
        if SyncSpaces.split(collection, key) == nil, try Self.get(.follower, connection) == "1" { return }
        let hlc = try stamp ?? self.stamp(now: now, connection)
        let id = Int64(try Self.get(.nextMutationID, connection) ?? "1") ?? 1
        try connection.prepare(
            "INSERT INTO sync_outbox (mutation_id, collection, key, op, hlc, value, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
        ).run([
            .integer(id), .text(collection.rawValue), .text(key), .text(value == nil ? "delete" : "put"),
            .text(hlc.description),
            value.map { .text(String(decoding: (try? $0.jsonData()) ?? Data(), as: UTF8.self)) }
                ?? .null,
            .integer(PrayerLogEntry.milliseconds(now)),
        ])
        try Self.set(.nextMutationID, String(id + 1), connection)
        try Self.setRowStamp(collection, key, hlc: hlc, deleted: value == nil, connection)
        writes.count()
    }

    /// Records the stamp of a row's current value.
    static func setRowStamp(
        _ collection: SyncCollection, _ key: String, hlc: HLC, deleted: Bool, _ connection: SQLiteConnection
    ) throws {
        try connection.prepare(
            "INSERT INTO sync_rows (collection, key, hlc, deleted) VALUES (?, ?, ?, ?) "
                + "ON CONFLICT (collection, key) DO UPDATE SET hlc = excluded.hlc, deleted = excluded.deleted"
        ).run([.text(collection.rawValue), .text(key), .text(hlc.description), .integer(deleted ? 1 : 0)])
    }

    /// The stamp of a row's current value, if it has one.
    static func rowStamp(_ collection: SyncCollection, _ key: String, _ connection: SQLiteConnection) throws -> HLC? {
        let statement = try connection.prepare("SELECT hlc FROM sync_rows WHERE collection = ? AND key = ?")
        try statement.bind([.text(collection.rawValue), .text(key)])
        guard try statement.step(), let text = statement.text(0) else { return nil }
        return try? HLC(parsing: text)
    }

    /// The next stamp of this client: after every stamp made or seen, on the wall clock corrected by
    /// the server's offset. The last stamp is kept in the database, so that stamps keep increasing
    /// across processes. A database found on another machine than the one it logged in from is marked
    /// copied first, and stamps with a client ID of its own.
    func stamp(now: Date, _ connection: SQLiteConnection) throws -> HLC {
        try detectCopy(connection)
        let clientID = try Self.get(.clientID, connection) ?? SyncID.newClientID()
        let last = try Self.get(.lastHLC, connection).flatMap { try? HLC(parsing: $0) }
        let offset = Int64(try Self.get(.clockOffset, connection) ?? "0") ?? 0
        let clock = try HLCClock(clientID: clientID, now: { now }, last: last, offsetMilliseconds: offset)
        let stamp = clock.next()
        try Self.set(.lastHLC, stamp.description, connection)
        return stamp
    }

    /// Raises the stamp floor to one seen from elsewhere.
    static func observe(_ stamp: HLC, _ connection: SQLiteConnection) throws {
        if let last = try get(.lastHLC, connection).flatMap({ try? HLC(parsing: $0) }), last >= stamp { return }
        try set(.lastHLC, stamp.description, connection)
    }

    /// When sync is on and this machine is not the one the database logged in from, the database was
    /// copied (a restore on a new machine, a copied home): every change is kept, but the token and the
    /// client ID are dropped, so that the two copies never speak as one client; `sync login` then
    /// pushes every pending change under a new client ID. Returns whether it was copied.
    @discardableResult
    func detectCopy(_ connection: SQLiteConnection) throws -> Bool {
        guard try Self.isOn(connection), let machine = try Self.get(.machine, connection) else { return false }
        if try Self.get(.loggedOut, connection) == LoggedOut.copied.rawValue { return true }
        guard machine != machineIdentity() else { return false }
        try Self.set(.loggedOut, LoggedOut.copied.rawValue, connection)
        // A client ID of this copy's own for its stamps, until it logs in again.
        try Self.set(.clientID, SyncID.newClientID(), connection)
        try Self.set(.machine, machineIdentity(), connection)
        try? FileManager.default.removeItem(atPath: Self.tokenPath(forDatabase: connection.path))
        return true
    }

    /// This machine's identity, as recorded at login.
    var machine: String { machineIdentity() }
}

// MARK: - Conflicts

extension SyncJournal {
    /// Whether a change of the row waits in the outbox.
    static func isPending(_ collection: SyncCollection, _ key: String, _ connection: SQLiteConnection) throws -> Bool {
        let statement = try connection.prepare("SELECT 1 FROM sync_outbox WHERE collection = ? AND key = ? LIMIT 1")
        try statement.bind([.text(collection.rawValue), .text(key)])
        return try statement.step()
    }

    /// Keeps a local value that a newer row replaces in the conflicts list (SYNC.md §8, I15); the
    /// winning value is the row's as this device has it when the list is read.
    /// - Parameters:
    ///   - winner: The stamp of the row that won, when it is known (a pull); `nil` for a push the server
    ///     kept out, whose winner arrives with the next pull.
    static func addConflict(
        _ collection: SyncCollection, _ key: String, local: SyncValue?, winner: HLC?, reason: SyncConflict.Reason,
        now: Date, _ connection: SQLiteConnection
    ) throws {
        let text: (SyncValue?) -> SQLiteValue = { value in
            value.flatMap { try? $0.jsonData() }.map { .text(String(decoding: $0, as: UTF8.self)) } ?? .null
        }
        try connection.prepare(
            "INSERT INTO sync_conflicts (collection, key, local_value, winner_hlc, reason, at) "
                + "VALUES (?, ?, ?, ?, ?, ?)"
        ).run([
            .text(collection.rawValue), .text(key), text(local), winner.map { .text($0.description) } ?? .null,
            .text(reason.rawValue), .integer(PrayerLogEntry.milliseconds(now)),
        ])
    }
}

// MARK: - The outbox

extension SyncJournal {
    /// One change waiting for the server.
    struct Pending {
        var mutation: SyncAPI.Mutation
        var createdAt: Date
    }

    /// The oldest `limit` changes in the outbox, in order.
    static func pending(limit: Int, _ connection: SQLiteConnection) throws -> [Pending] {
        let statement = try connection.prepare(
            "SELECT mutation_id, collection, key, op, hlc, value, created_at FROM sync_outbox "
                + "ORDER BY mutation_id LIMIT ?")
        try statement.bind([.integer(Int64(limit))])
        var result: [Pending] = []
        while try statement.step() {
            result.append(try pending(statement, connection))
        }
        return result
    }

    /// Reads a row of `sync_outbox` or `sync_failed` (the same first seven columns).
    static func pending(_ statement: SQLiteStatement, _ connection: SQLiteConnection) throws -> Pending {
        guard let collection = statement.text(1).flatMap(SyncCollection.init(rawValue:)),
            let op = statement.text(3).flatMap(SyncAPI.Operation.init(rawValue:)),
            let hlc = statement.text(4).flatMap({ try? HLC(parsing: $0) })
        else {
            throw StorageError(
                kind: .invalidData, message: "the sync outbox holds an unreadable entry", path: connection.path)
        }
        var value: SyncValue?
        if op == .put, let text = statement.text(5) {
            do {
                value = try SyncValue(collection, json: Data(text.utf8))
            } catch {
                throw StorageError(
                    kind: .invalidData, message: "the sync outbox holds an unreadable value", path: connection.path)
            }
        }
        let mutation = SyncAPI.Mutation(
            id: Int(statement.int64(0)), collection: collection, key: statement.text(2) ?? "", op: op, hlc: hlc,
            value: value)
        return Pending(mutation: mutation, createdAt: Date(timeIntervalSince1970: Double(statement.int64(6)) / 1000))
    }

    /// How many changes wait, and when the oldest was made.
    static func pendingSummary(_ connection: SQLiteConnection) throws -> (count: Int, oldest: Date?) {
        let statement = try connection.prepare("SELECT count(*), min(created_at) FROM sync_outbox")
        _ = try statement.step()
        let count = Int(statement.int64(0))
        return (count, count > 0 ? Date(timeIntervalSince1970: Double(statement.int64(1)) / 1000) : nil)
    }

    /// Removes the entries the server has acknowledged (IDs up to `lastMutationID`); those it refused
    /// move to the failed list.
    static func acknowledge(
        through lastMutationID: Int, rejected: [SyncAPI.Rejection], now: Date, _ connection: SQLiteConnection
    ) throws -> Int {
        let move = try connection.prepare(
            "INSERT OR REPLACE INTO sync_failed (mutation_id, collection, key, op, hlc, value, reason, failed_at) "
                + "SELECT mutation_id, collection, key, op, hlc, value, ?, ? FROM sync_outbox WHERE mutation_id = ?")
        for rejection in rejected where rejection.id <= lastMutationID {
            try move.run([
                .text(String(rejection.reason.prefix(500))), .integer(PrayerLogEntry.milliseconds(now)),
                .integer(Int64(rejection.id)),
            ])
        }
        let delete = try connection.prepare("DELETE FROM sync_outbox WHERE mutation_id <= ?")
        try delete.run([.integer(Int64(lastMutationID))])
        return Int(try connection.integer("SELECT changes()") ?? 0)
    }

    /// Numbers the outbox 1, 2, 3… again (a new client ID after a login or a conflict), keeping the
    /// order, and sets the next ID after them.
    static func renumber(from first: Int, _ connection: SQLiteConnection) throws {
        try connection.execute("UPDATE sync_outbox SET mutation_id = -mutation_id")
        let ids = try connection.prepare("SELECT mutation_id FROM sync_outbox ORDER BY mutation_id DESC")
        var old: [Int64] = []
        while try ids.step() { old.append(ids.int64(0)) }
        let update = try connection.prepare("UPDATE sync_outbox SET mutation_id = ? WHERE mutation_id = ?")
        for (index, id) in old.enumerated() { try update.run([.integer(Int64(first + index)), .integer(id)]) }
        try set(.nextMutationID, String(first + old.count), connection)
        try restamp(connection)
    }

    /// Stamps every outbox entry with the current client ID, keeping its time and counter (the
    /// server rejects a mutation stamped with another client's ID), and the local row stamps with it.
    static func restamp(_ connection: SQLiteConnection) throws {
        guard let client = try get(.clientID, connection) else { return }
        let entries = try connection.prepare("SELECT mutation_id, collection, key, hlc FROM sync_outbox")
        var changes: [(id: Int64, collection: String, key: String, old: String, new: String)] = []
        while try entries.step() {
            guard let text = entries.text(3), let stamp = try? HLC(parsing: text), stamp.clientID != client else {
                continue
            }
            let new = try HLC(milliseconds: stamp.milliseconds, counter: stamp.counter, clientID: client)
            changes.append((entries.int64(0), entries.text(1) ?? "", entries.text(2) ?? "", text, new.description))
        }
        let outbox = try connection.prepare("UPDATE sync_outbox SET hlc = ? WHERE mutation_id = ?")
        let rows = try connection.prepare("UPDATE sync_rows SET hlc = ? WHERE collection = ? AND key = ? AND hlc = ?")
        for change in changes {
            try outbox.run([.text(change.new), .integer(change.id)])
            try rows.run([.text(change.new), .text(change.collection), .text(change.key), .text(change.old)])
        }
    }
}

/// The number of outbox entries the stores of one process wrote (a write whose transaction then failed
/// counts too: at worst one needless short cycle). The stores that write an outbox entry and the sync
/// service share one, so that the service knows a write waits without being told by the caller.
public final class SyncOutboxWrites: Sendable {
    private let written = Atomic<Int>(0)

    /// Creates a counter at zero.
    public init() {}

    /// The entries written so far.
    public var total: Int { written.load(ordering: .relaxed) }

    /// Counts one entry.
    func count() { written.add(1, ordering: .relaxed) }
}
