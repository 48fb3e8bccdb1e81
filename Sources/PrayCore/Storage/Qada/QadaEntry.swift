#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One entry of the prayers to make up (qada): the opening count of a prayer, or prayers of it made up
/// on a day.
///
/// The opening is what was owed of a prayer before the prayer log counts: ``date`` is the first day
/// the log counts after it. There is at most one opening per prayer (its ``id`` is
/// `opening/<prayer>`, so setting it again replaces it). A made-up entry says that ``count`` prayers
/// were made up on ``date``; its ``id`` is random (`made-up/<32 hex digits>`), so that make-ups
/// recorded on two devices both count once synced. ``QadaLedger`` turns entries and the log into
/// what is owed.
///
/// ```swift
/// let opening = try QadaEntry(
///     id: QadaEntry.openingID(.fajr), kind: .opening, prayer: .fajr, count: 1_200,
///     date: try CivilDate(parsing: "2026-12-01"), source: QadaEntry.sourceSet, recordedAt: now)
/// let madeUp = try QadaEntry(
///     id: QadaEntry.newMadeUpID(), kind: .madeUp, prayer: .fajr, count: 2,
///     date: try CivilDate(parsing: "2026-12-02"), source: nil, recordedAt: now, note: "after fajr")
/// ```
///
/// JSON (`Codable`, used by `praykit qada history --format json` and backups):
/// `{"id", "kind", "prayer", "count", "date": "YYYY-MM-DD", "source", "recordedAt":
/// "2026-11-29T05:23:12.345Z", "note"}`, `source` and `note` left out when `nil`.
public struct QadaEntry: Hashable, Sendable, Codable {
    /// What an entry says.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// What was owed of a prayer before the log counts.
        case opening
        /// Prayers made up on a day.
        case madeUp = "made-up"
    }

    /// The entry's identifier, also its sync key: `opening/<prayer>` or `made-up/<32 lowercase hex>`.
    public var id: String
    /// What the entry says.
    public var kind: Kind
    /// The prayer: one of the five obligatory prayers.
    public var prayer: Prayer
    /// How many: an opening 0…``maximumOpeningCount``, a make-up 1…``maximumMadeUpCount``.
    public var count: Int
    /// An opening: the first day the log counts after it. A make-up: the day the prayers were made up.
    public var date: CivilDate
    /// An opening: how its count was found, ``sourceSet`` or ``sourceEstimate``. A make-up: `nil`.
    public var source: String?
    /// When the entry was recorded, to the millisecond (like ``PrayerLogEntry/recordedAt``).
    public var recordedAt: Date
    /// A note of at most ``PrayerLogEntry/maximumNoteLength`` characters, or `nil`.
    public var note: String?

    /// The largest opening count: 100,000 (about 55 years of one prayer a day).
    public static let maximumOpeningCount = 100_000
    /// The most prayers one make-up entry records.
    public static let maximumMadeUpCount = 1_000
    /// The ``source`` of an opening given as a number (`praykit qada set`).
    public static let sourceSet = "set"
    /// The ``source`` of an opening counted from a range of days (`praykit qada estimate`).
    public static let sourceEstimate = "estimate"

    /// Creates an entry and checks it; `recordedAt` is kept to the millisecond; an empty note is no
    /// note.
    /// - Throws: ``ValidationError`` when the prayer is not one of the five, the id does not fit the
    ///   kind and prayer (``validateID(_:)``), the count is out of the kind's range, the source is not
    ///   that of the kind, or the note is too long.
    public init(
        id: String, kind: Kind, prayer: Prayer, count: Int, date: CivilDate, source: String?, recordedAt: Date,
        note: String? = nil
    ) throws(ValidationError) {
        guard prayer.isObligatory else {
            throw ValidationError(
                field: "prayer",
                message: "prayers to make up are the five prayers (fajr, dhuhr, asr, maghrib, isha), not \(prayer)")
        }
        let idKind = try Self.validateID(id)
        guard idKind == kind else {
            throw ValidationError(field: "id", message: "the id '\(id)' is not that of a \(kind.rawValue) entry")
        }
        if kind == .opening, id != Self.openingID(prayer) {
            throw ValidationError(
                field: "id", message: "the opening of \(prayer) has the id '\(Self.openingID(prayer))', not '\(id)'")
        }
        try Self.check(kind: kind, count: count, source: source)
        if let note, note.count > PrayerLogEntry.maximumNoteLength {
            throw ValidationError(
                field: "note",
                message: "a note has at most \(PrayerLogEntry.maximumNoteLength) characters, this one has \(note.count)"
            )
        }
        self.id = id
        self.kind = kind
        self.prayer = prayer
        self.count = count
        self.date = date
        self.source = source
        self.recordedAt = Date(timeIntervalSince1970: Double(PrayerLogEntry.milliseconds(recordedAt)) / 1000)
        self.note = note?.isEmpty == true ? nil : note
    }

    /// The id of the opening of `prayer`: `opening/fajr`.
    public static func openingID(_ prayer: Prayer) -> String {
        "\(Kind.opening.rawValue)/\(prayer.rawValue)"
    }

    /// A new id for a make-up: `made-up/` and 128 random bits as 32 lowercase hex digits (from the
    /// system's generator, like ``SyncID/newClientID()``), so that two devices never pick the same.
    public static func newMadeUpID() -> String {
        "\(Kind.madeUp.rawValue)/" + SyncID.hex((0..<16).map { _ in UInt8.random(in: 0...255) })
    }

    /// Checks an id's form and returns the kind it names: `opening/<one of the five prayers>` or
    /// `made-up/<32 lowercase hex digits>`.
    /// - Throws: ``ValidationError`` (`id`) for any other text.
    @discardableResult
    public static func validateID(_ id: String) throws(ValidationError) -> Kind {
        let parts = id.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2, parts[0] == Kind.opening.rawValue, let prayer = Prayer(rawValue: String(parts[1])),
            prayer.isObligatory
        {
            return .opening
        }
        if parts.count == 2, parts[0] == Kind.madeUp.rawValue, parts[1].utf8.count == 32,
            parts[1].utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        {
            return .madeUp
        }
        throw ValidationError(
            field: "id",
            message: "'\(id)' is not a qada id: opening/<prayer> (fajr, dhuhr, asr, maghrib, isha) or "
                + "made-up/<32 lowercase hex digits>")
    }

    /// Checks the count and source against the kind.
    private static func check(kind: Kind, count: Int, source: String?) throws(ValidationError) {
        switch kind {
        case .opening:
            guard (0...maximumOpeningCount).contains(count) else {
                throw ValidationError(
                    field: "count", message: "an opening count is 0…\(maximumOpeningCount), got \(count)")
            }
            guard source == sourceSet || source == sourceEstimate else {
                throw ValidationError(
                    field: "source",
                    message: "an opening's source is '\(sourceSet)' or '\(sourceEstimate)', got "
                        + (source.map { "'\($0)'" } ?? "none"))
            }
        case .madeUp:
            guard (1...maximumMadeUpCount).contains(count) else {
                throw ValidationError(
                    field: "count", message: "a make-up counts 1…\(maximumMadeUpCount) prayers, got \(count)")
            }
            guard source == nil else {
                throw ValidationError(field: "source", message: "a make-up has no source, got '\(source ?? "")'")
            }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, kind, prayer, count, date, source, recordedAt, note
    }

    /// Decodes and checks an entry (`recordedAt` as ISO 8601 UTC with milliseconds).
    /// - Throws: `DecodingError` for a missing or bad value, with the rule it breaks.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let recordedAt = try SyncTime.decode(container, forKey: .recordedAt)
        let prayerName = try container.decode(String.self, forKey: .prayer)
        guard let prayer = Prayer(rawValue: prayerName) else {
            throw DecodingError.dataCorruptedError(
                forKey: .prayer, in: container,
                debugDescription: "'\(prayerName)' is not a prayer (fajr, dhuhr, asr, maghrib, isha)")
        }
        let kindName = try container.decode(String.self, forKey: .kind)
        guard let kind = Kind(rawValue: kindName) else {
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "'\(kindName)' is not a kind (opening, made-up)")
        }
        do {
            try self.init(
                id: container.decode(String.self, forKey: .id), kind: kind, prayer: prayer,
                count: container.decode(Int.self, forKey: .count),
                date: container.decode(CivilDate.self, forKey: .date),
                source: container.decodeIfPresent(String.self, forKey: .source), recordedAt: recordedAt,
                note: container.decodeIfPresent(String.self, forKey: .note))
        } catch let error as ValidationError {
            let key = CodingKeys(stringValue: error.field) ?? .id
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: error.message)
        }
    }

    /// Encodes with `recordedAt` as `2026-11-29T05:23:12.345Z`, leaving out a `nil` source or note.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(prayer, forKey: .prayer)
        try container.encode(count, forKey: .count)
        try container.encode(date, forKey: .date)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encode(PrayerLogEntry.timestamp(recordedAt), forKey: .recordedAt)
        try container.encodeIfPresent(note, forKey: .note)
    }
}
