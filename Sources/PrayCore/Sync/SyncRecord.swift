import Foundation

/// The identifiers of sync (SYNC.md §2): client IDs (`c_` and 128 random bits in hex), device IDs
/// (`d_…`), device tokens (`pkd_` and 256 random bits in base64url).
public enum SyncID {
    /// Whether `text` is a client ID: `c_` and 32 lowercase hex digits.
    public static func isClientID(_ text: String) -> Bool {
        text.hasPrefix("c_") && text.utf8.count == 34
            && text.utf8.dropFirst(2).allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// A new client ID from the system's random generator.
    public static func newClientID() -> String {
        // The standard library's own generator, not `SystemRandomNumberGenerator` passed `inout`:
        // ThreadSanitizer's runtime faults on an `inout` access to that empty struct.
        "c_" + hex((0..<16).map { _ in UInt8.random(in: 0...255) })
    }

    /// `count` random bytes as lowercase hex.
    package static func hex<G: RandomNumberGenerator>(count: Int, using generator: inout G) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for _ in 0..<count { bytes.append(UInt8.random(in: 0...255, using: &generator)) }
        return hex(bytes)
    }

    /// Bytes as lowercase hex.
    package static func hex(_ bytes: [UInt8]) -> String {
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes { text += String(byte >> 4, radix: 16) + String(byte & 15, radix: 16) }
        return text
    }
}

/// What syncs (SYNC.md §1).
public enum SyncCollection: String, Codable, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The prayer log: key `YYYY-MM-DD/<prayer>`.
    case log
    /// A setting on the allowlist: key the setting's name.
    case pref
    /// The saved place, as one record: key `current`.
    case place
    /// Prayers to make up: key `opening/<prayer>` (the opening count, the later one wins) or
    /// `made-up/<32 hex digits>` (one record of make-ups, so two devices' records both count).
    case qada
    /// Fasts: key `YYYY-MM-DD`.
    case fast
    /// An announced first day of a Hijri month: key the Hijri month, `YYYY-MM`.
    case hijriStart = "hijri-start"
    /// A month of an imported mosque timetable: key `<mosque name>/YYYY-MM`, the month's days with the
    /// mosque's place (a mosque is kept while any of its months is).
    case mosque

    /// The schema that brought the collection: a client of an older schema is never sent its rows.
    public var schema: Int {
        switch self {
        case .log, .pref, .place: 1
        case .qada, .fast, .hijriStart, .mosque: 2
        }
    }

    /// The raw value.
    public var description: String { rawValue }
}

/// The value of a `log` row: how the prayer was kept, when that was recorded, and a note.
public struct SyncLogValue: Hashable, Sendable, Codable {
    /// How the prayer was kept.
    public var status: PrayerStatus
    /// When the status was recorded, to the millisecond.
    public var recordedAt: Date
    /// A note of at most ``SyncRules/maximumNoteLength`` characters, or `nil`.
    public var note: String?

    /// Creates a value; `recordedAt` is kept to the millisecond.
    public init(status: PrayerStatus, recordedAt: Date, note: String? = nil) {
        self.status = status
        self.recordedAt = Date(timeIntervalSince1970: Double(PrayerLogEntry.milliseconds(recordedAt)) / 1000)
        self.note = note
    }

    private enum CodingKeys: String, CodingKey { case status, recordedAt, note }

    /// Decodes `{"status", "recordedAt": ISO 8601 UTC with ms, "note"}`.
    /// - Throws: `DecodingError` for a bad status or time.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let statusText = try container.decode(String.self, forKey: .status)
        guard let status = PrayerStatus(rawValue: statusText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .status, in: container, debugDescription: "unknown status '\(statusText)'")
        }
        let recordedAt = try SyncTime.decode(container, forKey: .recordedAt)
        self.init(
            status: status, recordedAt: recordedAt, note: try container.decodeIfPresent(String.self, forKey: .note))
    }

    /// Encodes the wire form; `note` is `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status.rawValue, forKey: .status)
        try container.encode(PrayerLogEntry.timestamp(recordedAt), forKey: .recordedAt)
        try container.encode(note, forKey: .note)
    }
}

