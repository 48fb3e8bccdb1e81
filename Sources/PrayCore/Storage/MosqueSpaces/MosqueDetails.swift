#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a backup keeps of a mosque beyond its timetable (``UserData/mosqueDetails``): its settings,
/// the Hijri month starts it announced and its notices, each in the form its synced row has
/// (``SyncMosqueSettingsValue``, ``SyncHijriStartValue``, ``SyncNoticeValue``), so that one set of
/// rules checks them wherever they come from.
///
/// ```swift
/// var details = MosqueDetails(name: "East London Mosque")
/// details.hijriStarts["1448-09"] = SyncHijriStartValue(start: try CivilDate(parsing: "2027-02-08"))
/// try details.validate()
/// ```
public struct MosqueDetails: Hashable, Sendable, Codable {
    /// The mosque's name on the device that made the backup.
    public var name: String
    /// Its settings (iqama rules, Jumu'ah and Eid prayers, Hijri calendar, place), or `nil`.
    public var settings: SyncMosqueSettingsValue?
    /// The month starts it announced, by Hijri month (`YYYY-MM`).
    public var hijriStarts: [String: SyncHijriStartValue]
    /// Its notices, by ID.
    public var notices: [String: SyncNoticeValue]

    /// Creates the details of a mosque.
    public init(
        name: String, settings: SyncMosqueSettingsValue? = nil, hijriStarts: [String: SyncHijriStartValue] = [:],
        notices: [String: SyncNoticeValue] = [:]
    ) {
        self.name = name
        self.settings = settings
        self.hijriStarts = hijriStarts
        self.notices = notices
    }

    /// Whether nothing is kept: no settings, starts or notices.
    public var isEmpty: Bool { settings == nil && hijriStarts.isEmpty && notices.isEmpty }

    /// Checks every part by the rules its synced row has: the mosque's name, the settings, each month
    /// start for its month and each notice with its ID.
    /// - Throws: ``ValidationError`` naming the mosque and what is wrong.
    public func validate() throws(ValidationError) {
        do {
            try MosqueTimetable.validate(name: name)
            if let settings { try SyncMosqueSettingsValue.validate(key: "settings", value: settings) }
            for (month, start) in hijriStarts { try SyncHijriStartValue.validate(key: month, value: start) }
            for (id, notice) in notices { try SyncNoticeValue.validate(key: id, value: notice) }
        } catch {
            throw ValidationError(
                field: error.field,
                message: "the mosque '\(String(name.prefix(100)).escapingControlCharacters())': \(error.message)")
        }
    }
}
