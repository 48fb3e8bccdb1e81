import Foundation
import PrayCore

/// A random number generator that repeats itself: the same seed gives the same numbers on every
/// machine and every run (SplitMix64, Steele, Lea & Flood, OOPSLA 2014), so a randomised test that
/// fails can be run again exactly.
///
/// Tests take their seed from ``seed(default:)``: a fixed one, unless `PRAYKIT_TEST_SEED` names
/// another, and print it with any failure.
///
/// ```swift
/// let seed = SeededGenerator.seed(default: 2026)
/// var random = SeededGenerator(seed: seed)
/// let latitude = Double.random(in: -89...89, using: &random)
/// ```
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var generator: SplitMix64

    /// Creates a generator whose numbers are fixed by `seed`.
    public init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    /// Returns the next 64 random bits.
    public mutating func next() -> UInt64 {
        generator.next()
    }

    /// The seed for a randomised test: `PRAYKIT_TEST_SEED` (decimal, or hexadecimal after `0x`) when
    /// it is set, else `fallback`, so that every run checks the same cases unless asked otherwise.
    public static func seed(default fallback: UInt64) -> UInt64 {
        guard let text = ProcessInfo.processInfo.environment["PRAYKIT_TEST_SEED"] else { return fallback }
        let parsed = text.lowercased().hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        return parsed ?? fallback
    }
}
