#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a sync server keeps its users, devices and rows (SYNC.md §5), parsed once from the text an
/// operator writes: `sqlite:PATH` (the embedded store) or a `postgres://…` URL (several servers on
/// one database, Linux only).
///
/// ```swift
/// let location = try SyncStoreLocation(parsing: "sqlite:~/sync/server.sqlite")
/// // .sqlite(path: "/home/amina/sync/server.sqlite")
/// let store = try dependency.syncStore(at: location)
/// ```
public enum SyncStoreLocation: Hashable, Sendable, CustomStringConvertible {
    /// A SQLite file, by absolute path.
    case sqlite(path: String)
    /// A PostgreSQL database, by connection URL as given.
    case postgreSQL(url: String)

    /// Reads a location.
    ///
    /// `sqlite:PATH` takes an absolute path, a path relative to `currentDirectory`, or one that starts
    /// with `~/` (the home folder of `environment`'s `HOME`, else this process's); `sqlite://` is not a
    /// form of it. `postgres://` and `postgresql://` URLs are kept as given.
    /// - Parameters:
    ///   - text: The location as written.
    ///   - environment: For `~`: its `HOME`.
    ///   - currentDirectory: What a relative path is relative to.
    /// - Throws: ``SyncStoreError`` (``SyncStoreErrorKind/invalidLocation``) for anything else.
    public init(
        parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(SyncStoreError) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            self = .postgreSQL(url: text)
            return
        }
        guard lowered.hasPrefix("sqlite:") else {
            throw SyncStoreError(
                .invalidLocation,
                message: "the sync store must be sqlite:PATH or a postgres:// URL, got '\(text)'")
        }
        let path = String(text.dropFirst("sqlite:".count))
        guard !path.isEmpty, !path.hasPrefix("//"), !path.contains("\0") else {
            throw SyncStoreError(
                .invalidLocation,
                message:
                    "sqlite: needs the store's file after it, as sqlite:/var/lib/praykit/sync.sqlite, got '\(text)'")
        }
        self = .sqlite(path: Self.absolute(path, environment: environment, currentDirectory: currentDirectory))
    }

    /// `sqlite:$XDG_DATA_HOME/praykit/sync-server.sqlite`, else `sqlite:~/.local/share/praykit/sync-server.sqlite`
    /// (an `XDG_DATA_HOME` that is not absolute is ignored, as the XDG specification says): the store
    /// the administration commands use when none is named.
    /// - Parameter environment: The process environment.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> SyncStoreLocation
    {
        let file = "praykit/sync-server.sqlite"
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return .sqlite(path: FilePath.appending(file, to: data))
        }
        return .sqlite(path: FilePath.appending(".local/share/" + file, to: home(environment)))
    }

    /// `sqlite:/path`, or the PostgreSQL URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgreSQL(let url): Self.withoutPassword(url)
        }
    }

    // MARK: - Helpers

    private static func absolute(_ path: String, environment: [String: String], currentDirectory: String) -> String {
        var path = path
        if path == "~" || path.hasPrefix("~/") {
            path = home(environment) + path.dropFirst()
        } else if !path.hasPrefix("/") {
            path = FilePath.appending(path, to: currentDirectory)
        }
        return FilePath.standardizing(path)
    }

    private static func home(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FilePath.home(of: nil) ?? "/"
    }

    /// `postgres://user:secret@host/db?password=secret` → `postgres://user:…@host/db?password=…`: a
    /// password never reaches a message or a log line. The credentials end at the authority's last
    /// `@` (libpq reads the authority up to the first `/`).
    private static func withoutPassword(_ url: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return url }
        var text = String(url[..<scheme.upperBound])
        let rest = url[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var pathStart = rest.startIndex
        if let at = rest[..<authorityEnd].lastIndex(of: "@") {
            let credentials = rest[..<at]
            text += credentials.firstIndex(of: ":").map { String(credentials[..<$0]) + ":…" } ?? String(credentials)
            pathStart = at
        }
        let remainder = rest[pathStart...]
        guard let question = remainder.firstIndex(of: "?") else { return text + remainder }
        let parameters = remainder[remainder.index(after: question)...].split(
            separator: "&", omittingEmptySubsequences: false
        )
        .map { parameter in
            parameter.lowercased().hasPrefix("password=") ? "password=…" : String(parameter)
        }
        return text + remainder[...question] + parameters.joined(separator: "&")
    }
}

/// A sync store that cannot be named or opened.
public typealias SyncStoreError = PrayKitError<SyncStoreErrorKind>

/// What kind of failure a ``SyncStoreError`` is.
public enum SyncStoreErrorKind: String, Hashable, Sendable {
    /// The text names no store: neither `sqlite:PATH` nor a PostgreSQL URL.
    case invalidLocation
    /// A kind of store this build does not have (PostgreSQL, on a platform without libpq), or a copy
    /// between kinds of stores that is not offered.
    case unsupported
    /// The destination of a copy already holds users: nothing was written.
    case notEmpty
}
