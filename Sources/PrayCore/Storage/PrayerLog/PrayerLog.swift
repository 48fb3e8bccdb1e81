#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a prayer was kept.
public enum PrayerStatus: String, CaseIterable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// Prayed in its time.
    case prayed
    /// Prayed, but late.
    case late
    /// Missed, not yet made up: owed.
    case missed
    /// Missed and made up later (qada).
    case qada

    /// Whether the prayer was prayed that day (on time or late).
    public var isPrayed: Bool { self == .prayed || self == .late }

    /// The raw value.
    public var description: String { rawValue }
}

/// One prayer of one day in the log.
public struct PrayerLogEntry: Hashable, Sendable, Codable {
    /// The civil day.
    public let date: CivilDate
    /// The prayer: one of the five obligatory prayers.
    public let prayer: Prayer
    /// How it was kept.
    public let status: PrayerStatus
    /// When this status was recorded, to the millisecond.
    public let recordedAt: Date
    /// A note of at most ``maximumNoteLength`` characters ("prayed at the mosque"), or `nil`.
    public let note: String?

    /// The longest note, characters (the same limit sync keeps: ``SyncRules/maximumNoteLength``).
    public static let maximumNoteLength = 500

    /// Creates an entry; `recordedAt` is kept to the millisecond; an empty note is no note.
    /// - Throws: ``ValidationError`` when `prayer` is not one of the five obligatory prayers, or the note
    ///   is longer than ``maximumNoteLength`` characters.
    public init(
        date: CivilDate, prayer: Prayer, status: PrayerStatus, recordedAt: Date, note: String? = nil
    ) throws(ValidationError) {
        guard prayer.isObligatory else {
            throw ValidationError(
                field: "prayer",
                message: "the log keeps the five prayers (fajr, dhuhr, asr, maghrib, isha), not \(prayer)"
            )
        }
        if let note, note.count > Self.maximumNoteLength {
            throw ValidationError(
                field: "note",
                message: "a note has at most \(Self.maximumNoteLength) characters, this one has \(note.count)")
        }
        self.date = date
        self.prayer = prayer
        self.status = status
        self.recordedAt = Date(timeIntervalSince1970: Double(Self.milliseconds(recordedAt)) / 1000)
        self.note = note?.isEmpty == true ? nil : note
    }

    /// Whole milliseconds since 1970 of `date`, rounded down — except that an instant within a
    /// microsecond of a whole millisecond is that millisecond. A time kept to the millisecond is
    /// k / 1000 in binary floating point, and k / 1000 × 1000 can come out just below k: plain
    /// rounding down then lost a millisecond each time an entry was stored, written or read back.
    package static func milliseconds(_ date: Date) -> Int64 {
        let scaled = date.timeIntervalSince1970 * 1000
        let nearest = scaled.rounded()
        return Int64(abs(scaled - nearest) < 0.001 ? nearest : scaled.rounded(.down))
    }

    private enum CodingKeys: String, CodingKey {
        case date, prayer, status, recordedAt, note
    }

