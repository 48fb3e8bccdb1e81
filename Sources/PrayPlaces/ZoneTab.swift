import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The tz database's `zone.tab`: the countries that use each zone. Read once per path; a missing or
/// unreadable file gives an empty table (the gazetteer's cities then stand in).
enum ZoneTab {
    private static let cache = Mutex<[String: [String: [String]]]>([:])

    /// The country codes of each zone in the file at `path` (empty for `nil` or a missing file).
    static func countries(path: String?, log: LogManager) -> [String: [String]] {
        guard let path else { return [:] }
        if let cached = cache.withLock({ $0[path] }) { return cached }
        var table: [String: [String]] = [:]
        if let data = FileManager.default.contents(atPath: path) {
            table = data.withUnsafeBytes { parse($0.bindMemory(to: UInt8.self)) }
        } else {
            log.info("No zone.tab; countries of zones come from the gazetteer", metadata: ["file.path": path])
        }
        cache.withLock { $0[path] = table }
        return table
    }

    /// Parses `CC<tab>coordinates<tab>Zone[<tab>comment]` lines; `#` starts a comment line.
    static func parse(_ text: String) -> [String: [String]] {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// Parses the file's bytes (by byte, not by `Character`: this runs at the start of a one-day command).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> [String: [String]] {
        var table: [String: [String]] = [:]
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 10 { end += 1 }
            defer { start = end + 1 }
            guard end > start, bytes[start] != UInt8(ascii: "#") else { continue }
            let fields = UnsafeBufferPointer(rebasing: bytes[start..<end]).split(
                separator: 9, maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count >= 3 else { continue }
            let zone = String(decoding: fields[2], as: UTF8.self)
            for code in fields[0].split(separator: UInt8(ascii: ",")) where code.count == 2 {
                table[zone, default: []].append(String(decoding: code, as: UTF8.self))
            }
        }
        return table
    }
}
