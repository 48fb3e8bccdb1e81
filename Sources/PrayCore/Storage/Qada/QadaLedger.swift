#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The account of the prayers to make up (qada), per prayer and in total: what is owed, how fast it
/// goes down, and the day it reaches zero at that pace. Pure: it reads the entries of a
/// ``QadaStore`` and the prayer log and computes; nothing is stored.
///
/// For each of the five prayers:
///
/// - **balance** = the opening count + the log's `missed` entries dated on or after the opening's
///   date − the prayers made up (``QadaEntry/Kind/madeUp`` entries) dated on or after it. Without an
///   opening, every `missed` entry and every make-up counts.
/// - The log's status `qada` ("missed and made up later") is not owed: such a day neither adds nor
///   subtracts.
/// - A log entry dated **before** the opening's date is part of the opening: whatever its status, it
///   changes nothing (and so does a make-up dated before it).
/// - The balance is never negative: when more was made up than owed (two devices' make-ups merged),
///   it is 0 and ``Account/surplus`` says by how much.
/// - **pace**: prayers made up per day over the last ``paceWindowDays`` days through `today` — the
///   make-ups dated in the window plus the log's `qada` entries recorded in it (`recordedAt`, in
///   `timeZone`) — minus the log's `missed` entries dated in the window, divided by the window's days.
/// - **zero date**: the day the balance reaches zero at that pace, `today` when nothing is owed, `nil`
///   when the pace is not positive ("not at this pace").
///
/// ```swift
/// let ledger = QadaLedger(entries: try store.entries(), log: logEntries, today: today, timeZone: zone)
/// print(ledger[.fajr].balance, ledger.total.zeroDate as Any)
/// ```
public struct QadaLedger: Hashable, Sendable {
    /// The days over which the pace is measured, ending today.
    public static let paceWindowDays = 30

    /// How fast the balance goes down over the last ``QadaLedger/paceWindowDays`` days.
    public struct Pace: Hashable, Sendable {
        /// Prayers made up in the window: make-ups dated in it and log entries marked `qada` in it.
        public var madeUp: Int
        /// The log's `missed` entries dated in the window.
        public var missed: Int
        /// The days of the window.
        public var days: Int

        /// Creates a pace.
        public init(madeUp: Int, missed: Int, days: Int = QadaLedger.paceWindowDays) {
            self.madeUp = madeUp
            self.missed = missed
            self.days = days
        }

        /// Made up minus missed: how much the balance went down in the window.
        public var net: Int { madeUp - missed }
        /// Prayers made up per day, net of those missed.
        public var perDay: Double { days > 0 ? Double(net) / Double(days) : 0 }
        /// Prayers made up per week, net of those missed.
        public var perWeek: Double { perDay * 7 }

        /// The day `balance` reaches zero at this pace counting from `today`: `today` for nothing owed,
        /// `nil` when the pace is not positive. Exact: the days are ⌈balance × days ÷ net⌉.
        public func zeroDate(balance: Int, today: CivilDate) -> CivilDate? {
            guard balance > 0 else { return today }
            guard net > 0 else { return nil }
            let (product, overflow) = balance.multipliedReportingOverflow(by: days)
            guard !overflow else { return nil }
            return today.clampedAdding(days: (product + net - 1) / net)
        }
    }

    /// The account of one prayer, or of all five (``QadaLedger/total``).
    public struct Account: Hashable, Sendable {
        /// The prayer, or `nil` for the total.
        public var prayer: Prayer?
        /// The prayer's opening entry, or `nil` (none set, or the total).
        public var opening: QadaEntry?
        /// The opening count (the sum of them for the total); 0 without an opening.
        public var openingCount: Int
        /// The log's `missed` entries dated on or after the opening's date.
        public var missed: Int
        /// Prayers made up, dated on or after the opening's date.
        public var madeUp: Int
        /// What is owed: opening + missed − made up, never below 0.
        public var balance: Int
        /// How many more were made up than owed (when opening + missed − made up is below 0), else 0.
        public var surplus: Int
        /// How fast the balance goes down.
        public var pace: Pace
        /// The day the balance reaches zero at ``pace``: today when nothing is owed, `nil` when the
        /// pace is not positive.
        public var zeroDate: CivilDate?

