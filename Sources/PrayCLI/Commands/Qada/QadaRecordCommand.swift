import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit qada record PRAYER|all [COUNT]`: prayers made up.
enum QadaRecordCommand: Command {
    static let name = "record"
    static let abstract = "Record prayers made up: COUNT of a prayer (1 by default), or of each of the five with all."
    static let discussion = """
        Each record is an entry of its own (its id is in 'qada history'), so make-ups recorded on two
        devices both count. More than is owed is refused, naming what is owed; so is a day before the
        prayer's opening (a make-up before it is part of the opening count) or after today.
        """
    static let examples = [
        "praykit qada record fajr", "praykit qada record isha 3 --note 'after isha'",
        "praykit qada record all --date yesterday",
    ]
    static let count = Argument<Int>(
        "count", help: "How many of each prayer were made up (1…\(QadaEntry.maximumMadeUpCount)).", default: 1)
    static let date = Option<Day?>(
        "date", value: "day", help: "The day they were made up: YYYY-MM-DD, today, yesterday or -N.",
        defaultText: "today")
    static let note = Option<String?>(
        "note", value: "text", help: "A note, up to \(PrayerLogEntry.maximumNoteLength) characters.")
    static let arguments: [any ArgumentDefinition] = [QadaCommand.prayer, count]
    static let options: [any OptionDefinition] = [date, note, QadaCommand.timeZone]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let prayers = try QadaCommand.prayers(arguments)
        let count = arguments[count]
        guard (1...QadaEntry.maximumMadeUpCount).contains(count) else {
            throw CLIError.usage("<count> must be between 1 and \(QadaEntry.maximumMadeUpCount), got \(count)")
        }
        let (today, zone) = try QadaCommand.today(arguments, context: context)
        let day = arguments[date]?.day(today: today) ?? today
        try QadaCommand.notFuture(day, option: "--date", today: today)
        let ledger = try QadaCommand.ledger(today: today, zone: zone, context: context)
        for prayer in prayers {
            let account = ledger[prayer]
            if let opening = account.opening, day < opening.date {
                throw CLIError.usage(
                    "\(prayer): --date \(day) is before its opening's date \(opening.date); prayers made up before "
                        + "then are part of the opening count (change it with 'praykit qada set')")
            }
            guard count <= account.balance else {
                throw CLIError.usage(
                    "\(prayer): cannot make up \(count), only \(account.balance) owed; nothing was recorded")
            }
        }
        let entries = try prayers.map { prayer in
            try QadaEntry(
                id: QadaEntry.newMadeUpID(), kind: .madeUp, prayer: prayer, count: count, date: day, source: nil,
                recordedAt: context.now, note: arguments[note])
        }
        try context.dependency.qada().save(entries)
        try context.output.write(
            entries.map {
                "\($0.prayer): made up \($0.count) on \($0.date); \(ledger[$0.prayer].balance - count) owed\n"
            }
            .joined())
    }
}
