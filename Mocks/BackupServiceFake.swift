import PrayCore

/// A ``BackupService`` over two in-memory stores that never fails: export reads both, import
/// replaces both.
///
/// ```swift
/// let backup = BackupServiceFake()
/// try backup.prayerLog.record(.prayed, for: .fajr, on: .mockDate)
/// let data = backup.exportData()           // the preferences and the one entry
/// ```
public final class BackupServiceFake: BackupService {
    /// The preferences it exports and imports into.
    public let preferences: PreferencesStoreFake
    /// The log it exports and imports into.
    public let prayerLog: PrayerLogStoreFake

    /// Creates a backup service over the two stores.
    public init(
        preferences: PreferencesStoreFake = PreferencesStoreFake(), prayerLog: PrayerLogStoreFake = PrayerLogStoreFake()
    ) {
        self.preferences = preferences
        self.prayerLog = prayerLog
    }

    /// The two stores' contents.
    public func exportData() -> UserData {
        UserData(preferences: preferences.preferences(), prayerLog: prayerLog.allEntries)
    }

    /// Replaces the two stores' contents.
    public func importData(_ data: UserData) {
        importData(data, keeping: [])
    }

    /// Replaces the two stores' contents, except the settings in `kept`, which keep their values.
    public func importData(_ data: UserData, keeping kept: Set<Preferences.Key>) {
        preferences.update { stored in
            var replacement = data.preferences
            for key in kept {
                replacement.unset(key)
                if let value = stored[key] { try? replacement.set(value, for: key) }
            }
            stored = replacement
        }
        prayerLog.replaceAll(with: data.prayerLog)
    }
}
