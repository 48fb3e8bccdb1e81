import PrayCore

/// `praykit config unset <key>`.
enum ConfigUnsetCommand: Command {
    static let name = "unset"
    static let abstract = "Remove a stored value ('city': the saved place), and say what was removed."
    static let arguments: [any ArgumentDefinition] = [ConfigCommand.key]
    static var discussion: String { ConfigCommand.keys }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let keys: [Preferences.Key]
        switch arguments[ConfigCommand.key] {
        case .setting(let key): keys = [key]
        case .city: keys = ConfigKey.place
        }
        let before = try context.preferences()
        let removed = keys.compactMap { key in before[key].map { (key, $0) } }
        guard !removed.isEmpty else {
            return try context.output.write(
                "\(arguments[ConfigCommand.key].argumentDescription) was not set; nothing changed\n")
        }
        let after = try context.dependency.preferences().update { preferences in keys.forEach { preferences.unset($0) }
        }
        try context.output.write(removed.map { "Removed \($0.0) (was \($0.1))\n" }.joined())
        // The Hijri calendar, its offset and the announced starts say which days are Ramadan's.
        // So does the chosen mosque's calendar.
        if removed.contains(where: { [.hijriCalendar, .hijriOffset, .hijriStarts, .mosque].contains($0.0) }) {
            FastCommand.warnMoved(
                before: try FastCommand.calendar(saved: before, context: context),
                after: try FastCommand.calendar(saved: after, context: context), context: context)
        }
    }
}
