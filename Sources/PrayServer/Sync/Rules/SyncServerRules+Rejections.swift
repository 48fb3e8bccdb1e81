import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - Rejections

extension SyncServerRules {
    /// Why a mutation whose stamp names another client than the push's is rejected: a client stamps
    /// its own changes (SYNC.md §2), so a stamp of another client's ID is either a forgery (to tie or
    /// beat another device's write) or an entry carried over from an earlier client ID.
    package static let foreignStamp =
        "the mutation's stamp names another client than this push's clientID: stamp it again with this client's ID"

    /// The reason for a rejection, without the value the mutation carried: the validator's message
    /// with every "got …" cut to `…` and every quoted part cut to `'…'` but one that names the key (the
    /// client's own: it tells which row), then every text of the value that still appears as a word —
    /// every string and number of it, and their words of three characters or more with a letter —
    /// replaced by `…`. A reason goes back to the device and into its list of refused changes: it says
    /// what is wrong, and never repeats a note, a name or a setting's value.
    package static func redactedReason(_ message: String, of mutation: SyncAPI.Mutation) -> String {
        let key = [mutation.key] + mutation.key.split(separator: "/").map(String.init)
        var reason = cutQuotedAndGot(message, keeping: Set(key.map { $0.lowercased() }))
        for text in valueTexts(of: mutation).sorted(by: { $0.count > $1.count }) {
            reason = replacingWord(text, in: reason)
        }
        return String(reason.prefix(300))
    }

    /// `message` with each `'…'` and `"…"` part (but one whose text, in lower case, is in `kept`), and
    /// each "got " and what follows it up to a comma, a semicolon, a closing parenthesis or the end,
    /// cut to `…`. A quote opens after anything but a letter or a digit and closes before anything but
    /// one, so that an apostrophe (`the place's key`) is left alone.
    package static func cutQuotedAndGot(_ message: String, keeping kept: Set<String> = []) -> String {
        let characters = Array(message)
        var result = ""
        var index = 0
        func isLetter(_ position: Int) -> Bool {
            characters.indices.contains(position) && (characters[position].isLetter || characters[position].isNumber)
        }
        while index < characters.count {
            let character = characters[index]
            if character == "'" || character == "\"", !isLetter(index - 1) {
                // The closing quote: the next one not followed by a letter.
                var close = index + 1
                while close < characters.count, characters[close] != character || isLetter(close + 1) { close += 1 }
                let inside = String(characters[(index + 1)..<min(close, characters.count)])
                let shown = kept.contains(inside.lowercased()) ? inside : "…"
                result += "\(character)\(shown)" + (close < characters.count ? "\(character)" : "")
                index = close + 1
            } else if characters[index...].starts(with: "got "), !isLetter(index - 1) {
                result += "got …"
                index += 4
                while index < characters.count, !",;)".contains(characters[index]) { index += 1 }
            } else {
                result.append(character)
                index += 1
            }
        }
        return result
    }

    /// Every text of a mutation's value, of two characters or more: every string and number of it as
    /// JSON, and the words of each (split at anything but a letter or a digit) of three characters or
    /// more with a letter in them.
    private static func valueTexts(of mutation: SyncAPI.Mutation) -> Set<String> {
        var leaves: Set<String> = []
        if let value = mutation.value, let json = try? value.jsonData(), let found = jsonLeaves(Array(json)) {
            leaves = Set(found)
        }
        var texts: Set<String> = []
        for leaf in leaves {
            let trimmed = leaf.trimmingWhitespaceAndNewlines()
            if trimmed.count >= 2 { texts.insert(trimmed) }
            for word in trimmed.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            where word.count >= 3 && word.contains(where: \.isLetter) {
                texts.insert(String(word))
            }
        }
        return texts
    }

    // MARK: Whole words, in any case

    /// `reason` with every place where `text` stands as a whole word — not preceded or followed by a
    /// letter or a digit (Unicode categories L and N) — replaced by `…`, in any case (full case
    /// folding: `ss` stands for `ß`), from the left, one match after another. The matches and the
    /// neighbours are looked at in Unicode scalars of the original reason, as a regular expression
    /// `(?<![\p{L}\p{N}])text(?![\p{L}\p{N}])` with case-insensitive matching finds them.
    static func replacingWord(_ text: String, in reason: String) -> String {
        let wanted = text.unicodeScalars.flatMap(folded)
        guard !wanted.isEmpty else { return reason }
        let scalars = Array(reason.unicodeScalars)
        var result = String.UnicodeScalarView()
        var start = 0
        var copied = 0
        while start < scalars.count {
            if start == 0 || !isWordScalar(scalars[start - 1]),
                let end = matchEnd(of: wanted, in: scalars, from: start),
                end == scalars.count || !isWordScalar(scalars[end])
            {
                result.append(contentsOf: scalars[copied..<start])
                result.append("…")
                copied = end
                start = end
            } else {
                start += 1
            }
        }
        guard copied > 0 else { return reason }
        result.append(contentsOf: scalars[copied...])
        return String(result)
    }

    /// Where a match of the folded `wanted` that begins at `start` ends: the index after the last
    /// scalar whose folding completes it, or `nil` when the folded scalars from `start` differ or
    /// end in the middle of one scalar's folding.
    private static func matchEnd(of wanted: [Unicode.Scalar], in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var matched = 0
        var index = start
        while matched < wanted.count {
            guard index < scalars.count else { return nil }
            for scalar in folded(scalars[index]) {
                guard matched < wanted.count, wanted[matched] == scalar else { return nil }
                matched += 1
            }
            index += 1
        }
        return index
    }

