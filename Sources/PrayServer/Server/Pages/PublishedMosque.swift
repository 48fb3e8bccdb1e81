import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A published mosque space as its public pages read it: its rows — the timetable's months, the
/// settings, the announced month starts and the notices — decoded once per answer, with the version and
/// stamp of each, behind the ``MosqueTimetableStore`` the screen and the timetable already read (so the
/// model of `/m/<slug>.json` is the one `/display.json` gives a device that follows the mosque).
///
/// It writes nothing: every write throws ``SyncError`` `readOnly`. A row that does not decode (the server
/// checked it when it was pushed, so only a newer client's) is left out.
struct PublishedMosque: MosqueTimetableStore {
    /// The space: its ID, name, slug and version.
    let space: SyncPublishedSpace
    /// The timetable's months by `YYYY-MM`.
    let months: [String: (value: SyncMosqueValue, row: SyncPublishedRow)]
    /// The settings, if any.
    let settingsRow: (value: SyncMosqueSettingsValue, row: SyncPublishedRow)?
    /// The announced month starts.
    let starts: HijriMonthStarts
    /// The notices, by start.
    let noticeList: [MosqueNotice]
    /// The rows of announced starts, tombstones included (their versions count for every day).
    let startRows: [SyncPublishedRow]

    /// Decodes the rows of `space`.
    init(_ space: SyncPublishedSpace) {
        self.space = space
        let decoder = JSONDecoder()
        func value<T: Decodable>(_ type: T.Type, _ row: SyncPublishedRow) -> T? {
            row.value.flatMap { try? decoder.decode(type, from: Data($0.utf8)) }
        }
        var months: [String: (value: SyncMosqueValue, row: SyncPublishedRow)] = [:]
        var settings: (value: SyncMosqueSettingsValue, row: SyncPublishedRow)?
        var starts = HijriMonthStarts()
        var notices: [MosqueNotice] = []
        var startRows: [SyncPublishedRow] = []
        for row in space.rows {
            switch row.collection {
            case SyncCollection.mosqueMonth.rawValue:
                if let month = value(SyncMosqueMonthValue.self, row) { months[row.key] = (month.month, row) }
            case SyncCollection.mosqueSettings.rawValue:
                if let decoded = value(SyncMosqueSettingsValue.self, row) { settings = (decoded, row) }
            case SyncCollection.hijriStart.rawValue:
                startRows.append(row)
                if let start = value(SyncHijriStartValue.self, row),
                    let month = try? HijriMonthStarts.Month(parsing: row.key)
                {
                    starts[month] = start.start
                }
            case SyncCollection.notice.rawValue:
                if let notice = value(SyncNoticeValue.self, row) {
                    notices.append(MosqueNotice(id: row.key, notice: notice))
                }
            default: break
            }
        }
        self.months = months
        settingsRow = settings
        self.starts = starts
        noticeList = notices.sorted { ($0.notice.start, $0.id) < ($1.notice.start, $1.id) }
        self.startRows = startRows
    }

    /// The mosque's name, as its pages show it and the screen's preferences choose it.
    var name: String { space.name }

    /// Where the mosque is and its zone: its settings', else its latest month's; `nil` when it gave
    /// neither (its pages have nothing to show yet).
    var place: (coordinates: Coordinates, zone: TimeZoneName)? {
        if let settings = settingsRow?.value,
            let coordinates = try? Coordinates(
                latitude: settings.latitude, longitude: settings.longitude, elevation: settings.elevation),
            let zone = TimeZoneName(settings.timeZone)
        {
            return (coordinates, zone)
        }
        guard let latest = months.keys.max().flatMap({ months[$0]?.value }),
            let coordinates = try? Coordinates(
                latitude: latest.latitude, longitude: latest.longitude, elevation: latest.elevation),
            let zone = TimeZoneName(latest.timeZone)
        else { return nil }
        return (coordinates, zone)
    }

