#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A time zone as a person or a client writes it, parsed by the one rule every part of PrayKit uses
/// (the command line, ``LocationManager``, the saved preferences and the HTTP server):
///
/// - every name the system's tz database knows, canonical or a backward alias (`Asia/Kolkata`,
///   `Asia/Calcutta`, `US/Eastern`, `Asia/Saigon`, `Etc/GMT-3`, `EST5EDT`), in any letter case;
/// - `UTC` (and `Z`, `GMT`, `Zulu`);
/// - a fixed offset from UTC: `+03:00`, `-0930`, `+3`, `UTC+05:30`, at most 14 hours.
///
/// `local`, the zone of the machine, is not a name: ``TimeZoneParser`` resolves it from the
/// environment it is given.
///
/// ```swift
/// let zone = try TimeZoneName(parsing: "asia/kolkata")
/// print(zone.identifier, zone.timeZone.secondsFromGMT())   // Asia/Kolkata 19800
/// ```
public struct TimeZoneName: Hashable, Sendable, CustomStringConvertible {
    /// The zone's name as PrayKit shows it: the tz database's spelling (`Asia/Kolkata`), `UTC`, or
    /// Foundation's name of a fixed offset (`GMT+0300`).
    public var identifier: String { storage.identifier }
    /// Whether this is the machine's zone, chosen with `local`.
    public let isLocal: Bool
    /// The name, and what it was found as; one reference, so that a request or a schedule that keeps
    /// the zone copies one pointer.
    private let storage: Storage

    /// What a zone's name was found as.
    private final class Storage: Sendable {
        let identifier: String
        /// The Foundation zone it was made from, if any: a name of the system's tz database is found and
        /// computed with without one (``ZonePeriods``), and Foundation's is made only when asked for.
        let given: TimeZone?
        /// The zone's file in the system's tz database, when it was found by name.
        let rules: TZifZone?

        init(identifier: String, given: TimeZone?, rules: TZifZone?) {
            self.identifier = identifier
            self.given = given
            self.rules = rules
        }
    }

    /// The zone's file in the system's tz database, when it was found by name (a clock then computes
    /// with it without looking it up again).
    package var systemRules: TZifZone? { storage.rules }

    private var given: TimeZone? { storage.given }

    /// The zone as Foundation's `TimeZone`: the one this was made from, else Foundation's zone of this
    /// name, made now (on Linux Foundation's named zones are ICU's, which a command that only
    /// computes times never needs to load).
    public var timeZone: TimeZone {
        given ?? Self.foundationZone(identifier)
    }

    /// Whether two names are the same zone: the same identifier, both the machine's or neither.
    public static func == (lhs: TimeZoneName, rhs: TimeZoneName) -> Bool {
        lhs.identifier == rhs.identifier && lhs.isLocal == rhs.isLocal
    }

