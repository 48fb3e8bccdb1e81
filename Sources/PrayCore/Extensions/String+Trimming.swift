#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension StringProtocol {
    /// The text without white space at either end: the space separators of Unicode (general category
    /// Zs: the space, the no-break space, the ideographic space …) and the tab — what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` removes, without full Foundation (the start-up path and
    /// the server use FoundationEssentials only; docs/performance.md).
    package func trimmingWhitespace() -> String {
        trimmingScalars { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// The text without white space or line ends at either end: ``trimmingWhitespace()``'s characters
    /// and U+000A–U+000D, U+0085, U+2028 and U+2029 — what Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` removes.
    package func trimmingWhitespaceAndNewlines() -> String {
        trimmingScalars { scalar in
            switch scalar.value {
            case 0x09...0x0D, 0x85, 0x2028, 0x2029: true
            default: scalar.properties.generalCategory == .spaceSeparator
            }
        }
    }

    /// The text without line ends at either end: U+000A–U+000D, U+0085, U+2028 and U+2029 — what
    /// Foundation's `trimmingCharacters(in: .newlines)` removes.
    package func trimmingNewlines() -> String {
        trimmingScalars { scalar in
            switch scalar.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
            default: false
            }
        }
    }

    /// The text without the scalars `isTrimmed` accepts at either end.
    private func trimmingScalars(_ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
            let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars[first...last])
        return String(trimmed)
    }
}