/// The value of a `pref` row: the setting's stored text.
public struct SyncPrefValue: Hashable, Sendable, Codable {
    /// The stored, normalised text.
    public var value: String

    /// Creates a value.
    public init(value: String) {
        self.value = value
    }
}

/// The value of the `place` row: the saved place as one record.
public struct SyncPlaceValue: Hashable, Sendable, Codable {
    /// The place's name, or `nil`.
    public var name: String?
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// Elevation in metres, or `nil` when unknown.
    public var elevation: Double?
    /// The zone saved with the place, or `nil`.
    public var timeZone: String?

    /// Creates a value.
    public init(name: String?, latitude: Double, longitude: Double, elevation: Double?, timeZone: String?) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.timeZone = timeZone
    }
}

/// The value of a `qada` row: an opening count of prayers owed, or prayers made up.
public struct SyncQadaValue: Hashable, Sendable, Codable {
    /// `opening` or `made-up`.
    public var kind: String
    /// One of the five prayers, by name.
    public var prayer: String
    /// An opening: 0 to 100,000 prayers owed; made up: 1 to 1,000.
    public var count: Int
    /// An opening: the first day the log counts after it; made up: the day they were prayed.
    public var date: CivilDate
    /// An opening: `set` or `estimate`; made up: `nil`.
    public var source: String?
    /// When it was recorded, to the millisecond.
    public var recordedAt: Date
    /// A note of at most ``SyncRules/maximumNoteLength`` characters, or `nil`.
    public var note: String?

    /// Creates a value; `recordedAt` is kept to the millisecond.
    public init(
        kind: String, prayer: String, count: Int, date: CivilDate, source: String?, recordedAt: Date, note: String?
    ) {
        self.kind = kind
        self.prayer = prayer
        self.count = count
        self.date = date
        self.source = source
        self.recordedAt = SyncTime.millisecond(recordedAt)
        self.note = note
    }

    private enum CodingKeys: String, CodingKey { case kind, prayer, count, date, source, recordedAt, note }

    /// Decodes the wire form (`recordedAt` ISO 8601 UTC with milliseconds).
    /// - Throws: `DecodingError` for a malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kind: try container.decode(String.self, forKey: .kind),
            prayer: try container.decode(String.self, forKey: .prayer),
            count: try container.decode(Int.self, forKey: .count),
            date: try container.decode(CivilDate.self, forKey: .date),
            source: try container.decodeIfPresent(String.self, forKey: .source),
            recordedAt: try SyncTime.decode(container, forKey: .recordedAt),
            note: try container.decodeIfPresent(String.self, forKey: .note))
    }

    /// Encodes the wire form; `source` and `note` are `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(prayer, forKey: .prayer)
        try container.encode(count, forKey: .count)
        try container.encode(date, forKey: .date)
        try container.encode(source, forKey: .source)
        try container.encode(PrayerLogEntry.timestamp(recordedAt), forKey: .recordedAt)
        try container.encode(note, forKey: .note)
    }
}

/// The value of a `fast` row: how the day's fast was kept.
public struct SyncFastValue: Hashable, Sendable, Codable {
    /// `fasted`, `missed`, `excused`, `made-up` or `voluntary`.
    public var status: String
    /// When it was recorded, to the millisecond.
    public var recordedAt: Date
    /// A note of at most ``SyncRules/maximumNoteLength`` characters, or `nil`.
    public var note: String?

    /// Creates a value; `recordedAt` is kept to the millisecond.
    public init(status: String, recordedAt: Date, note: String?) {
        self.status = status
        self.recordedAt = SyncTime.millisecond(recordedAt)
        self.note = note
    }

