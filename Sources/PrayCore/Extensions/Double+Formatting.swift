#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Double {
    /// The shortest decimal text that reads back as the same number, without a trailing `.0` for
    /// whole numbers: `18` rather than `18.0`, `19.5` stays `19.5`.
    ///
    /// Used in messages and tables where a person reads the number.
    package var formattedCompactly: String {
        if self == rounded(), abs(self) < 1e15 {
            return String(Int64(self))
        }
        return "\(self)"
    }
}

extension Double {
    /// The number with exactly `decimals` digits after the point, rounded as C's `printf("%.*f")`
    /// rounds (the binary value's exact decimal expansion, ties to even): `2026.9166.fixed(2)` is
    /// `"2026.92"`, `-0.001.fixed(2)` is `"-0.00"`, and NaN and the infinities read `nan`, `inf`,
    /// `-inf`. What `String(format: "%.2f", x)` wrote, without full Foundation (the start-up path
    /// uses FoundationEssentials only; docs/performance.md).
    package func fixed(_ decimals: Int) -> String {
        let format = "%." + String(Swift.max(0, decimals)) + "f"
        return withVaList([self]) { arguments in
            var buffer = [CChar](repeating: 0, count: 64)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, arguments))
            guard needed >= buffer.count else {
                return String(decoding: buffer.prefix(needed).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            // Only huge numbers (over 60 digits) get here: write them again into a buffer that fits.
            return withVaList([self]) { again in
                var large = [CChar](repeating: 0, count: needed + 1)
                _ = vsnprintf(&large, large.count, format, again)
                return String(decoding: large.prefix(needed).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
    }
}
