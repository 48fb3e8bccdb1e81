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

    /// The mosque `name` as this device keeps it (``MosqueSnapshot``), now and again after every change
    /// — a write here, or a sync that brought one from the mosque's space (a new month, an iqama, a
    /// notice, an announced start) — the newest when the reader is slow. An app shows its mosque from
    /// this and never polls.
    func mosqueSequence(named name: String) -> AsyncStream<MosqueSnapshot>

    /// The queue the ``async`` view runs this store's methods on: the database's, for a store over a
    /// database file; ``WorkQueue/shared`` by default.
    var workQueue: WorkQueue { get }
}

/// What a device keeps of one mosque: the days its timetable covers, its settings, the month starts
/// it announced and its notices (``MosqueTimetableStore/mosqueSequence(named:)``).
///
/// ```swift
/// for await mosque in store.mosqueSequence(named: "East London Mosque") {
///     show(mosque.settings?.iqama, mosque.notices)   // again after every sync that changed it
/// }
/// ```
public struct MosqueSnapshot: Hashable, Sendable {
    /// The mosque's name here.
    public var name: String
    /// The days its timetable covers, or `nil` when none are kept.
    public var timetable: MosqueSummary?
    /// Its settings, or `nil`.
    public var settings: SyncMosqueSettingsValue?
    /// The month starts it announced.
    public var hijriMonthStarts: HijriMonthStarts
    /// Its notices, by start.
    public var notices: [MosqueNotice]

    /// Creates a snapshot.
    public init(
        name: String, timetable: MosqueSummary? = nil, settings: SyncMosqueSettingsValue? = nil,
        hijriMonthStarts: HijriMonthStarts = HijriMonthStarts(), notices: [MosqueNotice] = []
    ) {
        self.name = name
        self.timetable = timetable
        self.settings = settings
        self.hijriMonthStarts = hijriMonthStarts
        self.notices = notices
    }
}

extension MosqueTimetableStore {
    /// The mosque `name` as this store keeps it now.
    /// - Throws: ``StorageError``.
    public func snapshot(of name: String) throws -> MosqueSnapshot {
        MosqueSnapshot(
            name: name, timetable: try mosques().first { $0.name == name }, settings: try settings(of: name),
            hijriMonthStarts: try hijriMonthStarts(of: name), notices: try notices(of: name))
    }
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