    /// Hashes the identifier and whether it is the machine's zone.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(isLocal)
    }

    /// A zone found by name or offset (see the type's documentation), or `nil` for any other text.
    public init?(_ text: String) {
        // Spaces and tabs around a name are forgiven; any other character is part of it.
        let text = Self.trimmed(text)
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        let offset = Self.offsetSeconds(text)
        if text.uppercased() == "Z" {
            self = .utc
        } else if offset == nil, Self.looksLikeName(text), Self.isSystemZone(text) {
            // A zone of the system's tz database: its file is read, no Foundation zone is made.
            self.init(systemZone: text)
        } else if offset == nil, Self.looksLikeName(text), let zone = NamedTimeZone.make(text) {
            // The exact spelling: Foundation knows every name of the tz database, aliases included, so
            // the list of names is read only for another letter case (or a name like `GMT+0`).
            self.init(identifier: text, timeZone: zone)
        } else if let offset, text.first?.isLetter == false, let zone = TimeZone(secondsFromGMT: offset) {
            // `+03:00`: an offset, never a name (the names that look like offsets start with GMT).
            self.init(identifier: zone.identifier, timeZone: zone)
        } else if let name = Self.canonicalSpelling(of: text), Self.isSystemZone(name) {
            self.init(systemZone: name)
        } else if let name = Self.canonicalSpelling(of: text), let zone = NamedTimeZone.make(name) {
            self.init(identifier: name, timeZone: zone)
        } else if let offset, let zone = TimeZone(secondsFromGMT: offset) {
            self.init(identifier: zone.identifier, timeZone: zone)
        } else {
            return nil
        }
    }

    /// A zone found by name or offset.
    /// - Throws: ``ValidationError`` (field `timeZone`) for text that names no zone.
    public init(parsing text: String) throws(ValidationError) {
        guard let zone = TimeZoneName(text) else { throw Self.unknown(text) }
        self = zone
    }

    /// A zone as it is; its name is its identifier (`UTC` for Foundation's `GMT` zone of offset 0
    /// only when named so).
    /// - Parameters:
    ///   - identifier: The name to show.
    ///   - timeZone: The zone.
    ///   - isLocal: Whether it is the machine's zone.
    public init(identifier: String, timeZone: TimeZone, isLocal: Bool = false) {
        self.isLocal = isLocal
        storage = Storage(identifier: identifier, given: timeZone, rules: nil)
    }

    /// A zone of the system's tz database by its file's name (``isSystemZone(_:)``), without a
    /// Foundation zone.
    package init(systemZone identifier: String, isLocal: Bool = false) {
        self.isLocal = isLocal
        storage = Storage(identifier: identifier, given: nil, rules: ZoneDatabase.systemZone(named: identifier))
    }

    /// This zone, not marked as the machine's (a request or a schedule keeps the zone alone).
    package var withoutLocal: TimeZoneName {
        isLocal ? TimeZoneName(storage: storage, isLocal: false) : self
    }

    /// This zone, marked as the machine's.
    var asLocal: TimeZoneName { TimeZoneName(storage: storage, isLocal: true) }

    private init(storage: Storage, isLocal: Bool) {
        self.storage = storage
        self.isLocal = isLocal
    }

    /// Whether `identifier` names a zone file of the system's tz database that Foundation also knows
    /// by that name: every TZif file but the `posix/` and `right/` copies of the tree, `localtime` and
    /// `posixrules` (the machine's zone and the default rules, not zones).
    package static func isSystemZone(_ identifier: String) -> Bool {
        guard !identifier.hasPrefix("posix/"), !identifier.hasPrefix("right/"), identifier != "localtime",
            identifier != "posixrules"
        else { return false }
        return ZoneDatabase.systemZone(named: identifier) != nil
    }

    /// Foundation's zone of a name, for ``timeZone``: the named zone; for a name of the system's tz
    /// database that Foundation does not know (a zone newer than its data), a fixed zone of the offset
    /// the system's database gives it now — PrayKit's own calculations read the database and never
    /// this zone.
    private static func foundationZone(_ identifier: String) -> TimeZone {
        if let zone = NamedTimeZone.make(identifier) { return zone }
        let now = Int64(Date().timeIntervalSince1970)
        let offset = ZoneDatabase.systemZone(named: identifier)?.period(at: now).offset ?? 0
        return TimeZone(secondsFromGMT: offset) ?? TimeZone(secondsFromGMT: 0) ?? .current
    }

    /// The zone of a `TimeZone`, named by its identifier.
    public init(_ timeZone: TimeZone) {
        self.init(identifier: timeZone.identifier, timeZone: timeZone)
    }

    /// The identifier.
    public var description: String { identifier }

    /// UTC.
    public static let utc = TimeZoneName(systemZone: "UTC")

    /// The error for text that names no zone.
    public static func unknown(_ text: String) -> ValidationError {
        ValidationError(
            field: "timeZone",
            message: "unknown time zone '\(text)'; use a tz database name such as Europe/London, UTC, or an offset "
                + "such as +03:00")
    }

    /// Every zone name of the tz database this system knows, canonical names and aliases, sorted:
    /// the names of the system's `tzdata.zi` where it has one, with Foundation's own list.
    public static var knownIdentifiers: [String] { names.sorted }

    /// Seconds east of UTC of `+03:00`, `-0930`, `+3`, `UTC+3`, `GMT-09:30`; `nil` for anything else
    /// or beyond ±14 hours.
    static func offsetSeconds(_ text: String) -> Int? {
        // By hand rather than with a Regex: the server reads a zone on every request.
        var bytes = Substring(text).utf8[...]
        for prefix in ["UTC", "GMT"] {
            let head = bytes.prefix(3)
            if head.count == 3, String(decoding: head, as: UTF8.self).uppercased() == prefix {
                bytes = bytes.dropFirst(3)
                break
            }
        }
        guard let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let body = Array(bytes.dropFirst())
        func number(_ digits: ArraySlice<UInt8>) -> Int? {
            guard !digits.isEmpty, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
            return digits.reduce(0) { $0 * 10 + Int($1 - 48) }
        }
        let hours: Int?
        let minutes: Int?
        if let colon = body.firstIndex(of: UInt8(ascii: ":")) {
            guard (1...2).contains(colon), body.count - colon - 1 == 2 else { return nil }
            (hours, minutes) = (number(body[..<colon]), number(body[(colon + 1)...]))
        } else if body.count <= 2 {
            (hours, minutes) = (number(body[...]), 0)
        } else if body.count == 4 {
            (hours, minutes) = (number(body[..<2]), number(body[2...]))
        } else {
            return nil
        }
        guard let hours, let minutes, minutes < 60, hours * 60 + minutes <= 14 * 60 else { return nil }
        return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    // MARK: - Helpers

    /// `text` without spaces and tabs around it.
    static func trimmed(_ text: String) -> String {
        let isSpace = { (byte: UInt8) in byte == 32 || byte == 9 }
        guard let first = text.utf8.first, let last = text.utf8.last, isSpace(first) || isSpace(last) else {
            return text
        }
        let bytes = Array(text.utf8)
        guard let start = bytes.firstIndex(where: { !isSpace($0) }), let end = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[start...end], as: UTF8.self)
    }

    /// Whether `text` could be a tz name (letters, digits, `/_+-`), so that Foundation's own
    /// spellings such as `GMT+0300` or odd text are not taken for names.
    private static func looksLikeName(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte)
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "+")
        }
    }

    /// The tz database's spelling of a name given in any case, or `nil` when it names no zone.
    private static func canonicalSpelling(of text: String) -> String? {
        names.byLowercase[text.lowercased()]
    }

    /// The zone names, read once.
    private static let names = ZoneNames()

    /// The names of the tz database: every zone (`Z`) and link (`L`) line of the system's `tzdata.zi`
    /// where it has one, else (Linux) every TZif file under the system's zone folder (but the
    /// `posix/` and `right/` copies, `localtime` and `posixrules`); with full Foundation (Apple
    /// platforms), Foundation's list (ICU's canonical names) too. On Linux Foundation's list needs ICU,
    /// which the start-up path does not load; it is a subset of `tzdata.zi`'s names (443 of 598 on
    /// Debian 12, 2026-12-06), so the list is the same where that file exists.
    private struct ZoneNames: Sendable {
        let sorted: [String]
        let byLowercase: [String: String]

        init() {
            var names = Set<String>()
            #if !canImport(FoundationEssentials)
                names.formUnion(TimeZone.knownTimeZoneIdentifiers)
            #endif
            var foundList = false
            for path in ["/usr/share/zoneinfo/tzdata.zi", "/usr/share/lib/zoneinfo/tzdata.zi"] {
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                    let fields = line.split(separator: " ")
                    if fields.count >= 2, fields[0] == "Z" { names.insert(String(fields[1])) }
                    if fields.count >= 3, fields[0] == "L" { names.insert(String(fields[2])) }
                }
                foundList = true
                break
            }
            #if canImport(FoundationEssentials)
                if !foundList { names.formUnion(Self.zoneFiles()) }
            #else
                _ = foundList
            #endif
            sorted = names.sorted()
            byLowercase = Dictionary(sorted.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        }

        /// The names of the TZif files under the first zone folder of ``ZoneDatabase/system`` that has
        /// any (``TimeZoneName/isSystemZone(_:)``'s files).
        private static func zoneFiles() -> [String] {
            for folder in ZoneDatabase.system.folders {
                guard let paths = try? FileManager.default.subpathsOfDirectory(atPath: folder), !paths.isEmpty else {
                    continue
                }
                return paths.filter { path in
                    ZoneDatabase.isZoneName(path) && TimeZoneName.isSystemZone(path)
                }
            }
            return []
        }
    }
}

