import PrayCore

/// `praykit hijri notable`: the first notable day after a date.
struct HijriNotableCommand: Command {
    static let name = "notable"
    static let abstract = "Print the first notable day (Ramadan, the Eids, Arafah, …) after a date."
    static let examples = ["praykit hijri notable --date 2026-11-29"]
    static let options: [any OptionDefinition] = [HijriDaysCommand.date, PlaceOptions.timeZone] + HijriQuery.options

    private let date: CivilDate
    private let query: HijriQuery

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        let saved = try context.preferences()
        query = try HijriQuery(arguments, saved: saved, context: context)
        let (zone, _) = try PlaceOptions.zone(
            arguments.value(PlaceOptions.timeZone), saved: saved[.timeZone], context: context)
        date = try arguments.value(HijriDaysCommand.date) ?? LocalClock(timeZone: zone).components(context.now).day
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let service = context.dependency.hijriService()
        let day = try query.call(context) {
            try service.nextNotableDay(
                after: date, kinds: Set(NotableDay.Kind.allCases), calendar: query.calendar, offset: query.offset)
        }
        try query.write([day], to: context.output)
    }
}
