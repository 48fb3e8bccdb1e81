extension Int {
    /// The number in decimal with leading zeros up to `width` digits: `7.zeroPadded(2)` is `"07"`,
    /// `2026.zeroPadded(4)` is `"2026"`. For dates and clock times in every module of the package.
    package func zeroPadded(_ width: Int) -> String {
        guard self >= 0 else {
            let text = String(self)
            return String(repeating: "0", count: Swift.max(0, width - text.count)) + text
        }
        // Written straight into the string's storage: a date or a clock time is several of these, and
        // the server's calendars write thousands.
        var digits = 1
        var rest = self / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let count = Swift.max(digits, width)
        return String(unsafeUninitializedCapacity: count) { buffer in
            var value = self
            var index = count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            } while value > 0
            while index > 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "0")
            }
            return count
        }
    }
}