    private enum CodingKeys: String, CodingKey { case status, recordedAt, note }

    /// Decodes the wire form (`recordedAt` ISO 8601 UTC with milliseconds).
    /// - Throws: `DecodingError` for a malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            status: try container.decode(String.self, forKey: .status),
            recordedAt: try SyncTime.decode(container, forKey: .recordedAt),
            note: try container.decodeIfPresent(String.self, forKey: .note))
    }

    /// Encodes the wire form; `note` is `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(PrayerLogEntry.timestamp(recordedAt), forKey: .recordedAt)
        try container.encode(note, forKey: .note)
    }
}

/// The value of a `hijri-start` row: the month's announced first day.
public struct SyncHijriStartValue: Hashable, Sendable, Codable {
    /// The first day, `YYYY-MM-DD`.
    public var start: CivilDate

    /// Creates a value.
    public init(start: CivilDate) {
        self.start = start
    }
}

/// The value of a `mosque` row: one month of a mosque's imported timetable, with the place and zone
/// its clock times belong to.
public struct SyncMosqueValue: Hashable, Sendable, Codable {
    /// The mosque's latitude, degrees.
    public var latitude: Double
    /// The mosque's longitude, degrees.
    public var longitude: Double
    /// The mosque's elevation, metres.
    public var elevation: Double
    /// The IANA zone of its clock times.
    public var timeZone: String
    /// The month's days, in date order.
    public var days: [MosqueDay]

    /// Creates a value.
    public init(latitude: Double, longitude: Double, elevation: Double, timeZone: String, days: [MosqueDay]) {
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.timeZone = timeZone
        self.days = days
    }
}

/// Times as sync and backups write them: ISO 8601 UTC to the millisecond.
enum SyncTime {
    /// `date` kept to the millisecond.
    static func millisecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(PrayerLogEntry.milliseconds(date)) / 1000)
    }

    /// Decodes a time written by ``PrayerLogEntry/timestamp(_:)``.
    static func decode<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> Date {
        let text = try container.decode(String.self, forKey: key)
        guard let date = PrayerLogEntry.parseTimestamp(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(key.stringValue) must be ISO 8601 UTC, got '\(text)'")
        }
        return date
    }
}

/// The value of a row, by its collection.
public enum SyncValue: Hashable, Sendable {
    /// A log entry.
    case log(SyncLogValue)
    /// A setting.
    case pref(SyncPrefValue)
    /// The saved place.
    case place(SyncPlaceValue)
    /// An opening count or prayers made up.
    case qada(SyncQadaValue)
    /// A day's fast.
    case fast(SyncFastValue)
    /// A month's announced first day.
    case hijriStart(SyncHijriStartValue)
    /// A month of a mosque's timetable.
    case mosque(SyncMosqueValue)

    /// The collection a value belongs to.
    public var collection: SyncCollection {
        switch self {
        case .log: .log
        case .pref: .pref
        case .place: .place
        case .qada: .qada
        case .fast: .fast
        case .hijriStart: .hijriStart
        case .mosque: .mosque
        }
    }

