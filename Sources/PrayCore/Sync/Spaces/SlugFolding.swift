// The stdlib's canonical decomposition (`_nfd`) is public behind the `_Unicode` SPI: FoundationEssentials
// has no `decomposedStringWithCanonicalMapping` or `folding(options:locale:)`.
@_spi(_Unicode) import Swift

/// The folding of a mosque's name into its default slug's letters (``SyncRules/defaultSlug(name:space:)``).
enum SlugFolding {
    /// `text` in lower case, without its marks: what Foundation's
    /// `folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()` gave for
    /// every letter a-z and digit of a slug (compared over every Unicode scalar between two letters;
    /// the scalars it removed are removed here, the rest stay and break a word as before).
    static func fold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for original in text.unicodeScalars {
            // Kannada's and Balinese's two-part vowels stayed whole (a word break), not removed as
            // their halves are.
            guard !keptWhole.contains(original.value) else {
                out.append(original)
                continue
            }
            for scalar in String(original)._nfd where !isRemoved(scalar) {
                if let folded = caseFolds[scalar] {
                    out.append(contentsOf: folded.unicodeScalars)
                } else {
                    out.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
                }
            }
        }
        return String(out)
    }

    /// Whether Foundation's diacritic folding removed `scalar`: the combining marks of Unicode 15.1
    /// (the version of its tables), the spacing marks that are the second half of a canonical
    /// decomposition, the zero-width non-joiner, the tag characters, the halfwidth kana voicing marks
    /// and the emoji skin tones.
    private static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark:
            guard let age = scalar.properties.age else { return false }
            return age.major < 15 || (age.major == 15 && age.minor <= 1)
        default:
            switch scalar.value {
            case 0x09BE, 0x09D7, 0x0B3E, 0x0B57, 0x0BBE, 0x0BD7, 0x0CC2, 0x0CD5, 0x0CD6, 0x0D3E, 0x0D57, 0x0DCF,
                0x0DDF, 0x1B35, 0x302E, 0x302F, 0x1133E, 0x11357, 0x114B0, 0x114BD, 0x115AF, 0x1171E, 0x11930,
                0x1D165, 0x1D16E...0x1D172:
                return true
            case 0x200C, 0xFF9E, 0xFF9F, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F:
                return true
            default:
                return false
            }
        }
    }

    private static let keptWhole: Set<UInt32> = [0x0CC0, 0x0CC7, 0x0CC8, 0x0CCA, 0x0CCB, 0x1B3B, 0x1B3D, 0x1B43]

    /// Full case foldings whose letters differ from the lower-case mapping's (Unicode's CaseFolding.txt,
    /// status F, and the long s).
    private static let caseFolds: [Unicode.Scalar: String] = [
        "\u{DF}": "ss", "\u{1E9E}": "ss", "\u{149}": "\u{2BC}n", "\u{17F}": "s", "\u{1E9A}": "a\u{2BE}",
        "\u{FB00}": "ff", "\u{FB01}": "fi", "\u{FB02}": "fl", "\u{FB03}": "ffi", "\u{FB04}": "ffl",
        "\u{FB05}": "st", "\u{FB06}": "st",
    ]
}
