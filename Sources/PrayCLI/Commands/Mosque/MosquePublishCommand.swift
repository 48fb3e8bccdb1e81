import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit mosque publish NAME [--slug SLUG]`: the mosque's pages, readable without an account.
enum MosquePublishCommand: Command {
    static let name = "publish"
    static let abstract = "Publish a mosque's screen, month and calendar feed at /m/SLUG/ on the sync server."
    static let discussion = """
        Its owner publishes a mosque: the sync server then serves, to anyone and without an account, its
        screen (/m/SLUG/display), its month to print (/m/SLUG/month), its model (/m/SLUG.json) and a
        calendar feed phones subscribe to (webcal://…/m/SLUG.ics), all made from the mosque's timetable,
        settings and notices as they sync. The slug is 3 to 60 lower-case letters, digits and hyphens;
        without --slug a mosque keeps the one it has, or gets one made from its name. Another mosque's
        slug is refused. 'mosque unpublish NAME' takes the pages down (docs/pages.md).
        """
    static let examples = [
        "praykit mosque publish 'East London Mosque'", "praykit mosque publish 'East London Mosque' --slug elm",
    ]
    static let slug = Option<String?>(
        "slug", value: "slug", help: "The address's last word: east-london-mosque (3 to 60 of a-z, 0-9 and -).",
        defaultText: "the one it has, else one made from its name")
    static let arguments: [any ArgumentDefinition] = [MosqueCommand.mosque]
    static let options: [any OptionDefinition] = [slug]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let name = arguments[MosqueCommand.mosque]
        if let slug = arguments[slug] {
            do {
                try SyncRules.checkSlug(slug)
            } catch {
                throw CLIError.usage("--slug '\(slug.prefix(80))': \(error.message)")
            }
        }
        let sync = context.dependency.syncService()
        let publication = try await SyncCommand.withProgress(context) {
            try await sync.publish(name, slug: arguments[slug])
        }
        let server = ((try? sync.currentStatus().server) ?? nil).map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        var lines = ["Published \(name) at /m/\(publication.slug)/ on the sync server; anyone can read:"]
        for (label, path) in publication.paths {
            lines.append("  \(padded(label, to: 9)) \((server ?? "") + path)")
        }
        if let server, let url = URLComponents(string: server + "/m/\(publication.slug).ics"), url.host != nil {
            var webcal = url
            webcal.scheme = "webcal"
            lines.append("A phone subscribes to \(webcal.string ?? "")")
        }
        try context.output.write(lines.joined(separator: "\n") + "\n")
    }
}

/// `praykit mosque unpublish NAME`: takes the mosque's pages down.
enum MosqueUnpublishCommand: Command {
    static let name = "unpublish"
    static let abstract = "Take a mosque's public pages down: /m/SLUG/ answers 404 again."
    static let discussion = """
        Its owner only. The mosque's members and screens that follow it are not affected; calendars
        subscribed to its feed keep the events they had and stop being updated.
        """
    static let arguments: [any ArgumentDefinition] = [MosqueCommand.mosque]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let name = arguments[MosqueCommand.mosque]
        let sync = context.dependency.syncService()
        try await SyncCommand.withProgress(context) { try await sync.unpublish(name) }
        try context.output.write("\(name) is no longer published: its pages answer 404.\n")
    }
}
