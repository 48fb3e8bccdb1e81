import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit serve sync`: the sync server's administration — its users, their pairing codes and
/// devices — on the store that `praykit serve --sync-store` serves.
enum ServeSyncCommand: CommandGroup {
    static let name = "sync"
    static let abstract = "Administer the sync server: users, pairing codes and devices."
    static let discussion = """
        Each command opens the store directly (the server may be running): --sync-store names it, as it
        does for 'praykit serve'. A new user gets a one-time pairing code, good for 15 minutes; a person
        types it into 'praykit sync login' on one device, and each further device needs a code of its own
        from 'serve sync pair NAME'. A lost device is locked out with 'serve sync devices revoke ID': its
        token stops working at once, and the person's data stays on the server and their other devices.

        'serve sync migrate-schema' creates or upgrades a store's schema (a PostgreSQL store shared by
        several servers is never upgraded by a server that starts), and 'serve sync migrate' moves a
        SQLite store into PostgreSQL with every device keeping its cursor.
        """
    static let examples = [
        "praykit serve sync users add amina --server https://pray.example.org",
        "praykit serve sync pair amina --server https://pray.example.org",
        "praykit serve sync users list",
        "praykit serve sync devices list --format json",
        "praykit serve sync devices revoke d_3f9c2a…",
        "praykit serve sync migrate-schema --sync-store 'postgresql:///praykit?host=/run/postgresql'",
        "praykit serve sync migrate --from sqlite:/var/lib/praykit/sync.sqlite --to postgres://praykit@db/praykit",
    ]
    static let subcommands: [any CommandNode.Type] = [
        ServeSyncUsersCommand.self, ServeSyncPairCommand.self, ServeSyncDevicesCommand.self,
        ServeSyncSpacesCommand.self, ServeSyncMigrateSchemaCommand.self, ServeSyncMigrateCommand.self,
    ]

    /// `--sync-store` of the administration commands, which default to the standard store.
    static let store = Option<SyncStoreLocation?>(
        "sync-store", value: "store",
        help: "The sync server's store: sqlite:PATH, or postgres://… without a password (see --sync-store-file).",
        defaultText: "$\(databaseURLVariable), else sqlite:$XDG_DATA_HOME/praykit/sync-server.sqlite, else "
            + "sqlite:~/.local/share/praykit/…")
    /// `--sync-store-file` of every command that takes `--sync-store`: the store's location from a
    /// file of the user's alone, so that a PostgreSQL password stays off the command line.
    static let storeFile = Option<String?>(
        "sync-store-file", value: "path",
        help: "Read the store from this file (yours alone: chmod 600), a postgres:// URL that may hold its password.",
        defaultText: "none")
    /// The store options of the administration commands.
    static let storeOptions: [any OptionDefinition] = [store, storeFile]
    /// `--server` of the commands that print a pairing code: where devices reach the server.
    static let server = Option(
        "server", value: "url", help: "The server's URL as devices reach it, for the login line printed.",
        default: localServer)
    /// Where `praykit serve` listens by default.
    static let localServer = URL(string: "http://127.0.0.1:8080") ?? URL(fileURLWithPath: "/")
    /// The environment variable that names the store when no option does: a `postgres://` URL that
    /// may hold its password (a systemd unit's `EnvironmentFile`, mode 0600), or `sqlite:PATH`.
    static let databaseURLVariable = "PRAYKIT_SYNC_DATABASE_URL"

    /// The store of the options or the environment, else the standard one of the environment.
    /// - Throws: ``CLIError`` for a store given twice or a file or variable that names none; what the
    ///   container throws for a location it cannot serve.
    static func store(_ arguments: ParsedArguments, context: CommandContext) throws -> any SyncStore {
        let location =
            try givenLocation(arguments, option: store, context: context)
            ?? SyncStoreLocation.defaultLocation(environment: context.environment)
        return try context.dependency.syncStore(at: location)
    }

    /// The store that `option` (a `--sync-store`), `--sync-store-file` or `$PRAYKIT_SYNC_DATABASE_URL`
    /// names, in that order; `nil` when none does. A file's or the variable's URL may hold a password;
    /// no message repeats it.
    /// - Throws: ``CLIError`` (usage) for both options at once, or a file or variable that names no
    ///   store; (runtime) for a file that others can read, or that cannot be read.
    static func givenLocation(
        _ arguments: ParsedArguments, option: Option<SyncStoreLocation?>, context: CommandContext
    ) throws -> SyncStoreLocation? {
        let file = arguments[storeFile]
        if let location = arguments[option] {
            guard file == nil else {
                throw CLIError.usage("give the sync store once: --sync-store or --sync-store-file, not both")
            }
            return location
        }
        if let file {
            let text = try SecretFile.read(file, what: "the sync store file")
            return try location(text, from: "the sync store file \(file)", context: context)
        }
        if let text = context.environment[databaseURLVariable], !text.isEmpty {
            return try location(text, from: databaseURLVariable, context: context)
        }
        return nil
    }

    /// Reads a store from a file's or the environment's text, which may hold a password.
    private static func location(_ text: String, from source: String, context: CommandContext) throws(CLIError)
        -> SyncStoreLocation
    {
        do {
            return try SyncStoreLocation(parsing: text, environment: context.environment)
        } catch {
            // Not the error's own message: it quotes the text, and a mistyped scheme can hide a password.
            throw .usage(
                "\(source) names no sync store: it must hold sqlite:PATH or a postgres:// (postgresql://) URL")
        }
    }

    /// The store at `location`, opened (created when missing) and checked before a server relies on it.
    /// - Parameter connections: For PostgreSQL, the most connections the store keeps open.
    ///
    /// A PostgreSQL database without the schema gets it; one with an older schema, a newer one, or one
    /// that takes no writes (a replica) is refused, saying what to do.
    /// - Throws: ``CLIError`` (runtime) when the store cannot be opened, is not safe or is refused;
    ///   what the container throws for a location it cannot serve.
    static func checkedStore(at location: SyncStoreLocation, connections: Int, context: CommandContext) throws
        -> any SyncStore
    {
        let store = try context.dependency.syncStore(at: location, connections: connections)
        do {
            _ = try store.users()
        } catch let error as StorageError {
            throw failure(error, location: location)
        }
        return store
    }

    /// A store's failure in words for the server's operator: what to run for a schema that is too old,
    /// what to update for one too new, what to give for a replica.
    static func failure(_ error: StorageError, location: SyncStoreLocation) -> CLIError {
        let postgreSQL = if case .postgreSQL = location { true } else { false }
        return switch error.kind {
        case .schemaTooOld:
            .runtime(
                "the sync store: \(error.message): upgrade it once with 'praykit serve sync migrate-schema "
                    + "--sync-store \(location)', then start the servers of this version")
        case .schemaTooNew where postgreSQL:
            .runtime("the sync store: \(error.message): update praykit on this server to the version that made it")
        case .readOnly where postgreSQL:
            .runtime("the sync store: \(error.message)")
        default:
            .runtime("the sync store: \(error.description)")
        }
    }

    /// Runs `body`, with a store's failure worded for this command's options.
    /// - Throws: What `body` throws; a ``StorageError`` as a ``CLIError`` (runtime) naming --sync-store.
    static func run<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StorageError {
            throw CLIError.runtime("the sync store: \(error.description)")
        } catch let error as SyncServerError where error.code == .notFound {
            // The store a server runs on may not be the standard one this command opened.
            throw CLIError.runtime(
                error.message + " (in the store this command opened: give --sync-store as 'praykit serve' has it)")
        }
    }

    /// What a person runs on a device to pair it with `code`.
    static func pairingLines(_ code: SyncPairingCode, server: URL, now: Date) -> String {
        let minutes = max(1, Int((code.expiresAt.timeIntervalSince(now) / 60).rounded()))
        return """
            Pairing code for \(code.user): \(code.code) (works once, for \(minutes) minutes)
            On the device, run this and type the code when asked (a code given with --code shows in the
            process list for its minutes):
              praykit sync login --server \(server.absoluteString)

            """
    }

    /// `2026-11-29 12:00 UTC`, or `never`.
    static func time(_ date: Date?) -> String {
        guard let date else { return "never" }
        return SyncAPI.timestamp(date).prefix(16).replacing("T", with: " ") + " UTC"
    }
}

