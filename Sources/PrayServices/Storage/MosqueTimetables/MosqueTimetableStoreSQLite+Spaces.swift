import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// A mosque's settings and notices (SYNC.md §8): kept by the mosque's name, synced into its space when
// this device follows it and may write there; a viewer's write is refused.
extension MosqueTimetableStoreSQLite {
    /// The settings of the mosque `name`, or `nil`.
    /// - Throws: ``StorageError``.
    public func settings(of name: String) throws -> SyncMosqueSettingsValue? {
        guard database.exists else { return nil }
        return try database.read { connection in
            try MosqueSpaceRows.read(mosque: name, .mosqueSettings, key: "settings", connection)?
                .payload(as: SyncMosqueSettingsValue.self)
        }
    }

    /// Sets (or removes) the settings of the mosque `name`, into its space when it is one.
    /// - Throws: ``ValidationError``, ``SyncError`` (`readOnly`), ``StorageError``.
    public func setSettings(_ settings: SyncMosqueSettingsValue?, of name: String) throws {
        try MosqueTimetable.validate(name: name)
        if let settings { try SyncMosqueSettingsValue.validate(key: "settings", value: settings) }
        try write(name, .mosqueSettings, key: "settings", value: settings.map { .mosqueSettings($0) })
        log.notice("Mosque settings changed", metadata: [:])
    }

    /// The month starts the mosque `name` announced: its `hijri-start` rows.
    /// - Throws: ``StorageError``.
    public func hijriMonthStarts(of name: String) throws -> HijriMonthStarts {
        guard database.exists else { return HijriMonthStarts() }
        return try database.read { connection in
            var starts = HijriMonthStarts()
            for row in try MosqueSpaceRows.list(mosque: name, .hijriStart, connection) {
                guard let month = try? HijriMonthStarts.Month(parsing: row.key),
                    let value = row.value.payload(as: SyncHijriStartValue.self)
                else { continue }
                starts[month] = value.start
            }
            return starts
        }
    }

    /// Sets (or removes) the first day of `month` as the mosque `name` announces it, into its space
    /// when it is one.
    /// - Throws: ``ValidationError``, ``SyncError`` (`readOnly`), ``StorageError``.
    public func setHijriMonthStart(_ start: CivilDate?, for month: HijriMonthStarts.Month, of name: String) throws {
        try MosqueTimetable.validate(name: name)
        let value = start.map { SyncHijriStartValue(start: $0) }
        try SyncHijriStartValue.validate(key: month.description, value: value)
        try write(name, .hijriStart, key: month.description, value: value.map { .hijriStart($0) })
        log.notice("Mosque month start changed", metadata: ["hijri.month": month.description])
    }

    /// The mosque `name` now and after every change of the database (this process's writes and other
    /// processes', a sync's among them).
    public func mosqueSequence(named name: String) -> AsyncStream<MosqueSnapshot> {
        database.observe { [self] in try snapshot(of: name) }
    }

    /// The notices of the mosque `name`, by start.
    /// - Throws: ``StorageError``.
    public func notices(of name: String) throws -> [MosqueNotice] {
        guard database.exists else { return [] }
        return try database.read { connection in
            try MosqueSpaceRows.list(mosque: name, .notice, connection).compactMap { row in
                row.value.payload(as: SyncNoticeValue.self).map { MosqueNotice(id: row.key, notice: $0) }
            }.sorted { ($0.notice.start, $0.id) < ($1.notice.start, $1.id) }
        }
    }

    /// Adds or replaces a notice of the mosque `name`, into its space when it is one.
    /// - Throws: ``ValidationError``, ``SyncError`` (`readOnly`), ``StorageError``.
    public func putNotice(_ notice: MosqueNotice, of name: String) throws {
        try MosqueTimetable.validate(name: name)
        try SyncNoticeValue.validate(key: notice.id, value: notice.notice)
        try write(name, .notice, key: notice.id, value: SyncValue.notice(notice.notice))
    }

    /// Removes a notice of the mosque `name`.
    /// - Throws: ``SyncError`` (`readOnly`), ``StorageError``.
    @discardableResult
    public func removeNotice(id: String, of name: String) throws -> Bool {
        guard database.exists else { return false }
        let date = clock.now()
        return try database.write { [journal] (connection: SQLiteConnection) -> Bool in
            guard try MosqueSpaceRows.read(mosque: name, .notice, key: id, connection) != nil else { return false }
            try journal.changed(inMosque: name, .notice, key: id, value: nil, now: date, connection)
            try MosqueSpaceRows.write(mosque: name, .notice, key: id, value: nil, connection)
            return true
        }
    }

    private func write(_ name: String, _ collection: SyncCollection, key: String, value: SyncValue?) throws {
        let date = clock.now()
        try database.write { [journal] (connection: SQLiteConnection) in
            try journal.changed(inMosque: name, collection, key: key, value: value, now: date, connection)
            try MosqueSpaceRows.write(mosque: name, collection, key: key, value: value, connection)
        }
    }
}
