#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Double {
    /// The number with exactly `places` digits after the point, rounded as C's `printf("%.*f")` rounds
    /// (the exact binary value to the nearest, ties to even): `51.50735.fixed(4)` is `"51.5074"`,
    /// `0.5.fixed(0)` is `"0"`. What `String(format: "%.4f", value)` gave, without full Foundation (the
    /// command line uses FoundationEssentials only; docs/performance.md). NaN is `"nan"`, infinity
    /// `"inf"`, as printf writes them.
    package func fixed(_ places: Int) -> String {
        let precision = Int32(Swift.min(Swift.max(places, 0), 40))
        // Room for the 309 digits of the largest double, a sign, the point and the places.
        var buffer = [CChar](repeating: 0, count: 360)
        let written = withVaList([precision, self]) { arguments in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, "%.*f", arguments) }
        }
        guard written > 0 else { return "" }
        return buffer.withUnsafeBufferPointer { pointer in
            String(decoding: UnsafeRawBufferPointer(pointer).prefix(Int(written)), as: UTF8.self)
        }
    }
}
