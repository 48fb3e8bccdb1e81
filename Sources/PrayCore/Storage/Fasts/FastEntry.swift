#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a day's fast went. The raw value is the stored and synced code, which never changes.
public enum FastStatus: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    /// A day of Ramadan, fasted.
    case fasted
    /// A day of Ramadan not fasted without an excuse: owed.
    case missed
    /// A day of Ramadan not fasted for an excuse (travel, illness, a woman's period): owed as well.
    case excused
    /// A day outside Ramadan fasted to make up a day of Ramadan (qada).
    case madeUp = "made-up"
    /// A voluntary fast outside Ramadan (Mondays, Thursdays, the white days, Arafah, Ashura, …).
    case voluntary

    /// Whether the status belongs to a day of Ramadan (fasted, missed, excused).
    public var isRamadan: Bool { self == .fasted || self == .missed || self == .excused }

    /// The raw value.
    public var description: String { rawValue }
}

/// One day's fast. Its sync key is the day, `YYYY-MM-DD`: a day has one fast.
public struct FastEntry: Hashable, Sendable, Codable {
    /// The civil day.
    public var date: CivilDate
    /// How the fast went.
    public var status: FastStatus
    /// When this status was recorded, to the millisecond.
    public var recordedAt: Date
    /// A note of at most ``PrayerLogEntry/maximumNoteLength`` characters, or `nil`.
    public var note: String?

    /// Creates an entry; `recordedAt` is kept to the millisecond; an empty note is no note.
    /// - Throws: ``ValidationError`` when the note is longer than ``PrayerLogEntry/maximumNoteLength``
    ///   characters.
    public init(date: CivilDate, status: FastStatus, recordedAt: Date, note: String? = nil) throws(ValidationError) {
        if let note, note.count > PrayerLogEntry.maximumNoteLength {
            throw ValidationError(
                field: "note",
                message:
                    "a note has at most \(PrayerLogEntry.maximumNoteLength) characters, this one has \(note.count)")
        }
        self.date = date
        self.status = status
        self.recordedAt = Date(timeIntervalSince1970: Double(PrayerLogEntry.milliseconds(recordedAt)) / 1000)
        self.note = note?.isEmpty == true ? nil : note
    }

    private enum CodingKeys: String, CodingKey {
        case date, status, recordedAt, note
    }

    /// Decodes and checks an entry (`recordedAt` as ISO 8601 UTC with milliseconds).
    /// - Throws: `DecodingError` for a bad value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let recordedAt = try SyncTime.decode(container, forKey: .recordedAt)
        let statusName = try container.decode(String.self, forKey: .status)
        guard let status = FastStatus(rawValue: statusName) else {
            let names = FastStatus.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                forKey: .status, in: container, debugDescription: "'\(statusName)' is not a fast status (\(names))")
        }
        do {
            try self.init(
                date: container.decode(CivilDate.self, forKey: .date), status: status, recordedAt: recordedAt,
                note: container.decodeIfPresent(String.self, forKey: .note))
        } catch let error as ValidationError {
            throw DecodingError.dataCorruptedError(forKey: .note, in: container, debugDescription: error.message)
        }
    }

    /// Encodes as `{"date":"2027-02-10","status":"fasted","recordedAt":"2027-02-10T17:40:00.000Z","note":…}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encode(status, forKey: .status)
        try container.encode(PrayerLogEntry.timestamp(recordedAt), forKey: .recordedAt)
        try container.encodeIfPresent(note, forKey: .note)
    }
}
