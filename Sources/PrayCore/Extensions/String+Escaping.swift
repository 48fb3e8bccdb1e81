extension Unicode.Scalar {
    /// Whether this is a control character that a terminal or a line-based reader may act on: C0
    /// (U+0000–U+001F), DEL (U+007F) or C1 (U+0080–U+009F; U+009B is a terminal's CSI) — or one that
    /// changes how the text around it reads: the line and paragraph separators (U+2028, U+2029), the
    /// bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F,
    /// U+202A–U+202E, U+2066–U+2069), which can make a note or a name display as something else. For
    /// every sink that escapes text from places, files, servers and other devices.
    package var isControlCharacter: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
            true
        default: false
        }
    }
}

extension String {
    /// This text with every control character (``Unicode/Scalar/isControlCharacter``) except those in
    /// `kept` written out: `\n`, `\r` and `\t` by name, any other as `\x` and two hex digits (ESC is
    /// `\x1B`, DEL `\x7F`). With `backslashes`, a backslash is doubled too, so that the result can be
    /// read back without doubt (log lines); without, text that has no control character is returned
    /// as it is (terminal output).
    ///
    /// ```swift
    /// "Makkah\u{1B}[2J".escapingControlCharacters()   // "Makkah\\x1B[2J"
    /// ```
    package func escapingControlCharacters(keeping kept: Set<Unicode.Scalar> = [], backslashes: Bool = false)
        -> String
    {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
            (scalar.isControlCharacter && !kept.contains(scalar)) || (backslashes && scalar == "\\")
        }
        guard mayNeedEscaping(alsoBackslash: backslashes, keeping: kept), unicodeScalars.contains(where: needsEscape)
        else { return self }
        var result = ""
        for scalar in unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value > 0xFF:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\x" + (hex.count < 2 ? "0" : "") + hex
            }
        }
        return result
    }

    /// This text with every control character (``Unicode/Scalar/isControlCharacter``, line breaks,
    /// tabs and bidirectional controls included) replaced by U+FFFD: for text from a file or a person
    /// (a place name) handed on where escapes cannot be read back (a notification, a hook's
    /// environment, a calendar), so that it cannot move a terminal's cursor or reorder what follows.
    package var replacingControlCharacters: String {
        guard mayNeedEscaping(alsoBackslash: false) else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.map { $0.isControlCharacter ? "\u{FFFD}" : $0 }))
    }

    /// This text as a JSON string literal (RFC 8259 §7), quotes included: quote and backslash
    /// escaped; backspace, form feed, newline, carriage return and tab by name; every other control
    /// character (``Unicode/Scalar/isControlCharacter``) as `\u00XX` — DEL and C1 too, which JSON
    /// allows raw but a terminal acts on; `/` and all other text as it is. These are the bytes of
    /// Foundation's `JSONEncoder` (with `.withoutEscapingSlashes`) but for DEL and C1. The one JSON
    /// string writer of the package.
    package var jsonStringLiteral: String {
        guard mayNeedEscaping(alsoBackslash: true, alsoQuote: true) else { return "\"\(self)\"" }
        var result = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\u{8}": result += "\\b"
            case "\u{C}": result += "\\f"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.isControlCharacter:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A quick look at the UTF-8 bytes, for the common case of text with nothing to escape: `false`
    /// when no byte can start a control character (C0 but those `kept`, DEL, C1's lead byte 0xC2, or
    /// the lead bytes 0xD8 and 0xE2 of the Arabic letter mark and of the separators and bidirectional
    /// controls) or be a backslash or quote that is asked for; `true` means "look closer".
    private func mayNeedEscaping(
        alsoBackslash backslash: Bool, alsoQuote quote: Bool = false, keeping kept: Set<Unicode.Scalar> = []
    ) -> Bool {
        func suspicious(_ byte: UInt8) -> Bool {
            (byte < 0x20 && !kept.contains(Unicode.Scalar(byte))) || byte == 0x7F || byte == 0xC2 || byte == 0xD8
                || byte == 0xE2
                || (backslash && byte == 0x5C) || (quote && byte == 0x22)
        }
        // A native string's bytes are contiguous: a plain loop over them, not the generic view.
        let contiguous = utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where suspicious(byte) { return true }
            return false
        }
        return contiguous ?? utf8.contains(where: suspicious)
    }
}
