/// Keeps the timetables of mosques the user imported, by name (`praykit timetable import`).
///
/// The methods are synchronous, for servers, tools and the command line, like ``PreferencesStore``.
///
/// ```swift
/// try store.replace(MosqueTimetable(name: "East London Mosque", coordinates: place, timeZone: "Europe/London",
///                                   days: try MosqueTimetableCSV.days(from: data)))
/// let kept = try store.mosques()
/// ```
public protocol MosqueTimetableStore: Sendable {
    /// Stores `timetable`, replacing every day kept for a mosque of the same name, in one transaction.
    /// - Throws: ``StorageError``.
    func replace(_ timetable: MosqueTimetable) throws

    /// The mosques kept, by name, with the days each covers.
    /// - Throws: ``StorageError``.
    func mosques() throws -> [MosqueSummary]

    /// The mosque named `name` with its days from `first` through `last`, or `nil` when no mosque has
    /// that name.
    /// - Throws: ``StorageError``.
    func timetable(named name: String, from first: CivilDate, through last: CivilDate) throws -> MosqueTimetable?

    /// Removes the mosque named `name` and its days.
    /// - Returns: Whether there was one.
    /// - Throws: ``StorageError``.
    @discardableResult
    func remove(named name: String) throws -> Bool

    /// The settings of the mosque `name` (its iqama rules, Jumu'ah and Eid prayers, Hijri calendar),
    /// or `nil` when none are kept.
    /// - Throws: ``StorageError``.
    func settings(of name: String) throws -> SyncMosqueSettingsValue?

    /// Sets (or, with `nil`, removes) the settings of the mosque `name`. For a mosque space this device
    /// may write, the change syncs into the space.
    /// - Throws: ``ValidationError`` for settings out of the rules, ``SyncError`` (`readOnly`) for a
    ///   mosque this device follows as a viewer, ``StorageError``.
    func setSettings(_ settings: SyncMosqueSettingsValue?, of name: String) throws

    /// The notices of the mosque `name`, by start.
    /// - Throws: ``StorageError``.
    func notices(of name: String) throws -> [MosqueNotice]

    /// Adds or replaces a notice of the mosque `name`; for a mosque space, into the space.
    /// - Throws: ``ValidationError``, ``SyncError`` (`readOnly`), ``StorageError``.
    func putNotice(_ notice: MosqueNotice, of name: String) throws

    /// Removes a notice of the mosque `name`.
    /// - Returns: Whether there was one of that ID.
    /// - Throws: ``SyncError`` (`readOnly`), ``StorageError``.
    @discardableResult
    func removeNotice(id: String, of name: String) throws -> Bool

    /// The first days of Hijri months the mosque `name` announced (a mosque space's `hijri-start`
    /// rows), none when it announced none.
    /// - Throws: ``StorageError``.
    func hijriMonthStarts(of name: String) throws -> HijriMonthStarts

    /// Sets (or, with `nil`, removes) the first day of `month` as the mosque `name` announces it; for a
    /// mosque space this device may write, into the space.
    /// - Throws: ``ValidationError`` for a day the month cannot start on
    ///   (``HijriMonthStarts/checkPlausible(_:for:)``), ``SyncError`` (`readOnly`), ``StorageError``.
    func setHijriMonthStart(_ start: CivilDate?, for month: HijriMonthStarts.Month, of name: String) throws

    /// The queue the ``async`` view runs this store's methods on: the database's, for a store over a
    /// database file; ``WorkQueue/shared`` by default.
    var workQueue: WorkQueue { get }
}

/// A notice of a mosque: its ID and what it says (``SyncNoticeValue``).
public struct MosqueNotice: Hashable, Sendable {
    /// 1 to 40 of `a-z`, `0-9` and `-`.
    public var id: String
    /// The notice.
    public var notice: SyncNoticeValue

    /// Creates a notice.
    public init(id: String, notice: SyncNoticeValue) {
        self.id = id
        self.notice = notice
    }
}
