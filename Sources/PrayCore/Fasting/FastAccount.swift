/// What a person's recorded fasts add up to: each Ramadan's days, the days still owed, and the
/// voluntary fasts of a Hijri year. Made by ``FastCalendar/account(of:today:years:voluntaryYear:)``.
public struct FastAccount: Hashable, Sendable {
    /// One Ramadan's record.
    public struct Ramadan: Hashable, Sendable {
        /// The Hijri year.
        public let year: Int
        /// The first day of the month.
        public let first: CivilDate
        /// The last day of the month.
        public let last: CivilDate
        /// Its days, 29 or 30.
        public let days: Int
        /// Days recorded as fasted.
        public let fasted: Int
        /// Days recorded as missed.
        public let missed: Int
        /// Days recorded as excused.
        public let excused: Int
        /// Days before today without a record.
        public let notRecorded: Int
        /// This Ramadan's missed and excused days not yet made up: made-up days pay the oldest Ramadan
        /// first.
        public let owed: Int

        /// Creates a record.
        public init(
            year: Int, first: CivilDate, last: CivilDate, days: Int, fasted: Int, missed: Int, excused: Int,
            notRecorded: Int, owed: Int
        ) {
            self.year = year
            self.first = first
            self.last = last
            self.days = days
            self.fasted = fasted
            self.missed = missed
            self.excused = excused
            self.notRecorded = notRecorded
            self.owed = owed
        }
    }

    /// The Ramadans, oldest first.
    public let ramadans: [Ramadan]
    /// Days recorded as made up, in all.
    public let madeUp: Int
    /// Missed and excused days of every Ramadan recorded, less the days made up; never below 0.
    public let owed: Int
    /// Days made up beyond those owed (a Ramadan not recorded, or made up twice), else 0.
    public let madeUpBeyondOwed: Int
    /// The Hijri year of ``voluntary``.
    public let voluntaryYear: Int
    /// Voluntary fasts recorded in ``voluntaryYear``.
    public let voluntary: Int

    /// Creates an account.
    public init(
        ramadans: [Ramadan], madeUp: Int, owed: Int, madeUpBeyondOwed: Int, voluntaryYear: Int, voluntary: Int
    ) {
        self.ramadans = ramadans
        self.madeUp = madeUp
        self.owed = owed
        self.madeUpBeyondOwed = madeUpBeyondOwed
        self.voluntaryYear = voluntaryYear
        self.voluntary = voluntary
    }
}

extension FastCalendar {
    /// The account of `entries` (every fast recorded) as of `today`.
    ///
    /// Owed days are counted over every Ramadan with a record, whatever `years` shows. Made-up days pay
    /// the oldest Ramadan's debt first.
    /// - Parameters:
    ///   - entries: Every recorded fast.
    ///   - today: Today: days of a Ramadan before it without a record are "not recorded".
    ///   - years: The Ramadans to show; `nil` for every one with a record, and the current Hijri year's
    ///     once it has begun.
    ///   - voluntaryYear: The Hijri year whose voluntary fasts are counted; `nil` for today's.
    /// - Throws: ``HijriError``.
    public func account(
        of entries: [FastEntry], today: CivilDate, years: Set<Int>? = nil, voluntaryYear: Int? = nil
    ) throws -> FastAccount {
        let todayHijri = try day(today).hijri
        var byYear: [Int: [FastStatus: Int]] = [:]
        var madeUp = 0
        var voluntary = 0
        let countedYear = voluntaryYear ?? todayHijri.year
        for entry in entries {
            switch entry.status {
            case .madeUp:
                madeUp += 1
            case .voluntary:
                if try day(entry.date).hijri.year == countedYear { voluntary += 1 }
            case .fasted, .missed, .excused:
                let hijri = try day(entry.date).hijri
                guard hijri.month == .ramadan else { continue }
                byYear[hijri.year, default: [:]][entry.status, default: 0] += 1
            }
        }
        var recordedYears = Set(byYear.keys)
        let current = try ramadan(of: todayHijri.year)
        if let first = current.first?.gregorian, first <= today { recordedYears.insert(todayHijri.year) }
        // Made-up days pay the oldest debts first.
        var credit = madeUp
        var owedByYear: [Int: Int] = [:]
        for year in byYear.keys.sorted() {
            let counts = byYear[year] ?? [:]
            let debt = (counts[.missed] ?? 0) + (counts[.excused] ?? 0)
            let paid = min(debt, credit)
            credit -= paid
            owedByYear[year] = debt - paid
        }
        var ramadans: [FastAccount.Ramadan] = []
        for year in (years ?? recordedYears).sorted() {
            let days = try ramadan(of: year)
            guard let first = days.first?.gregorian, let last = days.last?.gregorian else { continue }
            let counts = byYear[year] ?? [:]
            let recorded = entries.filter { $0.status.isRamadan && $0.date >= first && $0.date <= last }.map(\.date)
            let past = days.filter { $0.gregorian < today }.map(\.gregorian)
            ramadans.append(
                FastAccount.Ramadan(
                    year: year, first: first, last: last, days: days.count, fasted: counts[.fasted] ?? 0,
                    missed: counts[.missed] ?? 0, excused: counts[.excused] ?? 0,
                    notRecorded: Set(past).subtracting(recorded).count, owed: owedByYear[year] ?? 0))
        }
        let debt = byYear.values.reduce(0) { $0 + ($1[.missed] ?? 0) + ($1[.excused] ?? 0) }
        return FastAccount(
            ramadans: ramadans, madeUp: madeUp, owed: max(0, debt - madeUp), madeUpBeyondOwed: max(0, madeUp - debt),
            voluntaryYear: countedYear, voluntary: voluntary)
    }
}