    /// Decodes and checks an entry (`recordedAt` as ISO 8601 with milliseconds).
    /// - Throws: `DecodingError` for a bad value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .recordedAt)
        guard let recordedAt = Self.parseTimestamp(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .recordedAt, in: container, debugDescription: "recordedAt must be ISO 8601 UTC, got '\(text)'"
            )
        }
        let prayerName = try container.decode(String.self, forKey: .prayer)
        guard let prayer = Prayer(rawValue: prayerName) else {
            throw DecodingError.dataCorruptedError(
                forKey: .prayer, in: container,
                debugDescription: "'\(prayerName)' is not a prayer (fajr, dhuhr, asr, maghrib, isha)")
        }
        let statusName = try container.decode(String.self, forKey: .status)
        guard let status = PrayerStatus(rawValue: statusName) else {
            let names = PrayerStatus.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                forKey: .status, in: container, debugDescription: "'\(statusName)' is not a status (\(names))")
        }
        do {
            try self.init(
                date: container.decode(CivilDate.self, forKey: .date), prayer: prayer, status: status,
                recordedAt: recordedAt, note: container.decodeIfPresent(String.self, forKey: .note)
            )
        } catch let error as ValidationError {
            let key: CodingKeys = error.field == "note" ? .note : .prayer
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: error.message)
        }
    }

    /// Encodes with `recordedAt` as `2026-11-29T05:23:12.345Z`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encode(prayer, forKey: .prayer)
        try container.encode(status, forKey: .status)
        try container.encode(Self.timestamp(recordedAt), forKey: .recordedAt)
        try container.encodeIfPresent(note, forKey: .note)
    }

    /// `2026-11-29T05:23:12.345Z`: UTC to the millisecond.
    package static func timestamp(_ date: Date) -> String {
        let milliseconds = Int(Self.milliseconds(date))
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let time = seconds - days * 86400
        return "\(CivilDate(daysSince1970: days))T\((time / 3600).zeroPadded(2)):\((time / 60 % 60).zeroPadded(2)):"
            + "\((time % 60).zeroPadded(2)).\((milliseconds - seconds * 1000).zeroPadded(3))Z"
    }

    /// Parses what ``timestamp(_:)`` writes (the milliseconds are optional).
    package static func parseTimestamp(_ text: String) -> Date? {
        guard text.hasSuffix("Z"), text.count >= 20 else { return nil }
        let parts = text.dropLast().split(separator: "T")
        guard parts.count == 2, let day = try? CivilDate(parsing: String(parts[0])) else { return nil }
        let clock = parts[1].split(separator: ":")
        guard clock.count == 3, let hours = Int(clock[0]), let minutes = Int(clock[1]), (0...23).contains(hours),
            (0...59).contains(minutes)
        else { return nil }
        let secondParts = clock[2].split(separator: ".", omittingEmptySubsequences: false)
        guard let seconds = Int(secondParts[0]), (0...59).contains(seconds), secondParts[0].count == 2 else {
            return nil
        }
        var milliseconds = 0
        if secondParts.count == 2 {
            guard secondParts[1].count == 3, let value = Int(secondParts[1]) else { return nil }
            milliseconds = value
        }
        let total = (day.daysSince1970 * 86400 + hours * 3600 + minutes * 60 + seconds) * 1000 + milliseconds
        return Date(timeIntervalSince1970: Double(total) / 1000)
    }
}

/// What the log says about a person's prayers.
public struct PrayerLogStatistics: Hashable, Sendable {
    /// Consecutive days with all five prayers prayed (on time or late), ending today — or yesterday,
    /// while today is not complete.
    public let currentStreak: Int
    /// The longest such run in the log.
    public let bestStreak: Int
    /// How many entries have each status.
    public let counts: [PrayerStatus: Int]
    /// The log's entries marked missed (not made up). What is owed in all — with the openings of
    /// ``QadaStore`` and its make-ups — is ``QadaLedger``'s `total.balance`, which `praykit log stats`
    /// shows.
    public let qadaOwed: Int
    /// Days with at least one entry.
    public let daysLogged: Int

    /// Creates statistics.
    public init(currentStreak: Int, bestStreak: Int, counts: [PrayerStatus: Int], qadaOwed: Int, daysLogged: Int) {
        self.currentStreak = currentStreak
        self.bestStreak = bestStreak
        self.counts = counts
        self.qadaOwed = qadaOwed
        self.daysLogged = daysLogged
    }

