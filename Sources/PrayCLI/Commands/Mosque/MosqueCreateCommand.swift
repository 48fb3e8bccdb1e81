import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit mosque create NAME`: a mosque space owned by this device's user.
enum MosqueCreateCommand: Command {
    static let name = "create"
    static let abstract = "Make a mosque space that you own; a timetable of that name kept here is published."
    static let discussion = """
        Needs a logged-in device ('praykit sync login'). A timetable imported here under the same name
        ('praykit timetable import FILE --mosque NAME') goes into the space; then 'mosque set' its iqama
        and Jumu'ah, and 'mosque invite' its people.
        """
    static let arguments: [any ArgumentDefinition] = [MosqueCommand.mosque]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let sync = context.dependency.syncService()
        let name = arguments[MosqueCommand.mosque].trimmingWhitespace()
        let space = try await SyncCommand.withProgress(context) { try await sync.createMosque(named: name) }
        _ = try? await sync.syncNow()
        let published = try context.dependency.mosqueTimetables().mosques().first { $0.name == space.localName }
        var message = "Created the mosque \(space.localName); you are its owner."
        if let published { message += " Its timetable (\(counted(published.days, "day"))) is published." }
        message += "\nInvite people with 'praykit mosque invite \(space.localName.shellWord) --role editor|viewer'.\n"
        try context.output.write(message)
    }
}
