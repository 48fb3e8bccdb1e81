import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `praykit qada show`: what is owed of each prayer, the pace, the day it reaches zero.
enum QadaShowCommand: Command {
    static let name = "show"
    static let abstract = "Show the prayers owed, per prayer and in total, the pace and the day they reach zero."
    static let discussion = """
        Per prayer: what is owed; the opening (count, the day the log counts from, and whether it was set
        or estimated); the prayers the log marks missed since the opening and those made up since; the
        pace over the last 30 days (per day and per week, made up minus missed); the day the balance
        reaches zero at that pace. The last line adds the five up.

        JSON: {"today", "timeZone", "paceWindowDays": 30, "prayers": [{"prayer", "balance", "opening":
        {"count", "date", "source"} | null, "missedSince", "madeUpSince", "moreMadeUpThanOwed", "pace":
        {"madeUp", "missed", "perDay", "perWeek"}, "zeroDate": YYYY-MM-DD | null}], "total": {the same
        without "prayer", "opening" being {"count"}}}. zeroDate is today when nothing is owed and null
        when the pace is not above zero.
        """
    static let examples = ["praykit qada", "praykit qada show --format json"]
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [QadaCommand.timeZone, format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let (today, zone) = try QadaCommand.today(arguments, context: context)
        let ledger = try QadaCommand.ledger(today: today, zone: zone, context: context)
        if arguments[format] == .json {
            let json = JSON.object([
                ("today", .string(today.description)), ("timeZone", .string(zone.identifier)),
                ("paceWindowDays", .int(QadaLedger.paceWindowDays)),
                ("prayers", .array(ledger.accounts.map(json))), ("total", json(ledger.total)),
            ])
            return try context.output.write(json.rendered() + "\n")
        }
        try context.output.write(table(ledger, zone: zone))
    }

    /// The JSON of an account.
    static func json(_ account: QadaLedger.Account) -> JSON {
        var members: [(String, JSON)] = []
        if let prayer = account.prayer {
            members.append(("prayer", .string(prayer.rawValue)))
        }
        members.append(("balance", .int(account.balance)))
        if account.prayer == nil {
            members.append(("opening", .object([("count", .int(account.openingCount))])))
        } else if let opening = account.opening {
            members.append(
                (
                    "opening",
                    .object([
                        ("count", .int(opening.count)), ("date", .string(opening.date.description)),
                        ("source", .string(opening.source)),
                    ])
                ))
        } else {
            members.append(("opening", .null))
        }
        members += [
            ("missedSince", .int(account.missed)), ("madeUpSince", .int(account.madeUp)),
            ("moreMadeUpThanOwed", .int(account.surplus)),
            (
                "pace",
                .object([
                    ("madeUp", .int(account.pace.madeUp)), ("missed", .int(account.pace.missed)),
                    ("perDay", .number(rounded(account.pace.perDay, places: 3))),
                    ("perWeek", .number(rounded(account.pace.perWeek, places: 3))),
                ])
            ),
            ("zeroDate", .string(account.zeroDate?.description)),
        ]
        return .object(members)
    }

    /// The table, with a line of notes under it.
    static func table(_ ledger: QadaLedger, zone: TimeZoneName) -> String {
        var rows = [["Prayer", "Owed", "Opening", "Missed since", "Made up since", "Per day", "Per week", "Zero on"]]
        for account in ledger.accounts + [ledger.total] {
            let opening: String
            if account.prayer == nil {
                opening = "\(account.openingCount)"
            } else if let entry = account.opening {
                opening = "\(entry.count) before \(entry.date) (\(entry.source ?? ""))"
            } else {
                opening = "none"
            }
            rows.append([
                account.prayer?.name ?? "Total", "\(account.balance)", opening, "\(account.missed)",
                "\(account.madeUp)",
                decimal(account.pace.perDay, places: 2), decimal(account.pace.perWeek, places: 1),
                account.balance == 0 ? "nothing owed" : account.zeroDate?.description ?? "not at this pace",
            ])
        }
        var notes = [
            "As of \(ledger.today) (\(zone.identifier)). Pace: made up minus missed a day, over the last "
                + "\(QadaLedger.paceWindowDays) days."
        ]
        if ledger.accounts.contains(where: { $0.opening == nil }) {
            notes.append(
                "No opening for a prayer: every missed prayer in the log counts. Set one with 'praykit qada set' "
                    + "or 'praykit qada estimate'.")
        }
        for account in ledger.accounts where account.surplus > 0 {
            notes.append(
                "\(account.prayer?.name ?? ""): \(account.surplus) more made up than owed (make-ups merged from "
                    + "devices); shown as 0.")
        }
        return Table.render(rows) + notes.map { $0 + "\n" }.joined()
    }

    /// `value` to `places` decimals.
    static func rounded(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    /// `value` written with exactly `places` decimals: `0.50`.
    static func decimal(_ value: Double, places: Int) -> String {
        let scale = Int(pow(10, Double(places)))
        let units = Int((value * Double(scale)).rounded())
        let sign = units < 0 ? "-" : ""
        let whole = abs(units) / scale
        let fraction = abs(units) % scale
        return places == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction.zeroPadded(places))"
    }
}
