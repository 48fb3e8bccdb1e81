import Foundation
import PrayCore
import Synchronization

/// The tz database's `zone.tab`: the countries that use each zone. Read once per path; a missing or
/// unreadable file gives an empty table (the gazetteer's cities then stand in).
enum ZoneTab {
    private static let cache = Mutex<[String: [String: [String]]]>([:])

    /// The country codes of each zone in the file at `path` (empty for `nil` or a missing file).
    static func countries(path: String?, log: LogManager) -> [String: [String]] {
        guard let path else { return [:] }
        if let cached = cache.withLock({ $0[path] }) { return cached }
        var table: [String: [String]] = [:]
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            table = parse(text)
        } else {
            log.info("No zone.tab; countries of zones come from the gazetteer", metadata: ["file.path": path])
        }
        cache.withLock { $0[path] = table }
        return table
    }

    /// Parses `CC<tab>coordinates<tab>Zone[<tab>comment]` lines; `#` starts a comment line.
    static func parse(_ text: String) -> [String: [String]] {
        var table: [String: [String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3 else { continue }
            for code in fields[0].split(separator: ",") where code.count == 2 {
                table[String(fields[2]), default: []].append(String(code))
            }
        }
        return table
    }
}
