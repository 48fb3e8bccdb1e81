/// Reads a number written as plain decimal text — the coordinates of nearly every request — to the
/// same `Double` as `Double(_:)` (the C library's `strtod`), in a few dozen instructions.
///
/// `strtod` reads a coordinate of 17 significant digits (what a program that prints a `Double` sends)
/// with multi-precision arithmetic: about 1,100 instructions, a twentieth of a `/v1/timings` answer.
/// Text of the form `-?digits(.digits)?` with at most 19 significant digits is read here instead:
/// the digits m and the count k of digits after the point give m / 10ᵏ, divided exactly in 128 bits
/// and rounded once to the nearest `Double` (ties to even), as `strtod` rounds. Any other text
/// (exponents, a `+`, `inf`, more digits) is left to `Double(_:)`.
enum DecimalText {
    /// The value of decimal text, as `Double(text)` reads it: digits with a sign, a point and an
    /// exponent (`21.4225`, `-0.5`, `+1e1`), as PHP's `is_numeric` takes them for api.aladhan.com.
    /// `nil` for any other text — `Double(_:)` would also read hexadecimal (`0x10` as 16), `inf` and
    /// `nan`, none of them decimal degrees.
    static func double(_ text: String) -> Double? {
        if let value = fast(text) { return value }
        guard text.utf8.allSatisfy({ decimalBytes.contains($0) }) else { return nil }
        return Double(text)
    }

    /// The bytes of decimal text: digits, the signs, the point and the exponent's letter.
    private static let decimalBytes = Set("0123456789+-.eE".utf8)

    /// The value of plain decimal text, or `nil` for any other shape (which `Double(_:)` then reads).
    static func fast(_ text: String) -> Double? {
        // Over the bytes in place: String's own iterator costs more than the rest of the reading.
        var text = text
        return text.withUTF8(fast)
    }

    /// The value of plain decimal text in UTF-8, or `nil` for any other shape.
    private static func fast(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let negative = text.first == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        var mantissa: UInt64 = 0
        var significant = 0  // digits in the mantissa, leading zeros not counted
        // Reads a run of digits into the mantissa; how many there were. Past 19 significant digits the
        // mantissa wraps, and the text is refused below.
        func digits() -> Int {
            let start = index
            while index < text.count, case let digit = text[index] &- UInt8(ascii: "0"), digit < 10 {
                significant += mantissa != 0 || digit != 0 ? 1 : 0
                mantissa = mantissa &* 10 &+ UInt64(digit)
                index += 1
            }
            return index - start
        }
        guard digits() > 0 else { return nil }
        var fractionDigits = 0
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            fractionDigits = digits()
            guard fractionDigits > 0 else { return nil }
        }
        // All of the text, at most 19 significant digits, at most 19 after the point.
        guard index == text.count, significant <= 19, fractionDigits <= 19 else { return nil }
        let magnitude = mantissa == 0 || fractionDigits == 0 ? Double(mantissa) : quotient(mantissa, fractionDigits)
        return negative ? -magnitude : magnitude
    }

    /// m / 10ᵏ (m > 0, 1 ≤ k ≤ 19) rounded to the nearest `Double`, ties to even.
    private static func quotient(_ m: UInt64, _ k: Int) -> Double {
        let divisor = powersOfTen[k]
        // m shifted to fill 64 bits, then by b − 1 more, where the divisor has b bits: the quotient q
        // of the 128-bit dividend lies in (2⁶², 2⁶⁴), 63 or 64 bits.
        let leading = m.leadingZeroBitCount
        let normalized = m << leading
        let shift = (64 - divisor.leadingZeroBitCount) - 1  // 3…63
        let dividend = (high: normalized >> (64 - shift), low: normalized << shift)
        let (q, remainder) = divisor.dividingFullWidth(dividend)
        // Keep 53 bits of q; the bits below and the remainder decide the rounding.
        let dropped = (64 - q.leadingZeroBitCount) - 53  // 10 or 11
        var significand = q >> dropped
        let rest = q & ((1 << dropped) - 1)
        let half: UInt64 = 1 << (dropped - 1)
        if rest > half || (rest == half && (remainder != 0 || significand & 1 == 1)) { significand += 1 }
        // A carry to 2⁵³ is still exact as a Double.
        return Double(sign: .plus, exponent: dropped - leading - shift, significand: Double(significand))
    }

    /// 10⁰ … 10¹⁹.
    private static let powersOfTen: [UInt64] = (0...19).map { power in
        (0..<power).reduce(1) { value, _ in value * 10 }
    }
}
