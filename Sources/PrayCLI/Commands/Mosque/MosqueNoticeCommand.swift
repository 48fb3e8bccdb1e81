import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit mosque notice`: a mosque's notices.
enum MosqueNoticeCommand: CommandGroup {
    static let name = "notice"
    static let abstract = "Add, list or remove a mosque's notices (plain text, at most 4 KB)."
    static let subcommands: [any CommandNode.Type] = [
        MosqueNoticeListCommand.self, MosqueNoticeAddCommand.self, MosqueNoticeRemoveCommand.self,
    ]
    static let defaultSubcommand: (any Command.Type)? = MosqueNoticeListCommand.self
}

/// `praykit mosque notice add NAME --title …`.
enum MosqueNoticeAddCommand: Command {
    static let name = "add"
    static let abstract = "Add a notice to a mosque: a title, a text, from now (or --from) for a day (or --for)."
    static let title = Option<String>("title", value: "text", help: "One line, at most 200 characters.")
    static let text = Option<String?>(
        "text", value: "text", help: "The notice, at most 4,096 bytes ('\\n' for a new line).", defaultText: "none")
    static let from = Option<String?>(
        "from", value: "time", help: "When it is first shown, ISO 8601 (2027-03-10T18:00:00Z).", defaultText: "now")
    static let lasting = Option<Lifetime>(
        "for", value: "duration", help: "How long it is shown: 2h, 3d (at most a year).",
        default: Lifetime(seconds: 86_400))
    static let priority = Option<SyncNoticeValue.Priority>(
        "priority", value: "priority", help: "How prominently it is shown.", default: .normal)
    static let id = Option<String?>("id", value: "id", help: "Its ID: 1 to 40 of a-z, 0-9 and -.", defaultText: "made")
    static let arguments: [any ArgumentDefinition] = [MosqueCommand.mosque]
    static let options: [any OptionDefinition] = [title, text, from, lasting, priority, id]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let name = arguments[MosqueCommand.mosque]
        var start = context.now
        if let text = arguments[from] {
            guard let date = WallClock.instant(internetDateTime: text) ?? SyncAPI.parseTimestamp(text) else {
                throw CLIError.usage("--from must be an ISO 8601 time such as 2027-03-10T18:00:00Z, got '\(text)'")
            }
            start = date
        }
        let notice = SyncNoticeValue(
            title: arguments[title],
            text: (arguments[text]).map { $0.replacing("\\n", with: "\n") } ?? "",
            start: start,
            end: start.addingTimeInterval(arguments[lasting].seconds), priority: arguments[priority])
        let id: String = arguments[Self.id] ?? Self.newID()
        try context.dependency.mosqueTimetables().putNotice(MosqueNotice(id: id, notice: notice), of: name)
        _ = await context.dependency.syncService().syncAfterWrite()
        let until = MosqueCommand.localTime(notice.end, in: try MosqueCommand.zone(of: name, context: context))
        try context.output.write("Added notice \(id) to \(name), shown until \(until).\n")
    }
}

/// `praykit mosque notice list NAME`.
enum MosqueNoticeListCommand: Command {
    static let name = "list"
    static let abstract = "List a mosque's notices, the past ones too."
    static let format = Option<OutputFormat>.format([.table, .json])
    static let arguments: [any ArgumentDefinition] = [MosqueCommand.mosque]
    static let options: [any OptionDefinition] = [format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let notices = try context.dependency.mosqueTimetables().notices(of: arguments[MosqueCommand.mosque])
        if arguments[format] == .json {
            let items = notices.map { notice in
                JSON.object([
                    ("id", .string(notice.id)), ("title", .string(notice.notice.title)),
                    ("text", .string(notice.notice.text)), ("start", .string(SyncAPI.timestamp(notice.notice.start))),
                    ("end", .string(SyncAPI.timestamp(notice.notice.end))),
                    ("priority", .string(notice.notice.priority.rawValue)),
                ])
            }
            return try context.output.write(JSON.array(items).rendered() + "\n")
        }
        guard !notices.isEmpty else { return try context.output.write("No notices.\n") }
        let zone = try MosqueCommand.zone(of: arguments[MosqueCommand.mosque], context: context)
        let rows = notices.map { notice in
            [
                notice.id, notice.notice.priority.rawValue, MosqueCommand.localTime(notice.notice.start, in: zone),
                MosqueCommand.localTime(notice.notice.end, in: zone),
                notice.notice.title.escapingControlCharacters(),
            ]
        }
        try context.output.write(Table.render([["ID", "PRIORITY", "FROM", "UNTIL", "TITLE"]] + rows))
    }
}

/// `praykit mosque notice remove NAME ID`.
enum MosqueNoticeRemoveCommand: Command {
    static let name = "remove"
    static let abstract = "Remove a mosque's notice."
    static let id = Argument<String>("id", help: "The notice's ID ('praykit mosque notice list').")
    static let arguments: [any ArgumentDefinition] = [MosqueCommand.mosque, id]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let name = arguments[MosqueCommand.mosque]
        guard try context.dependency.mosqueTimetables().removeNotice(id: arguments[id], of: name) else {
            throw CLIError.runtime("\(name) has no notice '\(arguments[id].escapingControlCharacters())'")
        }
        _ = await context.dependency.syncService().syncAfterWrite()
        try context.output.write("Removed notice \(arguments[id]) of \(name).\n")
    }
}

extension MosqueNoticeAddCommand {
    /// A new notice ID: `n-` and 8 random hex digits.
    static func newID() -> String { "n-" + String(SyncID.newClientID().suffix(8)) }
}

extension SyncNoticeValue.Priority: ArgumentValue {}
