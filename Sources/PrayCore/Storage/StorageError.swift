#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A failure of the local database, with what SQLite said and what the user can do about it.
///
/// The SQL of a failing statement is kept for diagnosis; the values bound to it never are, so an
/// error can be logged without leaking a user's data.
public struct StorageError: Error, Equatable, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// What kind of failure this is.
    public enum Kind: String, Equatable, Hashable, Sendable {
        /// The file or its folder cannot be opened or created (permissions, a missing parent).
        case cannotOpen
        /// The file exists but is not an SQLite database.
        case notADatabase
        /// The database is damaged.
        case corrupt
        /// The file or its folder is read-only.
        case readOnly
        /// The disk (or the database's size limit) is full.
        case full
        /// Another process held the database for longer than the busy timeout (or, for PostgreSQL,
        /// the transaction met a serialization failure or a deadlock too often).
        case busy
        /// The database server (PostgreSQL) cannot be reached, refused the connection, or is shutting
        /// down or starting: nothing was written, and the same request may succeed a little later.
        case unavailable
        /// A write broke a rule of the schema.
        case constraint
        /// The database was made by a newer version of PrayKit.
        case schemaTooNew
        /// The database has a schema older than this version of PrayKit's, which it does not upgrade
        /// by itself (a PostgreSQL sync store several servers share: the upgrade is the operator's).
        case schemaTooOld
        /// Data read or imported is not what PrayKit expects.
        case invalidData
        /// The file or its folder could let another user read or change what is stored: a symbolic
        /// link, a file of another user or with other hard links, a folder others can write. Nothing
        /// was opened.
        case insecure
        /// Any other SQLite failure.
        case other
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// SQLite's extended result code, or 0 when the failure is PrayKit's own.
    public let code: Int
    /// SQLite's message (or PrayKit's for its own failures).
    public let message: String
    /// The statement that failed, without its bound values.
    public let sql: String?
    /// The database file (for PostgreSQL, its URL without the password).
    public let path: String?

    /// Creates an error.
    public init(kind: Kind, code: Int = 0, message: String, sql: String? = nil, path: String? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// The sentence of ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }

    /// A sentence that says what failed and what to do.
    public var description: String {
        let file = path.map { "the database \($0)" } ?? "the database"
        switch kind {
        case .cannotOpen:
            return "cannot open or create \(file): \(message); check that its folder exists and is writable"
        case .notADatabase:
            return "\(file) is not a PrayKit database (\(message)); nothing was changed"
        case .corrupt:
            return "\(file) is damaged (\(message)); nothing was changed: restore it from a backup, or move it "
                + "aside to start afresh"
        case .readOnly:
            return "\(file) cannot be written (\(message)); check the permissions of the file and its folder"
        case .full:
            return "the disk is full or \(file) reached its size limit (\(message)); nothing was written"
        case .busy:
            return "\(file) is busy: another process kept it locked for too long (\(message)); try again"
        case .unavailable:
            return "\(file) cannot be reached (\(message)); nothing was written: check that its server is running "
                + "and accepts this connection, then try again"
        case .constraint:
            return "\(file) refused the change (\(message))"
        case .schemaTooNew:
            return "\(file) was made by a newer version of PrayKit (\(message)); update PrayKit to use it"
        case .schemaTooOld:
            return "\(file) has an older schema (\(message)); upgrade it before this version of PrayKit uses it"
        case .invalidData:
            return message
        case .insecure:
            return "\(file) was not opened: \(message)"
        case .other:
            return "\(file) failed: \(message)"
        }
    }
}