    /// The value as its JSON object (the wire form), for storing.
    /// - Throws: `EncodingError` (never, for values made by the initialisers).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        switch self {
        case .log(let value): return try encoder.encode(value)
        case .pref(let value): return try encoder.encode(value)
        case .place(let value): return try encoder.encode(value)
        case .qada(let value): return try encoder.encode(value)
        case .fast(let value): return try encoder.encode(value)
        case .hijriStart(let value): return try encoder.encode(value)
        case .mosque(let value): return try encoder.encode(value)
        }
    }

    /// Reads a value of `collection` from its JSON object.
    /// - Throws: `DecodingError` for a malformed value.
    public init(_ collection: SyncCollection, json: Data) throws {
        let decoder = JSONDecoder()
        switch collection {
        case .log: self = .log(try decoder.decode(SyncLogValue.self, from: json))
        case .pref: self = .pref(try decoder.decode(SyncPrefValue.self, from: json))
        case .place: self = .place(try decoder.decode(SyncPlaceValue.self, from: json))
        case .qada: self = .qada(try decoder.decode(SyncQadaValue.self, from: json))
        case .fast: self = .fast(try decoder.decode(SyncFastValue.self, from: json))
        case .hijriStart: self = .hijriStart(try decoder.decode(SyncHijriStartValue.self, from: json))
        case .mosque: self = .mosque(try decoder.decode(SyncMosqueValue.self, from: json))
        }
    }

    /// Decodes the value of `collection` from a container's `key`.
    static func decode<Key: CodingKey>(
        _ collection: SyncCollection, from container: KeyedDecodingContainer<Key>, forKey key: Key
    ) throws -> SyncValue {
        switch collection {
        case .log: .log(try container.decode(SyncLogValue.self, forKey: key))
        case .pref: .pref(try container.decode(SyncPrefValue.self, forKey: key))
        case .place: .place(try container.decode(SyncPlaceValue.self, forKey: key))
        case .qada: .qada(try container.decode(SyncQadaValue.self, forKey: key))
        case .fast: .fast(try container.decode(SyncFastValue.self, forKey: key))
        case .hijriStart: .hijriStart(try container.decode(SyncHijriStartValue.self, forKey: key))
        case .mosque: .mosque(try container.decode(SyncMosqueValue.self, forKey: key))
        }
    }

    /// Encodes the value under a container's `key`.
    func encode<Key: CodingKey>(to container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        switch self {
        case .log(let value): try container.encode(value, forKey: key)
        case .pref(let value): try container.encode(value, forKey: key)
        case .place(let value): try container.encode(value, forKey: key)
        case .qada(let value): try container.encode(value, forKey: key)
        case .fast(let value): try container.encode(value, forKey: key)
        case .hijriStart(let value): try container.encode(value, forKey: key)
        case .mosque(let value): try container.encode(value, forKey: key)
        }
    }
}

/// One synced row: `(collection, key) → value`, or a tombstone, with the stamp that orders writes.
public struct SyncRow: Hashable, Sendable {
    /// The collection.
    public var collection: SyncCollection
    /// The key within it.
    public var key: String
    /// The stamp of the write.
    public var hlc: HLC
    /// Whether this is a tombstone.
    public var deleted: Bool
    /// The value; `nil` for a tombstone.
    public var value: SyncValue?

    /// Creates a row.
    public init(collection: SyncCollection, key: String, hlc: HLC, deleted: Bool, value: SyncValue?) {
        self.collection = collection
        self.key = key
        self.hlc = hlc
        self.deleted = deleted
        self.value = value
    }

    /// Whether this write replaces `other` by the merge rule: only a greater stamp does.
    public func replaces(_ other: SyncRow?) -> Bool {
        guard let other else { return true }
        return hlc > other.hlc
    }
}

/// The rules a row must follow, the same on the client and the server (SYNC.md §1, §7).
public enum SyncRules {
    /// The settings that sync: the method and every calculation key, and the person's Hijri, iqama
    /// and reminder settings. Never `notify-hook` (a command of one machine), `clock` (a display
    /// choice per device), the place's keys (they sync as one `place` row), `hijri-starts` (each
    /// month syncs as its own `hijri-start` row, so two devices' announcements of different months
    /// both stay), nor anything secret. The chosen `mosque` syncs with the timetables it names.
    public static let syncedPreferenceKeys: Set<Preferences.Key> = Set(Preferences.calculationKeys).union([
        .hijriCalendar, .hijriOffset, .iqama, .iqamaRounding, .jumuah, .mosque, .reminderMinutes, .fastSuggestions,
    ])