    /// Computes the statistics of `entries` as of `today`.
    public init(entries: [PrayerLogEntry], today: CivilDate) {
        var counts: [PrayerStatus: Int] = [:]
        var prayedPerDay: [Int: Int] = [:]
        var days = Set<Int>()
        for entry in entries {
            counts[entry.status, default: 0] += 1
            days.insert(entry.date.daysSince1970)
            if entry.status.isPrayed { prayedPerDay[entry.date.daysSince1970, default: 0] += 1 }
        }
        let complete = Set(prayedPerDay.filter { $0.value == Prayer.obligatory.count }.keys)
        var best = 0
        for day in complete where !complete.contains(day - 1) {
            var length = 1
            while complete.contains(day + length) { length += 1 }
            best = max(best, length)
        }
        var end = today.daysSince1970
        if !complete.contains(end) { end -= 1 }
        var current = 0
        while complete.contains(end - current) { current += 1 }
        self.init(
            currentStreak: current, bestStreak: best, counts: counts, qadaOwed: counts[.missed] ?? 0,
            daysLogged: days.count
        )
    }
}

/// Keeps the prayer log: one status per day and prayer.
///
/// The methods are synchronous, for servers, tools and the command line. Code on the main actor (an
/// app's views and models) calls them through ``async`` instead, which runs them on ``workQueue`` and
/// never makes its actor wait for the database:
///
/// ```swift
/// try await dependency.prayerLog().async.record(.prayed, for: .fajr, on: today)
/// ```
public protocol PrayerLogStore: Sendable {
    /// Records `status` for `prayer` on `date` with an optional note, replacing an earlier status;
    /// returns once it is durably committed (with its sync outbox entry, when sync is on).
    /// - Throws: ``ValidationError`` for a prayer that is not one of the five or a note that is too
    ///   long, ``StorageError``.
    @discardableResult
    func record(_ status: PrayerStatus, for prayer: Prayer, on date: CivilDate, note: String?) throws
        -> PrayerLogEntry

    /// Records many entries in one transaction: all of them, or none.
    /// - Throws: ``StorageError``.
    func record(_ entries: [PrayerLogEntry]) throws

    /// The entries from `start` through `end`, by date then prayer.
    /// - Throws: ``StorageError``.
    func entries(from start: CivilDate, through end: CivilDate) throws -> [PrayerLogEntry]

    /// Removes the entries of `prayers` on `date` and returns those that were there, in one
    /// transaction.
    /// - Throws: ``StorageError``.
    @discardableResult
    func delete(_ prayers: [Prayer], on date: CivilDate) throws -> [PrayerLogEntry]

    /// Streaks, counts and qada owed, as of `today`.
    /// - Throws: ``StorageError``.
    func statistics(today: CivilDate) throws -> PrayerLogStatistics

    /// The entries from `start` through `end` at once, then again after every committed change.
    func entriesSequence(from start: CivilDate, through end: CivilDate) -> AsyncStream<[PrayerLogEntry]>

    /// Where ``async`` runs this store's methods: ``WorkQueue/shared`` unless the store has a queue
    /// of its own (the SQLite store runs on its database's).
    var workQueue: WorkQueue { get }
}

extension PrayerLogStore {
    /// Records `status` for `prayer` on `date`, without a note.
    /// - Throws: ``ValidationError`` for a prayer that is not one of the five, ``StorageError``.
    @discardableResult
    public func record(_ status: PrayerStatus, for prayer: Prayer, on date: CivilDate) throws -> PrayerLogEntry {
        try record(status, for: prayer, on: date, note: nil)
    }
}

/// Everything a person keeps in PrayKit, as one value: what a backup file holds.
public struct UserData: Hashable, Sendable, Codable {
    /// Marks the file as a PrayKit backup.
    public var format = "praykit-backup"
    /// The backup format's version.
    public var version = 1
    /// The preferences.
    public var preferences: Preferences
    /// The prayer log, by date then prayer.
    public var prayerLog: [PrayerLogEntry]
    /// The mosques' imported timetables, by name; `nil` in a backup made before PrayKit kept them
    /// (importing it then leaves the stored ones as they are).
    public var mosques: [MosqueTimetable]?
    /// The mosques' settings, announced month starts and notices, by name (the mosques of
    /// ``mosques`` and those with no timetable); `nil` in a backup made before PrayKit kept them
    /// (importing it then leaves the stored ones as they are).
    public var mosqueDetails: [MosqueDetails]?
    /// The prayers to make up: openings and make-ups, by when they were recorded; `nil` in a backup
    /// made before PrayKit kept them (importing it then leaves the stored ones as they are).
    public var qada: [QadaEntry]?
    /// The fasts, by day; `nil` in a backup made before PrayKit kept them (importing it then leaves
    /// the stored ones as they are).
    public var fasts: [FastEntry]?