/// Reads time zones as the user wrote them, with `local` — the machine's zone — resolved from the
/// environment it is given: `$TZ` when it names a zone (POSIX allows a leading colon,
/// `TZ=:Europe/London`), else the system's zone.
///
/// ```swift
/// let parser = TimeZoneParser(environment: ProcessInfo.processInfo.environment)
/// let zone = try parser.parse("local")
/// ```
public struct TimeZoneParser: Sendable {
    private let environment: [String: String]
    private let systemTimeZone: TimeZone?

    /// Creates a parser.
    /// - Parameters:
    ///   - environment: The process environment (its `TZ`).
    ///   - systemTimeZone: The system's zone when `TZ` names none; by default the zone the system is
    ///     set to (where `/etc/localtime` links), else `TimeZone.current`.
    public init(environment: [String: String], systemTimeZone: TimeZone? = nil) {
        self.environment = environment
        self.systemTimeZone = systemTimeZone
    }

    /// The machine's zone: `$TZ` when it names a zone, else the system's.
    public var local: TimeZoneName {
        if let variable = environment["TZ"], !variable.isEmpty {
            let text = variable.hasPrefix(":") ? String(variable.dropFirst()) : variable
            if let zone = TimeZoneName(text) { return zone.asLocal }
        }
        if systemTimeZone == nil, let name = Self.systemZoneName(), let zone = TimeZoneName(name) {
            return zone.asLocal
        }
        let system = systemTimeZone ?? .current
        return TimeZoneName(identifier: system.identifier, timeZone: system, isLocal: true)
    }

    /// The name of the zone the system is set to: where `/etc/localtime` links into a zoneinfo folder
    /// (`/usr/share/zoneinfo/Europe/London`), else the name in `/etc/timezone` (Debian's); `nil` when
    /// neither says. FoundationEssentials' `TimeZone.current` cannot name that zone without
    /// FoundationInternationalization (it answers GMT), which the command line does not load.
    package static func systemZoneName() -> String? {
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
            let marker = link.firstRange(of: "zoneinfo/")
        {
            let name = String(link[marker.upperBound...])
            if !name.isEmpty { return name }
        }
        guard let data = FileManager.default.contents(atPath: "/etc/timezone") else { return nil }
        let name = String(decoding: data, as: UTF8.self).trimmingWhitespaceAndNewlines()
        return name.isEmpty ? nil : name
    }

    /// A zone by name or offset (``TimeZoneName``), or `local` (any case) for the machine's.
    /// - Throws: ``ValidationError`` for text that names no zone.
    public func parse(_ text: String) throws(ValidationError) -> TimeZoneName {
        if TimeZoneName.trimmed(text).lowercased() == "local" { return local }
        return try TimeZoneName(parsing: text)
    }
}