        /// Creates an account.
        public init(
            prayer: Prayer?, opening: QadaEntry?, openingCount: Int, missed: Int, madeUp: Int, balance: Int,
            surplus: Int, pace: Pace, zeroDate: CivilDate?
        ) {
            self.prayer = prayer
            self.opening = opening
            self.openingCount = openingCount
            self.missed = missed
            self.madeUp = madeUp
            self.balance = balance
            self.surplus = surplus
            self.pace = pace
            self.zeroDate = zeroDate
        }
    }

    /// The five prayers' accounts, in the order of ``Prayer/obligatory``.
    public let accounts: [Account]
    /// All five together: sums, and the zero date of the last prayer to reach zero (`nil` when one
    /// still owed never does at its pace).
    public let total: Account
    /// The day the ledger was computed for.
    public let today: CivilDate

    /// Computes the ledger.
    /// - Parameters:
    ///   - entries: The ``QadaStore``'s entries (openings and make-ups), in any order.
    ///   - log: The prayer log entries — all of them, or at least those since the earliest opening and
    ///     in the pace window.
    ///   - today: The day the pace window ends and the zero date counts from.
    ///   - timeZone: The zone in which a log entry's `recordedAt` falls on a day (for `qada` entries in
    ///     the pace window).
    public init(entries: [QadaEntry], log: [PrayerLogEntry], today: CivilDate, timeZone: TimeZone) {
        let windowStart = today.clampedAdding(days: 1 - Self.paceWindowDays)
        let window = windowStart...today
        var accounts: [Account] = []
        for prayer in Prayer.obligatory {
            let opening = entries.last { $0.kind == .opening && $0.prayer == prayer }
            let start = opening?.date ?? .first
            var missed = 0
            var madeUp = 0
            var pace = Pace(madeUp: 0, missed: 0)
            for entry in log where entry.prayer == prayer {
                if entry.status == .missed, entry.date >= start { missed += 1 }
                if entry.status == .missed, window.contains(entry.date) { pace.missed += 1 }
                if entry.status == .qada, let day = try? CivilDate(containing: entry.recordedAt, in: timeZone),
                    window.contains(day)
                {
                    pace.madeUp += 1
                }
            }
            for entry in entries where entry.kind == .madeUp && entry.prayer == prayer {
                if entry.date >= start { madeUp += entry.count }
                if window.contains(entry.date) { pace.madeUp += entry.count }
            }
            let owed = (opening?.count ?? 0) + missed - madeUp
            let balance = max(0, owed)
            accounts.append(
                Account(
                    prayer: prayer, opening: opening, openingCount: opening?.count ?? 0, missed: missed, madeUp: madeUp,
                    balance: balance, surplus: max(0, -owed), pace: pace,
                    zeroDate: pace.zeroDate(balance: balance, today: today)))
        }
        self.accounts = accounts
        self.today = today
        total = Self.total(of: accounts, today: today)
    }

    /// The account of `prayer` (one of the five; any other has an empty account).
    public subscript(prayer: Prayer) -> Account {
        accounts.first { $0.prayer == prayer }
            ?? Account(
                prayer: prayer, opening: nil, openingCount: 0, missed: 0, madeUp: 0, balance: 0, surplus: 0,
                pace: Pace(madeUp: 0, missed: 0), zeroDate: today)
    }

    /// Sums the accounts; the zero date is the latest one, `nil` when an account that owes has none.
    private static func total(of accounts: [Account], today: CivilDate) -> Account {
        var zeroDate: CivilDate? = today
        for account in accounts {
            guard let date = account.zeroDate else {
                zeroDate = nil
                break
            }
            zeroDate = max(zeroDate ?? date, date)
        }
        return Account(
            prayer: nil, opening: nil, openingCount: accounts.reduce(0) { $0 + $1.openingCount },
            missed: accounts.reduce(0) { $0 + $1.missed }, madeUp: accounts.reduce(0) { $0 + $1.madeUp },
            balance: accounts.reduce(0) { $0 + $1.balance }, surplus: accounts.reduce(0) { $0 + $1.surplus },
            pace: Pace(
                madeUp: accounts.reduce(0) { $0 + $1.pace.madeUp }, missed: accounts.reduce(0) { $0 + $1.pace.missed }),
            zeroDate: zeroDate)
    }
}