    /// The longest note on a log entry, characters.
    public static let maximumNoteLength = PrayerLogEntry.maximumNoteLength
    /// The longest key, bytes: a mosque's name (100 characters, up to 400 bytes) and its month.
    public static let maximumKeyLength = 512

    /// `East London Mosque/2027-03`: the key of a mosque's month.
    public static func mosqueKey(name: String, year: Int, month: Int) -> String {
        name + "/" + String(format: "%04d-%02d", year, month)
    }

    /// The mosque name, year and month of a `mosque` key.
    /// - Throws: ``ValidationError`` for anything but `<a mosque name>/YYYY-MM`.
    public static func parseMosqueKey(_ key: String) throws(ValidationError) -> (name: String, year: Int, month: Int) {
        guard let slash = key.lastIndex(of: "/") else {
            throw ValidationError(field: "key", message: "a mosque key is <name>/YYYY-MM")
        }
        let name = String(key[..<slash])
        try MosqueTimetable.validate(name: name)
        let parts = key[key.index(after: slash)...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), let year = Int(parts[0]),
            let month = Int(parts[1]), (1...12).contains(month), (1...9999).contains(year)
        else {
            throw ValidationError(field: "key", message: "a mosque key is <name>/YYYY-MM")
        }
        return (name, year, month)
    }

    /// `2026-12-01/fajr`.
    public static func logKey(date: CivilDate, prayer: Prayer) -> String { "\(date)/\(prayer.rawValue)" }

    /// The day and prayer of a log key.
    /// - Throws: ``ValidationError`` for anything but `YYYY-MM-DD/<one of the five prayers>`.
    public static func parseLogKey(_ key: String) throws(ValidationError) -> (date: CivilDate, prayer: Prayer) {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let prayer = Prayer(rawValue: String(parts[1])), prayer.isObligatory else {
            throw ValidationError(field: "key", message: "a log key is YYYY-MM-DD/<fajr|dhuhr|asr|maghrib|isha>")
        }
        return (try CivilDate(parsing: String(parts[0])), prayer)
    }

    /// Checks a put or a delete of `key` in `collection`, with the PrayCore validators.
    /// - Throws: ``ValidationError`` saying what is wrong.
    public static func validate(collection: SyncCollection, key: String, value: SyncValue?) throws(ValidationError) {
        guard !key.isEmpty, key.utf8.count <= maximumKeyLength else {
            throw ValidationError(field: "key", message: "a key has 1 to \(maximumKeyLength) bytes")
        }
        if let value, value.collection != collection {
            throw ValidationError(field: "value", message: "the value is not a \(collection) value")
        }
        switch collection {
        case .log:
            _ = try parseLogKey(key)
            if case .log(let entry)? = value { try checkNote(entry.note) }
        case .pref:
            guard let setting = Preferences.Key(rawValue: key), syncedPreferenceKeys.contains(setting) else {
                throw ValidationError(field: "key", message: "'\(key)' is not a setting that syncs")
            }
            if case .pref(let pref)? = value {
                var check = Preferences()
                try check.set(pref.value, for: setting)
            }
        case .qada:
            try validateQada(key: key, value: value)
        case .fast:
            let date = try CivilDate(parsing: key)
            if case .fast(let fast)? = value { _ = try FastEntry(date: date, fast) }
        case .hijriStart:
            let month = try HijriMonthStarts.Month(parsing: key)
            if case .hijriStart(let start)? = value {
                try HijriMonthStarts.checkPlausible(start.start, for: month)
            }
        case .mosque:
            let (_, year, month) = try parseMosqueKey(key)
            if case .mosque(let mosque)? = value { try validateMosque(mosque, year: year, month: month) }
        case .place:
            guard key == "current" else {
                throw ValidationError(field: "key", message: "the place's key is 'current'")
            }
            if case .place(let place)? = value {
                _ = try Coordinates(
                    latitude: place.latitude, longitude: place.longitude, elevation: place.elevation ?? 0)
                if let zone = place.timeZone, TimeZoneName(zone) == nil { throw TimeZoneName.unknown(zone) }
                if let name = place.name, name.isEmpty || name.count > 200 {
                    throw ValidationError(field: "name", message: "a place's name has 1 to 200 characters")
                }
            }
        }
    }
}

