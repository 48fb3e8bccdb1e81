import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit sync failed`: the changes the server refused, to retry or drop.
enum SyncFailedCommand: Command {
    static let name = "failed"
    static let abstract = "List the changes the server refused; --retry sends them again, --drop forgets them."
    static let discussion = """
        A refused change is never lost silently: it stays here until you retry it (it is sent again with a
        new stamp) or drop it (the server's value replaces it at the next sync).
        """
    static let retry = Flag("retry", help: "Send the refused changes again.")
    static let drop = Flag("drop", help: "Forget the refused changes; the server's values replace them.")
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [retry, drop, format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let sync = context.dependency.syncService()
        switch (arguments[retry], arguments[drop]) {
        case (true, true):
            throw CLIError.usage("--retry and --drop cannot be given together")
        case (true, false):
            let count = try sync.retryFailed()
            try context.output.write("\(SyncCommand.changes(count)) queued again.\n")
        case (false, true):
            let count = try sync.dropFailed()
            try context.output.write(
                "\(SyncCommand.changes(count)) dropped; the next sync fetches the server's values.\n")
        case (false, false):
            let failed = try sync.failedChanges()
            if arguments[format] == .json {
                return try context.output.write(
                    JSON.array(
                        failed.map {
                            .object([
                                ("collection", .string($0.collection.rawValue)), ("key", .string($0.key)),
                                ("op", .string($0.operation.rawValue)), ("reason", .string($0.reason)),
                                ("failedAt", .string(SyncAPI.timestamp($0.failedAt))),
                            ])
                        }
                    ).rendered() + "\n")
            }
            guard !failed.isEmpty else { return try context.output.write("No refused changes.\n") }
            let rows = failed.map {
                "\($0.collection) \($0.key) \($0.operation): \($0.reason)"
            }
            try context.output.write(rows.joined(separator: "\n") + "\n")
        }
    }
}
