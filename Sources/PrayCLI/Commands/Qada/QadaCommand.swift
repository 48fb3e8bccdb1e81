import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit qada`: the prayers to make up — what is owed, an opening count, make-ups. Without a verb,
/// 'qada' is 'qada show'.
enum QadaCommand: CommandGroup {
    static let name = "qada"
    static let abstract = "Keep count of the prayers to make up (qada): what is owed, and the pace of making it up."
    static let discussion = """
        Without a verb, 'qada' is 'qada show'. Start with an opening count per prayer: 'qada set' gives
        it as a number, 'qada estimate' counts the days from when prayers became due (--from) to when the
        log starts. The opening's date is the first day the prayer log counts after it.

        Owed, per prayer = the opening + the prayers the log marks 'missed' on or after the opening's date
        − the prayers made up ('qada record') on or after it. A log entry marked 'qada' (missed and made
        up later) is not owed: it neither adds nor subtracts. A log entry dated before the opening's date
        is part of the opening and changes nothing. Without an opening, every missed prayer and every
        make-up counts.

        The pace is the prayers made up a day over the last 30 days (make-ups dated in them and log
        entries marked 'qada' in them) minus the prayers the log marks missed in them; at that pace, the
        day the balance reaches zero is shown ("not at this pace" when the pace is not above zero).
        'qada record' refuses to make up more than is owed; more made up than owed can only come from
        merging devices, and then shows as 0 with a note.
        """
    static let examples = [
        "praykit qada",
        "praykit qada estimate --from 2012-03-01 --except 2019-06-01..2019-08-31 --excused-days-per-month 6",
        "praykit qada set fajr 300",
        "praykit qada record fajr 2 --note 'after fajr'",
        "praykit qada record all --date yesterday",
        "praykit qada history --format json",
        "praykit qada remove made-up/4f1c0a9e2b7d4c6e8a1f3b5d7c9e0a2b",
    ]
    static let subcommands: [any CommandNode.Type] = [
        QadaShowCommand.self, QadaSetCommand.self, QadaEstimateCommand.self, QadaRecordCommand.self,
        QadaHistoryCommand.self, QadaRemoveCommand.self,
    ]
    static let defaultSubcommand: (any Command.Type)? = QadaShowCommand.self

    /// `<prayer>`: one of the five, a list of them, or `all`.
    static let prayer = Argument<PrayerList>(
        "prayer", help: "fajr, dhuhr, asr, maghrib, isha, a list (fajr,isha), or all (each of the five).",
        completion: .list(Prayer.obligatory.map(\.rawValue) + ["all"]))
    static let timeZone = Option<String?>(
        "tz", value: "zone", help: "The zone that says what 'today' is.",
        defaultText: "the saved zone, else the system's", completion: .timeZone)

    /// The prayers of `<prayer>`.
    /// - Throws: ``CLIError`` (usage) for a time that is not one of the five, or one named twice.
    static func prayers(_ arguments: ParsedArguments) throws(CLIError) -> [Prayer] {
        let list = arguments[prayer]
        if list.isAll { return Prayer.obligatory }
        var prayers: [Prayer] = []
        for prayer in list.prayers {
            guard prayer.isObligatory else {
                throw .usage("<prayer> must be fajr, dhuhr, asr, maghrib, isha, a list of them or all, got '\(prayer)'")
            }
            guard !prayers.contains(prayer) else { throw .usage("<prayer> names \(prayer) twice") }
            prayers.append(prayer)
        }
        return prayers
    }

    /// Today and the zone that says so: `--tz`, else the saved zone, else the system's.
    static func today(_ arguments: ParsedArguments, context: CommandContext) throws -> (CivilDate, TimeZoneName) {
        let zone = try PlaceOptions.zone(arguments, option: timeZone, context: context)
        return (try CivilDate(containing: context.now, in: zone), zone)
    }

    /// The ledger of the stored entries and the whole prayer log, as of `today`.
    /// - Throws: What the stores throw.
    static func ledger(today: CivilDate, zone: TimeZoneName, context: CommandContext) throws -> QadaLedger {
        let entries = try context.dependency.qada().entries()
        let log = try context.dependency.prayerLog().entries(from: .first, through: .last)
        return QadaLedger(entries: entries, log: log, today: today, timeZone: zone.timeZone)
    }

    /// Saves `openings` and says on standard error when make-ups already kept fall before an opening's
    /// date: they are part of its count from now on, and no longer subtract.
    /// - Throws: What the store throws, ``CLIError`` when standard error cannot be written.
    static func saveOpenings(_ openings: [QadaEntry], context: CommandContext) throws {
        let store = context.dependency.qada()
        let madeUp = try store.entries().filter { $0.kind == .madeUp }
        try store.save(openings)
        for opening in openings {
            let before = madeUp.filter { $0.prayer == opening.prayer && $0.date < opening.date }
            let count = before.reduce(0) { $0 + $1.count }
            guard count > 0 else { continue }
            try context.diagnostics.write(
                "Note: \(count) \(opening.prayer) made up before \(opening.date) \(count == 1 ? "is" : "are") now "
                    + "part of the opening and no longer \(count == 1 ? "subtracts" : "subtract").\n")
        }
    }

    /// A day no later than `today`.
    /// - Throws: ``CLIError`` (usage) naming the option for a day after today.
    static func notFuture(_ day: CivilDate, option: String, today: CivilDate) throws(CLIError) {
        guard day <= today else { throw .usage("\(option) \(day) is in the future (today is \(today))") }
    }

    /// The JSON of an entry: every field, `null` when there is none.
    static func json(_ entry: QadaEntry) -> JSON {
        .object([
            ("id", .string(entry.id)), ("kind", .string(entry.kind.rawValue)),
            ("prayer", .string(entry.prayer.rawValue)),
            ("count", .int(entry.count)), ("date", .string(entry.date.description)), ("source", .string(entry.source)),
            ("recordedAt", .string(PrayerLogEntry.timestamp(entry.recordedAt))), ("note", .string(entry.note)),
        ])
    }

    /// `5 owed` and, when more was made up than owed, a note saying so.
    static func owed(_ account: QadaLedger.Account) -> String {
        "\(account.balance) owed" + (account.surplus > 0 ? " (\(account.surplus) more made up than owed)" : "")
    }
}
