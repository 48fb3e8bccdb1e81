extension String {
    /// The text with every control character — C0 and C1 controls and DEL (line breaks and tabs too),
    /// the line and paragraph separators, and the bidirectional embeddings, overrides and isolates —
    /// replaced by U+FFFD: for text from a file or a person (a place name) shown to someone else, so
    /// that it cannot move a terminal's cursor, clear it or reorder what follows.
    package var replacingControlCharacters: String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0.isControlCharacter ? "\u{FFFD}" : $0 }))
    }

    /// The text with every control character (as in `replacingControlCharacters`) written as an
    /// escape — `\n`, `\r`, `\t`, else `\u001B` — so that a line of a log stays one line of plain text
    /// and can still be read back.
    package var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.isControlCharacter) else { return self }
        var text = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.isControlCharacter:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}

extension Unicode.Scalar {
    /// Whether the scalar is a control character in the sense of `String.replacingControlCharacters`.
    fileprivate var isControlCharacter: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
