import Foundation

/// Clock text in minutes.
enum ClockText {
    /// `05:12` → 312.
    static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 ? parts[0] * 60 + parts[1] : nil
    }
}