    /// Creates a backup value.
    public init(
        preferences: Preferences, prayerLog: [PrayerLogEntry], mosques: [MosqueTimetable]? = nil,
        qada: [QadaEntry]? = nil, fasts: [FastEntry]? = nil, mosqueDetails: [MosqueDetails]? = nil
    ) {
        self.preferences = preferences
        self.prayerLog = prayerLog
        self.mosques = mosques
        self.mosqueDetails = mosqueDetails
        self.qada = qada
        self.fasts = fasts
    }

    /// Reads a backup, checking all of it before anything may be written.
    /// - Throws: ``StorageError`` (`invalidData`) saying in plain words what is wrong with the file:
    ///   larger than ``maximumFileBytes``, not JSON, a missing or mistyped field (with its path), an
    ///   invalid value, more than ``maximumLogEntries`` entries, the same day and prayer logged
    ///   twice, or a name given twice in one object.
    public static func decoded(from data: Data) throws(StorageError) -> UserData {
        guard data.count <= maximumFileBytes else { throw tooLarge }
        let backup: UserData
        do {
            backup = try JSONDecoder().decode(UserData.self, from: data)
        } catch let error as DecodingError {
            throw StorageError(kind: .invalidData, message: "the backup is not valid: \(describe(error))")
        } catch {
            throw StorageError(kind: .invalidData, message: "the backup could not be read")
        }
        // One of two values would be read silently (tools that show the file may show the other).
        if let name = JSONRepeatedKeys.first(in: data) {
            throw StorageError(
                kind: .invalidData,
                message: "the backup gives '\(name.escapingControlCharacters())' twice in one object: which one is "
                    + "meant is not clear; keep one of them")
        }
        guard backup.format == "praykit-backup", backup.version == 1 else {
            throw StorageError(
                kind: .invalidData,
                message: "the file is not a PrayKit backup of version 1 (format '\(backup.format)', "
                    + "version \(backup.version))"
            )
        }
        try backup.checkLimits()
        var seen = Set<String>()
        for entry in backup.prayerLog where !seen.insert("\(entry.date) \(entry.prayer)").inserted {
            throw StorageError(
                kind: .invalidData,
                message: "the backup logs \(entry.prayer) on \(entry.date) twice; a prayer has one entry a day"
            )
        }
        var names = Set<String>()
        for mosque in backup.mosques ?? [] where !names.insert(mosque.name).inserted {
            throw StorageError(kind: .invalidData, message: "the backup holds the mosque '\(mosque.name)' twice")
        }
        var detailed = Set<String>()
        for details in backup.mosqueDetails ?? [] {
            do {
                try details.validate()
            } catch {
                throw StorageError(kind: .invalidData, message: "the backup is not valid: \(error.message)")
            }
            guard detailed.insert(details.name).inserted else {
                throw StorageError(
                    kind: .invalidData, message: "the backup holds the details of the mosque '\(details.name)' twice")
            }
        }
        var days = Set<CivilDate>()
        for entry in backup.fasts ?? [] where !days.insert(entry.date).inserted {
            throw StorageError(kind: .invalidData, message: "the backup holds a fast on \(entry.date) twice")
        }
        var ids = Set<String>()
        for entry in backup.qada ?? [] where !ids.insert(entry.id).inserted {
            throw StorageError(kind: .invalidData, message: "the backup holds the qada entry '\(entry.id)' twice")
        }
        return backup
    }