    /// The row whose change last touched the times of `date`: the latest-written of its month's, the
    /// settings' and the announced starts' (tombstones included). Its version only grows, so it is the
    /// `SEQUENCE` of the day's events, and its stamp their `LAST-MODIFIED`.
    func lastChange(of date: CivilDate) -> SyncPublishedRow? {
        let month = "\(date.year.zeroPadded(4))-\(date.month.zeroPadded(2))"
        let rows = [months[month]?.row, settingsRow?.row].compactMap { $0 } + startRows
        return rows.max { $0.version < $1.version }
    }
}

// MARK: - MosqueTimetableStore

extension PublishedMosque {
    /// The timetable's summary, when it has days.
    func mosques() throws -> [MosqueSummary] {
        let days = months.keys.sorted().flatMap { months[$0]?.value.days ?? [] }
        guard let first = days.first, let last = days.last, let place else { return [] }
        return [
            MosqueSummary(
                name: name, coordinates: place.coordinates, timeZone: place.zone.identifier, first: first.date,
                last: last.date, days: days.count)
        ]
    }

    /// The days from `first` through `last`, at the place and zone of the months that give them.
    func timetable(named name: String, from first: CivilDate, through last: CivilDate) throws -> MosqueTimetable? {
        guard name == self.name else { return nil }
        let covering = months.keys.sorted().compactMap { months[$0]?.value }.filter { month in
            month.days.contains { $0.date >= first && $0.date <= last }
        }
        guard let source = covering.last ?? months.keys.max().flatMap({ months[$0]?.value }),
            let coordinates = try? Coordinates(
                latitude: source.latitude, longitude: source.longitude, elevation: source.elevation)
        else { return nil }
        let days = covering.flatMap(\.days).filter { $0.date >= first && $0.date <= last }
        return MosqueTimetable(name: name, coordinates: coordinates, timeZone: source.timeZone, days: days)
    }

    func settings(of name: String) throws -> SyncMosqueSettingsValue? {
        name == self.name ? settingsRow?.value : nil
    }

    func notices(of name: String) throws -> [MosqueNotice] {
        name == self.name ? noticeList : []
    }

    func hijriMonthStarts(of name: String) throws -> HijriMonthStarts {
        name == self.name ? starts : HijriMonthStarts()
    }

    /// The mosque as published now, once.
    func mosqueSequence(named name: String) -> AsyncStream<MosqueSnapshot> {
        let snapshot = try? snapshot(of: name)
        return AsyncStream { continuation in
            if let snapshot { continuation.yield(snapshot) }
            continuation.finish()
        }
    }

    func replace(_ timetable: MosqueTimetable) throws { throw Self.readOnly }

    func remove(named name: String) throws -> Bool { throw Self.readOnly }

    func setSettings(_ settings: SyncMosqueSettingsValue?, of name: String) throws { throw Self.readOnly }

    func putNotice(_ notice: MosqueNotice, of name: String) throws { throw Self.readOnly }

    func removeNotice(id: String, of name: String) throws -> Bool { throw Self.readOnly }

    func setHijriMonthStart(_ start: CivilDate?, for month: HijriMonthStarts.Month, of name: String) throws {
        throw Self.readOnly
    }

    private static let readOnly = SyncError(
        .readOnly, message: "a published mosque's pages read its space; its members change it by sync")
}

/// Preferences that are what they were made with: the published mosque chosen, nothing else (no place,
/// iqama or calendar of anyone's), for the screen's model of a published mosque. Nothing is saved.
struct PreferencesStoreConstant: PreferencesStore {
    let saved: Preferences

    func preferences() throws -> Preferences { saved }

    func update(_ change: (inout Preferences) throws -> Void) throws -> Preferences {
        throw StorageError(kind: .readOnly, message: "a published mosque's page saves no preferences")
    }

    func preferencesSequence() -> AsyncStream<Preferences> {
        let saved = saved
        return AsyncStream { continuation in
            continuation.yield(saved)
            continuation.finish()
        }
    }

    var workQueue: WorkQueue { .shared }
}
