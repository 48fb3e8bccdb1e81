/// `1 day`, `2 days`: a count and its noun, plural unless the count is one (English, as the command
/// line's other words are).
/// - Parameters:
///   - value: The count.
///   - noun: The noun in the singular; the plural adds an `s`.
func counted(_ value: Int, _ noun: String) -> String {
    "\(value) \(noun)\(value == 1 ? "" : "s")"
}

/// `text` cut or filled with spaces to `width` characters, for a column of words in plain text
/// (what `NSString`'s `padding(toLength:withPad:startingAt:)` gave for ASCII labels).
func padded(_ text: String, to width: Int) -> String {
    let cut = text.prefix(width)
    return cut + String(repeating: " ", count: width - cut.count)
}