extension SyncRules {
    private static func checkNote(_ note: String?) throws(ValidationError) {
        if let note, note.count > maximumNoteLength {
            throw ValidationError(field: "note", message: "a note has at most \(maximumNoteLength) characters")
        }
    }

    /// `opening/<prayer>` or `made-up/<32 hex digits>`, and a value ``QadaEntry`` accepts under that id.
    private static func validateQada(key: String, value: SyncValue?) throws(ValidationError) {
        try QadaEntry.validateID(key)
        if case .qada(let qada)? = value { _ = try QadaEntry(key: key, qada) }
    }

    /// A month of a mosque: a valid place and zone, 1 to 31 days of that month in order, each valid.
    private static func validateMosque(_ mosque: SyncMosqueValue, year: Int, month: Int) throws(ValidationError) {
        _ = try Coordinates(latitude: mosque.latitude, longitude: mosque.longitude, elevation: mosque.elevation)
        if TimeZoneName(mosque.timeZone) == nil { throw TimeZoneName.unknown(mosque.timeZone) }
        guard (1...31).contains(mosque.days.count) else {
            throw ValidationError(field: "days", message: "a mosque's month holds 1 to 31 days")
        }
        var previous: CivilDate?
        for day in mosque.days {
            guard day.date.year == year, day.date.month == month, previous.map({ $0 < day.date }) ?? true else {
                throw ValidationError(
                    field: "days", message: "\(day.date) is not a later day of the month \(year)-\(month)")
            }
            try day.validate()
            previous = day.date
        }
    }
}

extension SyncQadaValue {
    /// The value of an entry (its id is the row's key).
    public init(_ entry: QadaEntry) {
        self.init(
            kind: entry.kind.rawValue, prayer: entry.prayer.rawValue, count: entry.count, date: entry.date,
            source: entry.source, recordedAt: entry.recordedAt, note: entry.note)
    }
}

extension QadaEntry {
    /// The entry of a `qada` row, checked as every entry is.
    /// - Throws: ``ValidationError`` for a kind or prayer that does not read, or what
    ///   ``init(id:kind:prayer:count:date:source:recordedAt:note:)`` throws.
    public init(key: String, _ value: SyncQadaValue) throws(ValidationError) {
        guard let kind = Kind(rawValue: value.kind) else {
            throw ValidationError(field: "kind", message: "a qada entry is opening or made-up, got '\(value.kind)'")
        }
        guard let prayer = Prayer(rawValue: value.prayer) else {
            throw ValidationError(field: "prayer", message: "'\(value.prayer)' is not a prayer")
        }
        try self.init(
            id: key, kind: kind, prayer: prayer, count: value.count, date: value.date, source: value.source,
            recordedAt: value.recordedAt, note: value.note)
    }
}

extension SyncFastValue {
    /// The value of an entry (its day is the row's key).
    public init(_ entry: FastEntry) {
        self.init(status: entry.status.rawValue, recordedAt: entry.recordedAt, note: entry.note)
    }
}

extension FastEntry {
    /// The entry of a `fast` row of `date`, checked as every entry is.
    /// - Throws: ``ValidationError`` for a status that does not read, or what
    ///   ``init(date:status:recordedAt:note:)`` throws.
    public init(date: CivilDate, _ value: SyncFastValue) throws(ValidationError) {
        guard let status = FastStatus(rawValue: value.status) else {
            throw ValidationError(
                field: "status",
                message: "a fast is fasted, missed, excused, made-up or voluntary, got '\(value.status)'")
        }
        try self.init(date: date, status: status, recordedAt: value.recordedAt, note: value.note)
    }
}
