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
        /// The made-up days that paid this Ramadan's missed and excused days: made-up days pay the
        /// oldest Ramadan first.
        public let madeUp: Int
        /// This Ramadan's missed and excused days not yet made up.
        public let owed: Int

        /// Creates a record.
        public init(
            year: Int, first: CivilDate, last: CivilDate, days: Int, fasted: Int, missed: Int, excused: Int,
            notRecorded: Int, madeUp: Int = 0, owed: Int
        ) {
            self.year = year
            self.first = first
            self.last = last
            self.days = days
            self.fasted = fasted
            self.missed = missed
            self.excused = excused
            self.notRecorded = notRecorded
            self.madeUp = madeUp
            self.owed = owed
        }
    }

    /// The Ramadans shown, oldest first.
    public let ramadans: [Ramadan]
    /// Days made up: in all for every Ramadan; for chosen years, the days that paid theirs (the sum
    /// of the rows' ``Ramadan/madeUp``).
    public let madeUp: Int
    /// The missed and excused days not made up of the Ramadans shown: the sum of the rows'
    /// ``Ramadan/owed``.
    public let owed: Int
    /// Days made up beyond those owed (a Ramadan not recorded, or made up twice), else 0; always 0
    /// for chosen years.
    public let madeUpBeyondOwed: Int
    /// The Hijri year of ``voluntary``.
    public let voluntaryYear: Int
    /// Voluntary fasts recorded in ``voluntaryYear``.
    public let voluntary: Int
    /// The fasts their day no longer allows (the calendar moved after they were recorded), counted
    /// nowhere above; for chosen years, those whose day is now in one of those Hijri years.
    public let notCounted: [FastConflict]

    /// Creates an account.
    public init(
        ramadans: [Ramadan], madeUp: Int, owed: Int, madeUpBeyondOwed: Int, voluntaryYear: Int, voluntary: Int,
        notCounted: [FastConflict] = []
    ) {
        self.ramadans = ramadans
        self.madeUp = madeUp
        self.owed = owed
        self.madeUpBeyondOwed = madeUpBeyondOwed
        self.voluntaryYear = voluntaryYear
        self.voluntary = voluntary
        self.notCounted = notCounted
    }
}

extension FastCalendar {
    /// The account of `entries` (every fast recorded) as of `today`.
    ///
    /// Owed days are counted over every Ramadan with a record, made-up days paying the oldest
    /// Ramadan's debt first; the totals are those of the Ramadans shown (all of them, or `years`). A
    /// fast its day no longer allows (``FastConflict``) counts nowhere and is listed in
    /// ``FastAccount/notCounted``.
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
        let countedYear = voluntaryYear ?? todayHijri.year
        let tally = try tally(entries, voluntaryYear: countedYear)
        let byYear = tally.byYear
        let counted = tally.counted
        let madeUp = tally.madeUp
        var recordedYears = Set(byYear.keys)
        let current = try ramadan(of: todayHijri.year)
        if let first = current.first?.gregorian, first <= today { recordedYears.insert(todayHijri.year) }
        // Made-up days pay the oldest debts first.
        var credit = madeUp
        var paidByYear: [Int: Int] = [:]
        for year in byYear.keys.sorted() {
            let counts = byYear[year] ?? [:]
            let paid = min((counts[.missed] ?? 0) + (counts[.excused] ?? 0), credit)
            credit -= paid
            paidByYear[year] = paid
        }
        var ramadans: [FastAccount.Ramadan] = []
        for year in (years ?? recordedYears).sorted() {
            let days = try ramadan(of: year)
            guard let first = days.first?.gregorian, let last = days.last?.gregorian else { continue }
            let counts = byYear[year] ?? [:]
            let recorded = counted.filter { $0.status.isRamadan && $0.date >= first && $0.date <= last }.map(\.date)
            let past = days.filter { $0.gregorian < today }.map(\.gregorian)
            let debt = (counts[.missed] ?? 0) + (counts[.excused] ?? 0)
            let paid = paidByYear[year] ?? 0
            ramadans.append(
                FastAccount.Ramadan(
                    year: year, first: first, last: last, days: days.count, fasted: counts[.fasted] ?? 0,
                    missed: counts[.missed] ?? 0, excused: counts[.excused] ?? 0,
                    notRecorded: Set(past).subtracting(recorded).count, madeUp: paid, owed: debt - paid))
        }
        let owed = ramadans.reduce(0) { $0 + $1.owed }
        guard let years else {
            return FastAccount(
                ramadans: ramadans, madeUp: madeUp, owed: owed, madeUpBeyondOwed: credit, voluntaryYear: countedYear,
                voluntary: tally.voluntary, notCounted: tally.notCounted)
        }
        return FastAccount(
            ramadans: ramadans, madeUp: ramadans.reduce(0) { $0 + $1.madeUp }, owed: owed, madeUpBeyondOwed: 0,
            voluntaryYear: countedYear, voluntary: tally.voluntary,
            notCounted: tally.notCounted.filter { years.contains($0.day.hijri.year) })
    }

    /// The counts of `entries`: each Ramadan's by status, the days made up, the voluntary fasts of
    /// `voluntaryYear`, and the fasts their day allows (`counted`) or no longer does.
    private func tally(_ entries: [FastEntry], voluntaryYear: Int) throws -> (
        byYear: [Int: [FastStatus: Int]], madeUp: Int, voluntary: Int, counted: [FastEntry], notCounted: [FastConflict]
    ) {
        var byYear: [Int: [FastStatus: Int]] = [:]
        var madeUp = 0
        var voluntary = 0
        var counted: [FastEntry] = []
        var notCounted: [FastConflict] = []
        for entry in entries {
            let day = try day(entry.date)
            if let problem = Self.problem(of: entry.status, on: day) {
                notCounted.append(FastConflict(entry: entry, day: day, problem: problem))
                continue
            }
            counted.append(entry)
            switch entry.status {
            case .madeUp:
                madeUp += 1
            case .voluntary:
                if day.hijri.year == voluntaryYear { voluntary += 1 }
            case .fasted, .missed, .excused:
                byYear[day.hijri.year, default: [:]][entry.status, default: 0] += 1
            }
        }
        return (byYear, madeUp, voluntary, counted, notCounted.sorted { $0.entry.date < $1.entry.date })
    }
}
