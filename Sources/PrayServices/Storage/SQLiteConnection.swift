internal import CSQLite
import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// A value bound to a statement or read from a row. `package`, as are the connection and statement
/// members the sync server's SQLite store (PrayServer) uses: one SQLite layer for both.
package enum SQLiteValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// One open SQLite connection. Not `Sendable`: ``SQLiteDatabase`` keeps it behind a mutex, so only
/// one thread ever uses it at a time (it is opened with `SQLITE_OPEN_NOMUTEX`).
package final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String

    /// Opens (creating if needed) the database file at `path`.
    /// - Throws: ``StorageError`` when the file or its folder cannot be opened.
    package init(path: String) throws(StorageError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw Self.error(code: code, message: message, sql: nil, path: path, systemError: errno)
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no values.
    /// - Throws: ``StorageError``.
    func execute(_ sql: String) throws(StorageError) {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), sql: sql)
    }

    /// Compiles a statement.
    /// - Throws: ``StorageError``.
    package func prepare(_ sql: String) throws(StorageError) -> SQLiteStatement {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil), sql: sql)
        guard let statement else {
            throw StorageError(kind: .other, message: "the statement is empty", sql: sql, path: path)
        }
        return SQLiteStatement(handle: statement, connection: self, sql: sql)
    }

    /// The single integer a query returns (`PRAGMA user_version`), or `nil` for no row.
    /// - Throws: ``StorageError``.
    package func integer(_ sql: String) throws(StorageError) -> Int64? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int64(0) : nil
    }

    /// Runs `body` in a transaction that takes the write lock at once (`BEGIN IMMEDIATE`), so that
    /// concurrent writers wait for each other (up to the busy timeout) instead of failing halfway.
    /// Commits when `body` returns, rolls back when it throws.
    /// - Throws: What `body` throws, or ``StorageError``.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // A failed COMMIT may already have rolled back; ROLLBACK then fails harmlessly.
            sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// The single funnel for result codes: success passes through, anything else becomes a
    /// ``StorageError`` with SQLite's code and message and the SQL (never the bound values).
    @discardableResult
    func check(_ code: Int32, sql: String?) throws(StorageError) -> Int32 {
        guard code != SQLITE_OK, code != SQLITE_ROW, code != SQLITE_DONE else { return code }
        throw Self.error(
            code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql, path: path,
            systemError: sqlite3_system_errno(handle)
        )
    }

    /// The error for an SQLite result code.
    static func error(code: Int32, message: String, sql: String?, path: String, systemError: Int32) -> StorageError {
        let kind: StorageError.Kind
        switch code & 0xff {
        case SQLITE_CANTOPEN: kind = .cannotOpen
        case SQLITE_NOTADB: kind = .notADatabase
        case SQLITE_CORRUPT: kind = .corrupt
        case SQLITE_READONLY, SQLITE_PERM: kind = .readOnly
        case SQLITE_FULL: kind = .full
        case SQLITE_BUSY, SQLITE_LOCKED: kind = .busy
        case SQLITE_CONSTRAINT: kind = .constraint
        case SQLITE_IOERR where systemError == ENOSPC: kind = .full
        default: kind = .other
        }
        return StorageError(kind: kind, code: Int(code), message: message, sql: sql, path: path)
    }
}

/// A compiled statement, finalized when released. Not `Sendable`: it belongs to its connection.
package final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: SQLiteConnection
    let sql: String

    /// `SQLITE_TRANSIENT`, which Swift does not import: SQLite copies the bound text.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    fileprivate init(handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement and binds `values` to its parameters, in order.
    /// - Throws: ``StorageError``.
    package func bind(_ values: [SQLiteValue]) throws(StorageError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let integer): code = sqlite3_bind_int64(handle, index, integer)
            case .real(let real): code = sqlite3_bind_double(handle, index, real)
            case .text(let text): code = sqlite3_bind_text(handle, index, text, -1, Self.transient)
            }
            try connection.check(code, sql: sql)
        }
    }

    /// Advances to the next row: `true` when there is one, `false` when the statement is done.
    /// - Throws: ``StorageError``.
    package func step() throws(StorageError) -> Bool {
        try connection.check(sqlite3_step(handle), sql: sql) == SQLITE_ROW
    }

    /// Runs the statement to completion with `values` bound.
    /// - Throws: ``StorageError``.
    func run(_ values: [SQLiteValue] = []) throws(StorageError) {
        try bind(values)
        while try step() {}
    }

    /// How many columns a row of the statement has.
    package var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The integer in `column` of the current row.
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// The real in `column` of the current row.
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// The text in `column` of the current row, or `nil` for NULL.
    package func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: bytes)
    }
}
