import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit mosque show NAME`: a mosque's settings, timetable and notices.
enum MosqueShowCommand: Command {
    static let name = "show"
    static let abstract = "Show a mosque's settings, timetable and current notices."
    static let arguments: [any ArgumentDefinition] = [MosqueCommand.mosque]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let name = arguments[MosqueCommand.mosque]
        let store = context.dependency.mosqueTimetables()
        let space = try context.dependency.syncService().spaces().first { $0.localName == name }
        let timetable = try store.mosques().first { $0.name == name }
        let settings = try store.settings(of: name)
        guard space != nil || timetable != nil || settings != nil else {
            throw CLIError.runtime(
                "no mosque named '\(name.escapingControlCharacters())' is kept here ('praykit mosque list')")
        }
        var lines = [name.escapingControlCharacters()]
        if let space {
            lines.append(
                "  Space: \(space.space.id), you are \(MosqueCommand.article(space.space.role)) \(space.space.role)"
                    + (space.isGone ? "; no longer updated" : ""))
        }
        if let timetable {
            lines.append("  Timetable: \(timetable.first) to \(timetable.last) (\(counted(timetable.days, "day")))")
        }
        if let settings {
            lines.append("  Settings: \(settings.summary.escapingControlCharacters())")
            lines.append(
                "  Hijri calendar: \(settings.hijriCalendar.rawValue)"
                    + (settings.hijriOffset == 0
                        ? "" : ", offset \(settings.hijriOffset > 0 ? "+" : "")\(settings.hijriOffset)"))
            if let screen = settings.screen { lines.append("  Screen: \(screen)") }
            for eid in settings.eid {
                lines.append(
                    "  Eid \(eid.hijri): \(eid.date) at "
                        + eid.prayers.map { IqamaSettings.Rule.fixed(minutesAfterMidnight: $0).description }.joined(
                            separator: ", "))
            }
        }
        for (month, start) in try store.hijriMonthStarts(of: name).sorted {
            lines.append("  \(month.name) \(month.year) starts \(start), as announced")
        }
        let current = try store.notices(of: name).filter { $0.notice.end > context.now }
        let zone = try MosqueCommand.zone(of: name, context: context)
        for notice in current {
            lines.append(
                "  Notice \(notice.id) (\(notice.notice.priority.rawValue), until "
                    + "\(MosqueCommand.localTime(notice.notice.end, in: zone))): "
                    + notice.notice.title.escapingControlCharacters())
        }
        try context.output.write(lines.joined(separator: "\n") + "\n")
    }
}
