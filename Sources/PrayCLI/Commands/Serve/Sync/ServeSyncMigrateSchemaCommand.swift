import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit serve sync migrate-schema`: the store's schema created, or upgraded to this version's.
enum ServeSyncMigrateSchemaCommand: Command {
    static let name = "migrate-schema"
    static let abstract = "Create the sync store's schema, or upgrade it to this version of praykit."
    static let discussion = """
        Says what it did: the schema created, upgraded from one version to another, or already up to date.
        The upgrade is one transaction: it happens whole or not at all.

        A PostgreSQL store is shared by every server behind the load balancer, so no server upgrades it
        by itself: a server whose store has an older schema refuses to start and names this command. To
        upgrade, run it once (with the new praykit), then start the servers of the new version. A server
        does create the schema of an empty database when it starts, and refuses a store newer than
        itself, or a read-only replica. A SQLite store belongs to one server and upgrades itself when that
        server opens it; this command does the same without starting a server.
        """
    static let examples = [
        "praykit serve sync migrate-schema --sync-store 'postgresql:///praykit?host=/run/postgresql'",
        "praykit serve sync migrate-schema --sync-store sqlite:/var/lib/praykit/sync.sqlite",
    ]
    static let options: [any OptionDefinition] = ServeSyncCommand.storeOptions

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let location =
            try ServeSyncCommand.givenLocation(arguments, option: ServeSyncCommand.store, context: context)
            ?? SyncStoreLocation.defaultLocation(environment: context.environment)
        let migrator = context.dependency.syncStoreMigrator()
        let change: SyncSchemaChange
        do {
            change = try migrator.migrateSchema(at: location)
        } catch let error as StorageError {
            throw ServeSyncCommand.failure(error, location: location)
        }
        let what =
            if change.created {
                "schema version \(change.after) (created)"
            } else if change.upgraded {
                "upgraded from \(change.before) to \(change.after)"
            } else {
                "already at version \(change.after)"
            }
        try context.output.write("\(location): \(what)\n")
    }
}
