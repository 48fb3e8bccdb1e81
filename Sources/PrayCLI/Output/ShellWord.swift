extension String {
    /// This text as one word of a POSIX shell command line, for a command a person is told to run:
    /// as it is when it holds only letters, digits and `_ . / : @ % + = , -` (ASCII), else in single
    /// quotes, each `'` in it written `'\''` (close, an escaped quote, open again). Inside single
    /// quotes a shell expands nothing, so spaces, quotes, `$`, backticks and `!` stay text.
    ///
    /// ```swift
    /// "East London Mosque".shellWord   // 'East London Mosque'
    /// "Masjid Al-Nur".shellWord        // 'Masjid Al-Nur'
    /// "Bait'ul Mukarram".shellWord     // 'Bait'\''ul Mukarram'
    /// ```
    var shellWord: String {
        let plain =
            !isEmpty
            && utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "_./:@%+=,-".utf8.contains(byte)
            }
        if plain { return self }
        return "'" + replacing("'", with: #"'\''"#) + "'"
    }

    /// This text as the value word of a `praykit` command line: ``shellWord``, after `--` when it
    /// begins with `-` (so that `praykit` reads it as a value, not as an option).
    var praykitValueWord: String {
        (hasPrefix("-") ? "-- " : "") + shellWord
    }
}
