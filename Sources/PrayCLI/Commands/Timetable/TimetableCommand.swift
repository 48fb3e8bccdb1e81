/// `praykit timetable`: printable timetables. Without a verb, 'timetable' is 'timetable print'.
enum TimetableCommand: CommandGroup {
    static let name = "timetable"
    static let abstract = "Print a month's prayer times as a page to print, or keep a mosque's own timetable."
    static let discussion = """
        Without a verb, 'timetable' is 'timetable print': a month as mosques print it, with the Gregorian
        and Hijri dates, the five prayers and sunrise, Fridays marked as Jumu'ah, the iqama times when they
        are set ('praykit config set iqama …'), and the place, zone and method in the footer.

        'timetable import FILE.csv --mosque NAME' keeps the timetable a mosque publishes; after
        'praykit config set mosque NAME', its times replace the calculated ones for the days it gives, in
        times, next, notify, calendar and timetable. 'timetable list' shows the mosques kept and
        'timetable remove --mosque NAME' forgets one.
        """
    static let examples = TimetablePrintCommand.examples
    static let subcommands: [any CommandNode.Type] = [
        TimetablePrintCommand.self, TimetableImportCommand.self, TimetableListCommand.self, TimetableRemoveCommand.self,
    ]
    static let defaultSubcommand: (any Command.Type)? = TimetablePrintCommand.self
}
