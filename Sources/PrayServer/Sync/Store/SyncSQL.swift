import PrayCore
import PrayServices  // its SQLite layer only: SQLiteConnection, SQLiteStatement

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A value bound to a statement's parameter (`$1`, `$2`, …): never spliced into the SQL.
enum SyncSQLValue: Equatable {
    case null
    case integer(Int64)
    case text(String)

    /// The parameter's text, or `nil` for SQL NULL.
    var text: String? {
        switch self {
        case .null: nil
        case .integer(let value): String(value)
        case .text(let value): value
        }
    }
}

/// One row of a result, each column as text (`nil` for NULL): SQLite and PostgreSQL give integers as
/// their decimal text alike.
struct SyncSQLRow {
    let columns: [String?]

    /// A column's text, or `nil` for NULL.
    func text(_ column: Int) -> String? { columns[column] }

    /// An integer column (0 for NULL).
    func int64(_ column: Int) -> Int64 { optionalInt64(column) ?? 0 }

    /// A nullable integer column.
    func optionalInt64(_ column: Int) -> Int64? { columns[column].flatMap { Int64($0) } }
}

/// A connection the sync stores' shared logic (``SyncStoreEngine``) runs its statements on. The SQL
/// is the part SQLite and PostgreSQL share: `$1`-style parameters, `ON CONFLICT … DO UPDATE`,
/// `RETURNING`.
protocol SyncSQLConnection {
    /// Runs one statement with `values` bound to `$1`, `$2`, … and returns its rows.
    /// - Throws: The database's error.
    func rows(_ sql: String, _ values: [SyncSQLValue]) throws -> [SyncSQLRow]
}

extension SyncSQLConnection {
    /// The first row of a statement (which runs to its end), or `nil`.
    func first(_ sql: String, _ values: [SyncSQLValue] = []) throws -> SyncSQLRow? {
        try rows(sql, values).first
    }

    /// Runs a statement for its effect.
    func run(_ sql: String, _ values: [SyncSQLValue] = []) throws {
        _ = try rows(sql, values)
    }
}

/// A database a sync store keeps its tables in, with its own transactions.
protocol SyncSQLDatabase: Sendable {
    associatedtype Connection: SyncSQLConnection

    /// What locks the user's row until the end of a push's transaction (`FOR UPDATE OF users`), where
    /// the transaction alone does not make pushes take turns.
    var userLock: String { get }

    /// Runs `body` in one transaction that may write. `idempotent`: the body may run again when the
    /// database cannot tell whether it committed (a lost connection).
    func write<T: Sendable>(idempotent: Bool, _ body: @Sendable (Connection) throws -> T) throws -> T

    /// Runs `body` on one snapshot, writing nothing.
    func read<T: Sendable>(_ body: @Sendable (Connection) throws -> T) throws -> T

    /// The devices seen whose last-seen time waits to be written (one per store handle).
    var lastSeen: SyncLastSeen { get }
}

extension SQLiteConnection: SyncSQLConnection {
    /// Runs one statement; `$N` parameters become SQLite's `?N`, which binds by number (the stores'
    /// SQL has no `$` but in parameters).
    func rows(_ sql: String, _ values: [SyncSQLValue]) throws -> [SyncSQLRow] {
        let statement = try prepare(
            String(decoding: sql.utf8.map { $0 == UInt8(ascii: "$") ? UInt8(ascii: "?") : $0 }, as: UTF8.self))
        try statement.bind(
            values.map { value in
                switch value {
                case .null: .null
                case .integer(let integer): .integer(integer)
                case .text(let text): .text(text)
                }
            })
        var rows: [SyncSQLRow] = []
        while try statement.step() {
            rows.append(SyncSQLRow(columns: (0..<statement.columnCount).map { statement.text($0) }))
        }
        return rows
    }
}