    /// A scalar's full case folding (Unicode's CaseFolding, its C and F mappings): its lower case of
    /// its upper case, twice, so that `ẞ`, `ß` and `SS` all give `ss`, `ς` and `Σ` give `σ`, and `ﬁ`
    /// gives `fi` — but the dotless `ı`, which folds to itself (its upper case `I` folds to `i`).
    private static func folded(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        if scalar.isASCII {
            let value = scalar.value
            return [(0x41...0x5A).contains(value) ? Unicode.Scalar(UInt8(value + 0x20)) : scalar]
        }
        if scalar == "\u{131}" { return [scalar] }
        var text = String(scalar)
        for _ in 0..<2 { text = text.uppercased().lowercased() }
        return Array(text.unicodeScalars)
    }

    /// Whether a scalar is a letter or a digit of any script (`\p{L}` or `\p{N}`), or one that is
    /// the same as a letter in another case: the combining ypogegrammeni (U+0345, which folds to
    /// `ι`), which the case-insensitive set `[\p{L}\p{N}]` takes in too.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\u{345}" { return true }
        return switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber:
            true
        default: false
        }
    }

    // MARK: The leaves of a value's JSON

    /// Every string and number of a JSON text, as `JSONSerialization` gave them to the rules before:
    /// strings unescaped, `true` and `false` as `1` and `0`, whole numbers as written (as `Int64` or
    /// `UInt64`), others as the shortest `Double` that reads back (`1e+16`, `100.0`), or as a decimal
    /// when they have more than 17 characters before an exponent of at most 127 (`12345678901234567000`).
    /// `nil` when the text is not JSON (a comma before a closing bracket is taken, as it was).
    static func jsonLeaves(_ bytes: [UInt8]) -> [String]? {
        var reader = JSONLeafReader(bytes: bytes)
        guard reader.value(depth: 0), reader.atEnd() else { return nil }
        return reader.leaves
    }

    /// The text of a JSON number as `NSNumber`'s `stringValue` gives it after `JSONSerialization`.
    static func jsonNumberText(_ text: String) -> String? {
        let isInteger = !text.contains(".") && !text.contains("e")
        let mantissa = text.prefix { $0 != "e" }
        if isInteger {
            if text.hasPrefix("-") {
                if mantissa.count <= 19, let value = Int64(text) { return String(value) }
            } else if mantissa.count <= 20, let value = UInt64(text) {
                return String(value)
            }
        }
        var exponent = 0
        if let mark = text.firstIndex(of: "e"), let parsed = Int(text[text.index(after: mark)...]) { exponent = parsed }
        if mantissa.count > 17, (-128...127).contains(exponent), let decimal = Decimal(string: text), decimal.isFinite {
            return decimal.description
        }
        guard let value = Double(text), value.isFinite else { return nil }
        return value.description
    }
}

/// Reads a JSON text (RFC 8259) for the strings and numbers in it, in the order they come.
private struct JSONLeafReader {
    let bytes: [UInt8]
    var index = 0
    var leaves: [String] = []

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func atEnd() -> Bool {
        skipSpace()
        return index == bytes.count
    }

    mutating func value(depth: Int) -> Bool {
        skipSpace()
        guard index < bytes.count, depth < 512 else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            guard let text = string() else { return false }
            leaves.append(text)
            return true
        case UInt8(ascii: "{"): return members(depth: depth)
        case UInt8(ascii: "["): return elements(depth: depth)
        case UInt8(ascii: "t"):
            guard literal("true") else { return false }
            leaves.append("1")
            return true
        case UInt8(ascii: "f"):
            guard literal("false") else { return false }
            leaves.append("0")
            return true
        case UInt8(ascii: "n"): return literal("null")
        default:
            guard let text = number(), let shown = SyncServerRules.jsonNumberText(text) else { return false }
            leaves.append(shown)
            return true
        }
    }

    private mutating func members(depth: Int) -> Bool {
        index += 1
        skipSpace()
        if take(UInt8(ascii: "}")) { return true }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), string() != nil else { return false }
            skipSpace()
            guard take(UInt8(ascii: ":")), value(depth: depth + 1) else { return false }
            skipSpace()
            if take(UInt8(ascii: "}")) { return true }
            guard take(UInt8(ascii: ",")) else { return false }
            // JSONSerialization took a comma before the end.
            skipSpace()
            if take(UInt8(ascii: "}")) { return true }
        }
    }

    private mutating func elements(depth: Int) -> Bool {
        index += 1
        skipSpace()
        if take(UInt8(ascii: "]")) { return true }
        while true {
            guard value(depth: depth + 1) else { return false }
            skipSpace()
            if take(UInt8(ascii: "]")) { return true }
            guard take(UInt8(ascii: ",")) else { return false }
            skipSpace()
            if take(UInt8(ascii: "]")) { return true }
        }
    }

    private mutating func string() -> String? {
        index += 1
        return JSONStringText.read(bytes, at: &index)
    }

    /// A number's text, checked against JSON's grammar.
    private mutating func number() -> String? {
        let start = index
        _ = take(UInt8(ascii: "-"))
        if take(UInt8(ascii: "0")) {
            if index < bytes.count, isDigit(bytes[index]) { return nil }
        } else {
            guard digits() else { return nil }
        }
        if take(UInt8(ascii: ".")) {
            guard digits() else { return nil }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() else { return nil }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func digits() -> Bool {
        let start = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        return index > start
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private mutating func literal(_ word: String) -> Bool {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
            return false
        }
        index += expected.count
        return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }
}
