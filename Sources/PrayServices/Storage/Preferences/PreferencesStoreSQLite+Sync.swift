import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The settings in sync and backups: a `pref` row per synced setting (SyncRules.syncedPreferenceKeys),
// the saved place as one `place` row, and a `hijri-start` row per announced month start (their value
// types and rules are in PrayCore, beside Preferences).
extension PreferencesStoreSQLite: SyncedCollection {
    static var collections: [SyncCollection] { [.pref, .place, .hijriStart] }

    /// At the first login the server's settings come first (`--prefer server`) or this device's.
    static var followsLoginPreference: Bool { true }

    static func rows(_ connection: SQLiteConnection) throws -> [SyncedRow] {
        let preferences = try load(connection)
        var rows: [SyncedRow] = []
        for key in SyncRules.syncedPreferenceKeys.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard let value = preferences[key] else { continue }
            rows.append(SyncedRow(collection: .pref, key: key.rawValue, value: .pref(SyncPrefValue(value: value))))
        }
        if let place = SyncPlaceValue(preferences) {
            rows.append(SyncedRow(collection: .place, key: "current", value: .place(place)))
        }
        for (month, start) in preferences.hijriMonthStarts.sorted {
            rows.append(
                SyncedRow(
                    collection: .hijriStart, key: month.description,
                    value: .hijriStart(SyncHijriStartValue(start: start))))
        }
        return rows
    }

    static func value(_ collection: SyncCollection, key: String, _ connection: SQLiteConnection) throws -> SyncValue? {
        let preferences = try load(connection)
        switch collection {
        case .pref:
            return Preferences.Key(rawValue: key).flatMap { preferences[$0] }.map { .pref(SyncPrefValue(value: $0)) }
        case .place: return SyncPlaceValue(preferences).map { .place($0) }
        case .hijriStart:
            let month = try HijriMonthStarts.Month(parsing: key)
            return preferences.hijriMonthStarts[month].map { .hijriStart(SyncHijriStartValue(start: $0)) }
        default: return nil
        }
    }

    static func apply(_ row: SyncRow, _ connection: SQLiteConnection) throws {
        switch row.collection {
        case .pref:
            guard let key = Preferences.Key(rawValue: row.key) else { return }
            try setPreference(
                key, try row.value?.payload(as: SyncPrefValue.self).map { try key.normalized($0.value) }, connection)
        case .place:
            let place = row.value?.payload(as: SyncPlaceValue.self)
            try setPreference(.latitude, place.map { $0.latitude.formattedCompactly }, connection)
            try setPreference(.longitude, place.map { $0.longitude.formattedCompactly }, connection)
            try setPreference(.elevation, place?.elevation.map(\.formattedCompactly), connection)
            try setPreference(.timeZone, place?.timeZone, connection)
            try setPreference(.placeName, place?.name, connection)
        case .hijriStart:
            let month = try HijriMonthStarts.Month(parsing: row.key)
            let stored = try connection.prepare("SELECT value FROM preferences WHERE key = ?")
            try stored.bind([.text(Preferences.Key.hijriStarts.rawValue)])
            var starts = HijriMonthStarts()
            if try stored.step(), let text = stored.text(0), let parsed = try? HijriMonthStarts(parsing: text) {
                starts = parsed
            }
            starts[month] = row.value?.payload(as: SyncHijriStartValue.self)?.start
            try setPreference(.hijriStarts, starts.isEmpty ? nil : starts.description, connection)
        default:
            return
        }
    }

    static func export(_ connection: SQLiteConnection, into data: inout UserData) throws {
        data.preferences = try load(connection)
    }

    static func restore(_ data: UserData, _ restore: SyncedRestore, _ connection: SQLiteConnection) throws {
        // The kept settings' stored values, read alone: another stored setting that is no longer valid
        // must not stop the import that replaces it. A kept value that is not valid is dropped.
        var preferences = data.preferences
        let select = try connection.prepare("SELECT value FROM preferences WHERE key = ?")
        for key in restore.kept {
            try select.bind([.text(key.rawValue)])
            preferences.unset(key)
            while try select.step() {
                if let value = select.text(0) { try? preferences.set(value, for: key) }
            }
        }
        let before = (try? load(connection)) ?? Preferences()
        try connection.execute("DELETE FROM preferences")
        try store(preferences, replacing: Preferences(), connection)
        try restore.journal.preferencesChanged(from: before, to: preferences, all: true, now: restore.now, connection)
    }

    /// Stores (or with `nil` removes) one setting's text, in the caller's transaction.
    private static func setPreference(_ key: Preferences.Key, _ value: String?, _ connection: SQLiteConnection)
        throws
    {
        if let value {
            try connection.prepare(
                "INSERT INTO preferences (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
            ).run([.text(key.rawValue), .text(value)])
        } else {
            try connection.prepare("DELETE FROM preferences WHERE key = ?").run([.text(key.rawValue)])
        }
    }
}

extension SyncJournal {
    /// Journals what changed between two sets of preferences, when sync is on: a put or delete of
    /// each synced setting that changed, of the place as one record when it did, and of each Hijri
    /// month whose announced start changed (`hijri-start` rows). With `all` (an import), a put of
    /// every synced setting, of the place and of every announced start that `after` holds, changed or
    /// not.
    func preferencesChanged(
        from before: Preferences, to after: Preferences, all: Bool = false, now: Date, _ connection: SQLiteConnection
    ) throws {
        guard try Self.isOn(connection) else { return }
        for key in SyncRules.syncedPreferenceKeys.sorted(by: { $0.rawValue < $1.rawValue })
        where before[key] != after[key] || (all && after[key] != nil) {
            try append(
                .pref, key.rawValue, value: after[key].map { .pref(SyncPrefValue(value: $0)) }, now: now, connection)
        }
        let (old, new) = (SyncPlaceValue(before), SyncPlaceValue(after))
        if old != new || (all && new != nil) {
            try append(.place, "current", value: new.map { .place($0) }, now: now, connection)
        }
        let (oldStarts, newStarts) = (before.hijriMonthStarts, after.hijriMonthStarts)
        let months = Set(oldStarts.sorted.map(\.month)).union(newStarts.sorted.map(\.month)).sorted()
        for month in months where oldStarts[month] != newStarts[month] || (all && newStarts[month] != nil) {
            try append(
                .hijriStart, month.description,
                value: newStarts[month].map { .hijriStart(SyncHijriStartValue(start: $0)) }, now: now, connection)
        }
    }
}
