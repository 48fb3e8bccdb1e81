#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SyncCollection {
    /// A setting on the allowlist (``SyncRules/syncedPreferenceKeys``): key the setting's name.
    public static let pref = SyncCollection(name: "pref", schema: 1, valueType: SyncPrefValue.self)
}

/// The value of a `pref` row: the setting's stored text.
public struct SyncPrefValue: SyncRowValue {
    /// The stored, normalised text.
    public var value: String

    /// Creates a value.
    public init(value: String) {
        self.value = value
    }
}

extension SyncPrefValue {
    /// The setting's text.
    public var summary: String { value }

    /// The `pref` collection.
    public static var collection: SyncCollection { .pref }

    /// A key on the allowlist and a value the setting accepts.
    /// - Throws: ``ValidationError`` saying what is wrong.
    public static func validate(key: String, value: SyncPrefValue?) throws(ValidationError) {
        guard let setting = Preferences.Key(rawValue: key), SyncRules.syncedPreferenceKeys.contains(setting) else {
            throw ValidationError(field: "key", message: "'\(key)' is not a setting that syncs")
        }
        if let value {
            var check = Preferences()
            try check.set(value.value, for: setting)
        }
    }
}

extension SyncValue {
    /// A `pref` value.
    public static func pref(_ value: SyncPrefValue) -> SyncValue { SyncValue(value) }
}

extension SyncRules {
    /// The settings that sync: the method and every calculation key, and the person's Hijri, iqama
    /// and reminder settings. Never `notify-hook` (a command of one machine), `clock` (a display
    /// choice per device), the place's keys (they sync as one `place` row), `hijri-starts` (each
    /// month syncs as its own `hijri-start` row, so two devices' announcements of different months
    /// both stay), nor anything secret. The chosen `mosque` syncs with the timetables it names.
    public static let syncedPreferenceKeys: Set<Preferences.Key> = Set(Preferences.calculationKeys).union([
        .hijriCalendar, .hijriOffset, .iqama, .iqamaRounding, .jumuah, .mosque, .reminderMinutes, .fastSuggestions,
    ])
}