extension URL: ArgumentValue {
    /// Reads an `http://` or `https://` URL with a host.
    init(argument: String) throws(ArgumentValueError) {
        guard let url = URL(string: argument), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else {
            throw ArgumentValueError(reason: "must be an http:// or https:// URL such as https://pray.example.org")
        }
        self = url
    }

    var argumentDescription: String { absoluteString }
}

extension SyncStoreLocation: ArgumentValue {
    /// Reads `sqlite:PATH` (`~` and relative paths resolved now) or a PostgreSQL URL without a
    /// password: a command line is readable by every local user (SYNC.md §5).
    init(argument: String) throws(ArgumentValueError) {
        let location: SyncStoreLocation
        do {
            location = try SyncStoreLocation(parsing: argument)
        } catch {
            throw ArgumentValueError(reason: ": " + error.message, namesTheValue: true)
        }
        if case .postgreSQL(let url) = location, let components = URLComponents(string: url),
            components.password != nil
                || components.queryItems?.contains(where: { $0.name.lowercased() == "password" }) == true
        {
            throw ArgumentValueError(
                reason: ": a password on the command line can be read by every user of this machine; put it in "
                    + "~/.pgpass (or the file PGPASSFILE names, mode 0600) and give the URL without it",
                namesTheValue: true)
        }
        self = location
    }
}
