#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - Limits

extension UserData {
    /// The largest backup file read: 64 MiB. A lifetime of five prayers a day (about 180,000 log
    /// entries) takes about 25 MB, so the limit leaves room while bounding the memory and time an
    /// import can take.
    public static let maximumFileBytes = 64 * 1024 * 1024

    /// The most log entries a backup may hold: 1,000,000 (a lifetime of five prayers a day is about
    /// 180,000).
    public static let maximumLogEntries = 1_000_000

    /// Checks the limits: at most ``maximumLogEntries`` log entries.
    /// - Throws: ``StorageError`` (`invalidData`) saying the limit.
    public func checkLimits() throws(StorageError) {
        guard prayerLog.count <= Self.maximumLogEntries else {
            throw StorageError(
                kind: .invalidData,
                message: "the backup holds \(prayerLog.count) log entries, more than the \(Self.maximumLogEntries) "
                    + "a backup may hold; nothing was changed"
            )
        }
    }

    /// The error for a file larger than ``maximumFileBytes``.
    package static var tooLarge: StorageError {
        StorageError(
            kind: .invalidData,
            message: "the backup is larger than \(maximumFileBytes / 1024 / 1024) MiB, the most a backup may be; "
                + "nothing was changed"
        )
    }
}

// MARK: - Writing

extension UserData {
    /// Writes a backup file a piece at a time while its log entries are read, so that memory does not
    /// grow with the log: the same bytes as ``encoded()`` (sorted keys, two-space indent).
    ///
    /// `read` is given two functions: it calls the first once with everything but the log (the
    /// preferences, the mosques' timetables and details, the prayers to make up, the fasts; its
    /// `prayerLog` is ignored), then the second with each log entry, in order; `write` receives the
    /// text as it is made.
    ///
    /// ```swift
    /// try UserData.write(to: { try output.write($0) }) { rest, entry in
    ///     try backup.exportData(rest: rest, entries: entry)
    /// }
    /// ```
    /// - Throws: What `write` or `read` throws; ``StorageError`` when `read` does not call `rest`
    ///   first, once.
    public static func write(
        to write: (String) throws -> Void,
        reading read: (_ rest: (UserData) throws -> Void, _ entry: (PrayerLogEntry) throws -> Void) throws -> Void
    ) throws {
        var rest: UserData?
        var count = 0
        let misuse = StorageError(kind: .other, message: "a backup's reader gave the log before the rest")
        // `read` runs both functions before it returns, never after: `write` does not escape.
        try withoutActuallyEscaping(write) { write in
            try read(
                { data in
                    guard rest == nil else { throw misuse }
                    rest = data
                    var head = "{\n"
                    // Keys in sorted order, as the encoder writes them; `fasts`, `mosqueDetails`,
                    // `mosques` (and `qada`) only when kept.
                    if let fasts = data.fasts { head += "  \"fasts\" : \(try nested(fasts)),\n" }
                    head += "  \"format\" : \(data.format.jsonStringLiteral),\n"
                    if let details = data.mosqueDetails {
                        head += "  \"mosqueDetails\" : \(try nested(details)),\n"
                    }
                    if let mosques = data.mosques { head += "  \"mosques\" : \(try nested(mosques)),\n" }
                    try write(head + "  \"prayerLog\" : [")
                },
                { entry in
                    guard rest != nil else { throw misuse }
                    try write((count == 0 ? "\n" : ",\n") + entryText(entry))
                    count += 1
                })
        }
        guard let rest else { throw misuse }
        var tail = count == 0 ? "\n\n  ],\n" : "\n  ],\n"
        let values = rest.preferences.storedValues.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        tail += "  \"preferences\" : {\n"
        tail +=
            values.isEmpty
            ? "\n"
            : values.map { "    \($0.key.jsonStringLiteral) : \($0.value.jsonStringLiteral)" }
                .joined(separator: ",\n") + "\n"
        tail += "  },\n"
        if let qada = rest.qada { tail += "  \"qada\" : \(try nested(qada)),\n" }
        // Version 1: the only one `decoded(from:)` reads.
        tail += "  \"version\" : \(rest.version)\n}"
        try write(tail)
    }

    /// A value as the encoder writes it one level down: its lines after the first indented by two
    /// more spaces (blank lines, which the encoder writes inside empty arrays, stay empty).
    private static func nested(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
            index == 0 || line.isEmpty ? String(line) : "  " + line
        }.joined(separator: "\n")
    }

    /// The JSON text of a backup: sorted keys, so the same data always gives the same bytes. Made by
    /// ``write(to:reading:)``.
    /// - Throws: Never in practice; kept for callers written against the encoder.
    public func encoded() throws -> Data {
        var text = ""
        try Self.write(to: { text += $0 }) { rest, entry in
            try rest(self)
            for item in prayerLog { try entry(item) }
        }
        return Data(text.utf8)
    }

    /// One entry of the `prayerLog` array, as the encoder would indent it.
    private static func entryText(_ entry: PrayerLogEntry) -> String {
        "    {\n      \"date\" : \(entry.date.description.jsonStringLiteral),\n"
            + (entry.note.map { "      \"note\" : \($0.jsonStringLiteral),\n" } ?? "")
            + "      \"prayer\" : \(entry.prayer.rawValue.jsonStringLiteral),\n"
            + "      \"recordedAt\" : \(PrayerLogEntry.timestamp(entry.recordedAt).jsonStringLiteral),\n"
            + "      \"status\" : \(entry.status.rawValue.jsonStringLiteral)\n    }"
    }
}
