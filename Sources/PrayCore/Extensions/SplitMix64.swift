/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014):
/// a seeded generator whose numbers are the same on every machine and every run. The one copy of it
/// in the package: the benchmark draws its requests with it, and PrayMocks' `SeededGenerator` wraps it
/// for randomised tests.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose numbers are fixed by `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
