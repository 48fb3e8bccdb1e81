import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The mosque spaces this device follows, as `sync_spaces` keeps them (SYNC.md §8), and how their
/// rows are named here: a space's row is kept under the local key `<space ID>/<key>` of its
/// collection (`s_5f0c…/2027-03` of `mosque-month`), so that the stamps, the outbox and the conflicts
/// of every space live beside the personal ones; its month of timetable is the month of the mosque of
/// the space's name here, its settings, notices and month starts are rows of `mosque_space_rows`.
enum SyncSpaces {
    /// The local key of a space's row.
    static func localKey(space: String, key: String) -> String { space + "/" + key }

    /// The space and the wire key of a local key, when it is a space's row: a collection that belongs
    /// in mosque spaces, and a key `s_<16 hex>/…`.
    static func split(_ collection: SyncCollection, _ localKey: String) -> (space: String, key: String)? {
        guard collection.spaceKinds.contains(.mosque), let slash = localKey.firstIndex(of: "/") else { return nil }
        let space = String(localKey[..<slash])
        guard SyncID.isSpaceID(space) else { return nil }
        return (space, String(localKey[localKey.index(after: slash)...]))
    }

    /// Every space kept, by local name.
    static func all(_ connection: SQLiteConnection) throws -> [SyncSpaceInfo] {
        let statement = try connection.prepare(
            "SELECT id, name, title, role, gone_at FROM sync_spaces ORDER BY name")
        var spaces: [SyncSpaceInfo] = []
        while try statement.step() {
            spaces.append(info(statement))
        }
        return spaces
    }

    /// The space of `id`, if kept.
    static func space(id: String, _ connection: SQLiteConnection) throws -> SyncSpaceInfo? {
        let statement = try connection.prepare("SELECT id, name, title, role, gone_at FROM sync_spaces WHERE id = ?")
        try statement.bind([.text(id)])
        return try statement.step() ? info(statement) : nil
    }

    /// The space whose mosque is named `name` here, if any.
    static func space(named name: String, _ connection: SQLiteConnection) throws -> SyncSpaceInfo? {
        let statement = try connection.prepare(
            "SELECT id, name, title, role, gone_at FROM sync_spaces WHERE name = ?")
        try statement.bind([.text(name)])
        return try statement.step() ? info(statement) : nil
    }

    private static func info(_ statement: SQLiteStatement) -> SyncSpaceInfo {
        let gone = statement.text(4).flatMap(Int64.init).map { Date(timeIntervalSince1970: Double($0) / 1000) }
        return SyncSpaceInfo(
            space: SyncSpace(
                id: statement.text(0) ?? "", kind: .mosque, name: statement.text(2) ?? "",
                role: SyncRole(rawValue: statement.text(3) ?? "") ?? .viewer),
            localName: statement.text(1) ?? "", goneAt: gone)
    }

    /// Keeps a space the server listed: a new one under its name here (the server's name, or with
    /// ` (2)`, ` (3)`… when a mosque here has it already), a known one with its name and role as the
    /// server gives them now.
    /// - Returns: The space as kept, and whether it is new.
    @discardableResult
    static func keep(_ space: SyncSpace, _ connection: SQLiteConnection, localName: String? = nil) throws
        -> (info: SyncSpaceInfo, isNew: Bool)
    {
        if let known = try self.space(id: space.id, connection) {
            try connection.prepare("UPDATE sync_spaces SET title = ?, role = ?, gone_at = NULL WHERE id = ?").run([
                .text(space.name), .text(space.role.rawValue), .text(space.id),
            ])
            return (SyncSpaceInfo(space: space, localName: known.localName), false)
        }
        let name = try localName ?? freeName(for: space.name, connection)
        try connection.prepare("INSERT INTO sync_spaces (id, name, title, role) VALUES (?, ?, ?, ?)").run([
            .text(space.id), .text(name), .text(space.name), .text(space.role.rawValue),
        ])
        return (SyncSpaceInfo(space: space, localName: name), true)
    }

    /// `name`, or `name (2)`, `name (3)`… : the first that no mosque or space here has.
    static func freeName(for name: String, _ connection: SQLiteConnection) throws -> String {
        for number in 1...1_000 {
            let candidate = number == 1 ? name : "\(name.prefix(90)) (\(number))"
            let taken = try connection.prepare(
                "SELECT 1 FROM mosque WHERE name = ? UNION SELECT 1 FROM sync_spaces WHERE name = ?")
            try taken.bind([.text(candidate), .text(candidate)])
            if try !taken.step() { return candidate }
        }
        return name + " (" + String(SyncID.newClientID().suffix(6)) + ")"
    }

    /// Marks a space gone (once: its first time is kept).
    static func markGone(_ id: String, now: Date, _ connection: SQLiteConnection) throws {
        try connection.prepare("UPDATE sync_spaces SET gone_at = COALESCE(gone_at, ?) WHERE id = ?").run([
            .integer(PrayerLogEntry.milliseconds(now)), .text(id),
        ])
    }

    /// The cursors of the spaces still updated.
    static func cursors(_ connection: SQLiteConnection) throws -> [String: String] {
        let statement = try connection.prepare("SELECT id, cursor FROM sync_spaces WHERE gone_at IS NULL")
        var cursors: [String: String] = [:]
        while try statement.step() { cursors[statement.text(0) ?? ""] = statement.text(1) ?? "0" }
        return cursors
    }

    /// Sets a space's cursor.
    static func setCursor(_ id: String, _ cursor: String, _ connection: SQLiteConnection) throws {
        try connection.prepare("UPDATE sync_spaces SET cursor = ? WHERE id = ?").run([.text(cursor), .text(id)])
    }

    /// Where a write of the mosque `name` goes.
    enum WriteTarget {
        /// This device only, or the person's own data: the mosque is no space (or no longer updated).
        case own
        /// Into the space of that ID.
        case space(String)
        /// Nowhere: this device follows the mosque as a viewer.
        case readOnly(SyncSpaceInfo)
    }

    /// Where a write of the mosque `name` goes.
    static func target(ofMosque name: String, _ connection: SQLiteConnection) throws -> WriteTarget {
        guard let space = try space(named: name, connection), !space.isGone else { return .own }
        return space.space.role.canWrite ? .space(space.space.id) : .readOnly(space)
    }

    /// The refusal of a write to a mosque this device follows as a viewer.
    static func readOnly(_ space: SyncSpaceInfo) -> SyncError {
        SyncError(
            .readOnly,
            message: "this device follows \(space.localName) as a viewer: its timetable, settings and notices come "
                + "from the mosque; ask its owner to make you an editor")
    }
}
