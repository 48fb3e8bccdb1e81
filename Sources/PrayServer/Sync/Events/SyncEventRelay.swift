#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How the servers of one store tell each other about their event streams (SYNC.md §9, "Several
/// servers"): each publishes what happened to its own streams' spaces and devices, and each listens
/// for what the others published. PostgreSQL's `LISTEN`/`NOTIFY` is the one kind
/// (``SyncEventRelayPostgres``); a SQLite store has one server and no relay.
protocol SyncEventRelay: Sendable {
    /// Sends `notice` to every server of the store (this one hears it too, and skips its own).
    /// - Throws: ``StorageError`` when the database cannot take it now.
    func publish(_ notice: SyncEventNotice) throws

    /// A new listener, for the one thread that holds a server's streams: it owns its connection and
    /// closes it in ``SyncEventListener/close()``.
    func listener() -> any SyncEventListener

    /// The versions of `spaces` now, as pull cursors (a space that no longer exists is left out).
    /// - Throws: ``StorageError``.
    func versions(of spaces: Set<String>) throws -> [String: String]
}

/// Hears what the servers of a store publish. Used by one thread at a time.
protocol SyncEventListener: AnyObject {
    /// Waits up to `timeout` seconds for notices and returns those heard (none when the time passed).
    /// When it begins to listen — the first time, and again after the database came back — it
    /// returns a ``SyncEventNotice/Kind/reread`` first: what was published while it was not listening
    /// is then read from the database.
    func receive(timeout: TimeInterval) -> [SyncEventNotice]

    /// Stops listening and closes the connection.
    func close()
}

/// A store whose servers tell each other about their event streams (PostgreSQL): ``SyncRoutes``
/// gives its ``SyncEvents`` the store's relay.
protocol SyncEventRelaying {
    /// The relay between the servers of this store.
    func eventRelay() -> any SyncEventRelay
}
