extension Int {
    /// The number in decimal with leading zeros up to `width` digits: `7.zeroPadded(2)` is `"07"`,
    /// `2026.zeroPadded(4)` is `"2026"`. For dates and clock times in every module of the package.
    package func zeroPadded(_ width: Int) -> String {
        let text = String(self)
        return String(repeating: "0", count: Swift.max(0, width - text.count)) + text
    }
}
