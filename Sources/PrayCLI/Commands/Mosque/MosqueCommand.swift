import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit mosque`: mosque spaces — a mosque publishes its timetable, iqama, Jumu'ah, Eid prayers and
/// notices; its people and screens follow it.
enum MosqueCommand: CommandGroup {
    static let name = "mosque"
    static let abstract = "Publish a mosque's times and notices, or follow a mosque (shared spaces in sync)."
    static let discussion = """
        A mosque space is shared through the sync server ('praykit sync login' first). Its owner makes it
        ('mosque create NAME': a timetable of that name imported here is published), sets its iqama,
        Jumu'ah and Eid prayers ('mosque set'), adds notices ('mosque notice add') and invites people
        ('mosque invite NAME --role editor|viewer' prints a one-time code) and may publish its pages for
        anyone to read ('mosque publish NAME': its screen, month and calendar feed). Editors write the timetable
        ('praykit timetable import FILE --mosque NAME'), the settings and the notices; viewers read them.
        A screen or a visitor's phone without an account follows with a viewer's code and the server's
        URL ('mosque follow CODE --server URL'): it reads that one mosque and nothing else.

        A followed mosque is what 'praykit config set mosque NAME' chooses: its timetable, iqama and
        Jumu'ah replace the calculated times in times, next, notify, calendar and timetable. When a member
        is removed or the mosque deletes its space, the last copy stays, marked no longer updated: 'mosque
        leave NAME' keeps it as your own mosque, 'mosque leave NAME --drop' removes it.
        """
    static let examples = [
        "praykit mosque create 'East London Mosque'",
        "praykit mosque invite 'East London Mosque' --role viewer --expires 7d",
        "praykit mosque follow ABCDE-FGHJK --server https://pray.example.org",
        "praykit mosque set 'East London Mosque' --iqama fajr=+20,dhuhr=13:30 --jumuah 13:15,14:00",
    ]
    static let subcommands: [any CommandNode.Type] = [
        MosqueListCommand.self, MosqueCreateCommand.self, MosqueInviteCommand.self, MosqueFollowCommand.self,
        MosqueShowCommand.self, MosqueSetCommand.self, MosqueNoticeCommand.self, MosquePublishCommand.self,
        MosqueUnpublishCommand.self, MosqueMembersCommand.self, MosqueRemoveMemberCommand.self,
        MosqueLeaveCommand.self, MosqueDeleteCommand.self,
    ]
    static let defaultSubcommand: (any Command.Type)? = MosqueListCommand.self

    /// The mosque's name, as every verb takes it.
    static let mosque = Argument<String>("name", help: "The mosque's name on this device ('praykit mosque list').")

    /// `a` or `an` before a role's name.
    static func article(_ role: SyncRole) -> String { role == .viewer ? "a" : "an" }

    /// The zone a mosque's clock shows: its settings', else the saved zone, else UTC.
    static func zone(of mosque: String, context: CommandContext) throws -> TimeZoneName {
        try context.dependency.mosqueTimetables().settings(of: mosque).flatMap { TimeZoneName($0.timeZone) }
            ?? (try context.preferences()[.timeZone]).flatMap { TimeZoneName($0) }
            ?? TimeZoneName.utc
    }

    /// `2026-12-13 22:01 Europe/London`: an instant as a clock of `zone` shows it (a mosque's:
    /// ``zone(of:context:)``), for a person to read; JSON keeps ISO 8601 in UTC.
    static func localTime(_ date: Date, in zone: TimeZoneName) -> String {
        let (day, seconds, _) = LocalClock(zone: zone).components(date)
        return "\(day) \((seconds / 3600).zeroPadded(2)):\((seconds / 60 % 60).zeroPadded(2)) \(zone.identifier)"
    }

    /// What a cycle found no longer updated, a line each (empty when none).
    static func goneLines(_ gone: [String]) -> String {
        gone.map { name in
            "\(name) is no longer updated (you were removed, or the mosque deleted its space); its last copy stays: "
                + "'praykit mosque leave \(name.shellWord)' keeps it as your own, add --drop to remove it.\n"
        }.joined()
    }
}

extension SyncRole: ArgumentValue {}

/// A duration as people type it: `15m`, `2h`, `7d`, or seconds.
struct Lifetime: ArgumentValue, Equatable {
    /// Seconds.
    let seconds: TimeInterval

    init(seconds: TimeInterval) {
        self.seconds = seconds
    }

    init(argument: String) throws(ArgumentValueError) {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        let text = argument.trimmingWhitespace().lowercased()
        let unit = text.last.flatMap { units[$0] }
        guard let number = Double(unit == nil ? text : String(text.dropLast())), number > 0, number.isFinite else {
            throw ArgumentValueError(reason: "must look like 15m, 2h or 7d")
        }
        seconds = number * (unit ?? 1)
    }

    static var allValueStrings: [String] { [] }

    var argumentDescription: String {
        seconds.truncatingRemainder(dividingBy: 86_400) == 0 ? "\(Int(seconds / 86_400))d" : "\(Int(seconds))s"
    }

    static var absentValue: Lifetime? { nil }
}
