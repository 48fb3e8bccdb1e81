import PrayCore

/// `praykit hijri notable`: the first notable day after a date.
enum HijriNotableCommand: Command {
    static let name = "notable"
    static let abstract = "Print the first notable day (Ramadan, the Eids, Arafah, …) after a date."
    static let examples = ["praykit hijri notable --date 2026-11-29"]
    static let options: [any OptionDefinition] = [HijriDaysCommand.date, PlaceOptions.timeZone] + HijriQuery.options

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let query = HijriQuery(arguments, choice: try context.hijriChoice())
        let zone = try PlaceOptions.zone(arguments, option: PlaceOptions.timeZone, context: context)
        let today = try CivilDate(containing: context.now, in: zone)
        let date = arguments[HijriDaysCommand.date]?.day(today: today) ?? today
        let day = try context.dependency.hijriService().following(query.starts).nextNotableDay(
            after: date, kinds: Set(NotableDay.Kind.allCases), calendar: query.calendar, offset: query.offset)
        try query.write([day], to: context.output)
    }
}