    /// Checks that nothing in the backup is dated after the day after `now`'s, wherever on Earth (UTC+14):
    /// prayers and fasts are recorded up to a day ahead and make-ups not ahead, so a later day is a
    /// damaged or forged file (a log entry dated 9999 would be stored but never listed).
    /// - Throws: ``StorageError`` (`invalidData`) naming the first such entry.
    public func checkNotAhead(of now: Date) throws(StorageError) {
        guard let east = TimeZoneName("Etc/GMT-14"),
            let latest = try? CivilDate(containing: now, in: east.timeZone).clampedAdding(days: 1)
        else { return }
        func refuse(_ what: String, _ date: CivilDate) -> StorageError {
            StorageError(
                kind: .invalidData,
                message: "the backup holds \(what) dated \(date), after tomorrow (\(latest)); nothing was imported")
        }
        if let entry = prayerLog.first(where: { $0.date > latest }) {
            throw refuse("\(entry.prayer) in the log", entry.date)
        }
        if let entry = fasts?.first(where: { $0.date > latest }) { throw refuse("a fast", entry.date) }
        if let entry = qada?.first(where: { $0.date > latest }) {
            throw refuse("the qada entry '\(entry.id)'", entry.date)
        }
    }

    /// A decoding failure in words: where in the file and what was wrong, never Foundation's text.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return text.isEmpty ? "the top level" : String(text.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "" : " in \(path(context.codingPath))"
            return "'\(key.stringValue)' is missing\(parent)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)) has the wrong type of value"
        case .dataCorrupted(let context):
            guard !context.codingPath.isEmpty else { return "the file is not JSON" }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "the file does not have the shape of a backup"
        }
    }
}

/// Exports and imports all user data.
///
/// The methods are synchronous, for servers, tools and the command line; code on the main actor
/// calls them through ``async``, which runs them on ``workQueue``.
public protocol BackupService: Sendable {
    /// Everything stored.
    /// - Throws: ``StorageError``.
    func exportData() throws -> UserData

    /// Everything stored, a log entry at a time, read in one transaction: calls `rest` once with
    /// everything but the log (its `prayerLog` empty), then `entry` with each log entry in order — so
    /// that a long log is never held in memory whole (see ``UserData/write(to:reading:)``). By
    /// default, ``exportData()`` read whole.
    /// - Throws: ``StorageError``, or what `rest` or `entry` throws.
    func exportData(rest: (UserData) throws -> Void, entries entry: (PrayerLogEntry) throws -> Void) throws

    /// Replaces everything stored with `data`, in one transaction: all of it, or (on any failure)
    /// nothing — except the settings in `kept`, whose stored values stay as they are whatever `data`
    /// holds. The command line keeps ``Preferences/Key/machineLocal`` (`notify-hook`) unless told to
    /// trust the file.
    /// - Throws: ``StorageError``, also (`invalidData`) for more than ``UserData/maximumLogEntries``
    ///   entries, before anything is written.
    func importData(_ data: UserData, keeping kept: Set<Preferences.Key>) throws

    /// Where ``async`` runs this service's methods: ``WorkQueue/shared`` unless the service has a
    /// queue of its own (the SQLite service runs on its database's).
    var workQueue: WorkQueue { get }
}

extension BackupService {
    /// ``exportData()``, an entry at a time: for services that read everything at once anyway.
    /// - Throws: What ``exportData()``, `rest` or `entry` throws.
    public func exportData(rest: (UserData) throws -> Void, entries entry: (PrayerLogEntry) throws -> Void) throws {
        var data = try exportData()
        let log = data.prayerLog
        data.prayerLog = []
        try rest(data)
        for item in log { try entry(item) }
    }

    /// Replaces everything stored with `data`, its ``Preferences/Key/machineLocal`` settings
    /// included: ``importData(_:keeping:)`` keeping nothing. For data the caller trusts (its own);
    /// a file from elsewhere goes through `importData(_:keeping: Set(Preferences.Key.machineLocal))`.
    /// - Throws: ``StorageError``.
    public func importData(_ data: UserData) throws {
        try importData(data, keeping: [])
    }
}
