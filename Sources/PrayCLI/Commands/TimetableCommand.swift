/// `praykit timetable`: printable timetables. Without a verb, 'timetable' is 'timetable print'.
enum TimetableCommand: CommandGroup {
    static let name = "timetable"
    static let abstract = "Print a month's prayer times as a page to print (HTML or PDF)."
    static let discussion = """
        Without a verb, 'timetable' is 'timetable print': a month as mosques print it, with the Gregorian
        and Hijri dates, the five prayers and sunrise, Fridays marked as Jumu'ah, the iqama times when they
        are set ('praykit config set iqama …'), and the place, zone and method in the footer.
        """
    static let examples = TimetablePrintCommand.examples
    static let subcommands: [any CommandNode.Type] = [
        TimetablePrintCommand.self, TimetableImportCommand.self, TimetableListCommand.self, TimetableRemoveCommand.self,
    ]
    static let defaultSubcommand: (any Command.Type)? = TimetablePrintCommand.self
}
