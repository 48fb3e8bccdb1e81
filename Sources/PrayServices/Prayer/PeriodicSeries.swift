#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// The cosines and sines of a set of arguments that each grow by a fixed step per day, advanced from
/// one day to the next by rotation instead of trigonometry.
///
/// cos(x + s) = cos x·cos s − sin x·sin s and sin(x + s) = sin x·cos s + cos x·sin s: two multiplies
/// and an add per value instead of a cosine and a sine. The rounding error of one step is about
/// 1e-16, so thousands of steps stay far below the 1e-8 relative precision of the series they feed.
struct PeriodicSeries {
    private(set) var cosines: [Double]
    private(set) var sines: [Double]
    private var stepCosines: [Double]
    private var stepSines: [Double]
    private var stepsSinceEvaluation = 0

    /// Steps taken by rotation before a series should be evaluated afresh: the rounding drift of
    /// 256 rotations stays far below the algorithm's own precision.
    static let refreshInterval = 256

    /// Evaluates `arguments` (radians) now and prepares to add `steps` (radians) per day.
    init(arguments: [Double], steps: [Double]) {
        cosines = arguments.map { cos($0) }
        sines = arguments.map { sin($0) }
        stepCosines = steps.map { cos($0) }
        stepSines = steps.map { sin($0) }
    }

    /// Moves every argument on by its step. Returns `false` once ``refreshInterval`` steps were
    /// taken since evaluation: the owner then evaluates afresh instead.
    mutating func advance() -> Bool {
        stepsSinceEvaluation += 1
        guard stepsSinceEvaluation < Self.refreshInterval else { return false }
        let count = cosines.count
        cosines.withUnsafeMutableBufferPointer { cosines in
            sines.withUnsafeMutableBufferPointer { sines in
                stepCosines.withUnsafeBufferPointer { stepCosines in
                    stepSines.withUnsafeBufferPointer { stepSines in
                        for i in 0..<count {
                            let c = cosines[i]
                            let s = sines[i]
                            cosines[i] = c * stepCosines[i] - s * stepSines[i]
                            sines[i] = s * stepCosines[i] + c * stepSines[i]
                        }
                    }
                }
            }
        }
        return true
    }
}
