import PrayCore
import Synchronization

/// A ``MosqueTimetableStore`` in memory that never fails: it keeps every timetable replaced into it.
///
/// ```swift
/// let store = MosqueTimetableStoreFake()
/// try store.replace(timetable)
/// #expect(store.mosques().map(\.name) == ["East London Mosque"])
/// ```
public final class MosqueTimetableStoreFake: MosqueTimetableStore {
    private let stored = Mutex<[String: MosqueTimetable]>([:])
    private let observers = ChangeObservers()
    private let extras = Mutex<
        (
            settings: [String: SyncMosqueSettingsValue], notices: [String: [MosqueNotice]],
            starts: [String: HijriMonthStarts]
        )
    >(([:], [:], [:]))

    /// Creates a store holding `timetables`.
    public init(_ timetables: [MosqueTimetable] = []) {
        stored.withLock { table in for timetable in timetables { table[timetable.name] = timetable } }
    }

    /// Keeps `timetable`, replacing one of the same name.
    public func replace(_ timetable: MosqueTimetable) {
        stored.withLock { $0[timetable.name] = timetable }
        observers.changed()
    }

    /// The kept mosques that have days, by name.
    public func mosques() -> [MosqueSummary] {
        stored.withLock { table in
            table.values.sorted { $0.name < $1.name }.compactMap { timetable in
                guard let first = timetable.days.first?.date, let last = timetable.days.last?.date else { return nil }
                return MosqueSummary(
                    name: timetable.name, coordinates: timetable.coordinates, timeZone: timetable.timeZone,
                    first: first, last: last, days: timetable.days.count)
            }
        }
    }

    /// The mosque named `name` with its days from `first` through `last`.
    public func timetable(named name: String, from first: CivilDate, through last: CivilDate) -> MosqueTimetable? {
        stored.withLock { table in
            guard var timetable = table[name] else { return nil }
            timetable.days = timetable.days.filter { (first...last).contains($0.date) }
            return timetable
        }
    }

    /// Removes the mosque named `name`.
    @discardableResult
    public func remove(named name: String) -> Bool {
        defer { observers.changed() }
        return stored.withLock { $0.removeValue(forKey: name) != nil }
    }

    /// The settings kept for `name`.
    public func settings(of name: String) -> SyncMosqueSettingsValue? { extras.withLock { $0.settings[name] } }

    /// Keeps (or removes) the settings of `name`, checked by their rules.
    /// - Throws: ``ValidationError``.
    public func setSettings(_ settings: SyncMosqueSettingsValue?, of name: String) throws {
        if let settings { try SyncMosqueSettingsValue.validate(key: "settings", value: settings) }
        extras.withLock { $0.settings[name] = settings }
        observers.changed()
    }

    /// The month starts kept for `name`.
    public func hijriMonthStarts(of name: String) -> HijriMonthStarts {
        extras.withLock { $0.starts[name] ?? HijriMonthStarts() }
    }

    /// Keeps (or removes) the start of `month` for `name`, checked by its rules.
    /// - Throws: ``ValidationError``.
    public func setHijriMonthStart(_ start: CivilDate?, for month: HijriMonthStarts.Month, of name: String) throws {
        try SyncHijriStartValue.validate(key: month.description, value: start.map { SyncHijriStartValue(start: $0) })
        extras.withLock { $0.starts[name, default: HijriMonthStarts()][month] = start }
        observers.changed()
    }

    /// The notices kept for `name`, by start.
    public func notices(of name: String) -> [MosqueNotice] {
        extras.withLock { ($0.notices[name] ?? []).sorted { ($0.notice.start, $0.id) < ($1.notice.start, $1.id) } }
    }

    /// Keeps a notice of `name`, checked by its rules, replacing one of the same ID.
    /// - Throws: ``ValidationError``.
    public func putNotice(_ notice: MosqueNotice, of name: String) throws {
        try SyncNoticeValue.validate(key: notice.id, value: notice.notice)
        extras.withLock {
            $0.notices[name, default: []] = ($0.notices[name] ?? []).filter { $0.id != notice.id } + [notice]
        }
        observers.changed()
    }

    /// Removes a notice of `name`.
    @discardableResult
    public func removeNotice(id: String, of name: String) -> Bool {
        defer { observers.changed() }
        return extras.withLock { table in
            let before = table.notices[name]?.count ?? 0
            table.notices[name] = table.notices[name]?.filter { $0.id != id }
            return (table.notices[name]?.count ?? 0) < before
        }
    }

    /// The mosque `name` now and after every change of this store.
    public func mosqueSequence(named name: String) -> AsyncStream<MosqueSnapshot> {
        observers.stream { [unowned self] in
            (try? snapshot(of: name)) ?? MosqueSnapshot(name: name)
        }
    }
}
