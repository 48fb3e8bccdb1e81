#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The Gauss coefficients of a World Magnetic Model and their secular variation, read from its
/// coefficient file (`WMM.COF`), with the constants of the Legendre recursions computed once.
///
/// Coefficients are stored by the triangular index `n(n+1)/2 + m` (``index(_:_:)``).
struct WMMCoefficients: Sendable {
    /// The model's name without its hyphen: `WMM2025` for the file's `WMM-2025`.
    let name: String
    /// The epoch t₀ of the coefficients, a decimal year.
    let epoch: Double
    /// The release date as the file writes it (`11/13/2024`), if given.
    let releaseDate: String?
    /// The largest degree n (12 for the WMM).
    let degree: Int
    /// gₙᵐ(t₀), nT.
    let g: [Double]
    /// hₙᵐ(t₀), nT.
    let h: [Double]
    /// ġₙᵐ(t₀), nT/year.
    let gRate: [Double]
    /// ḣₙᵐ(t₀), nT/year.
    let hRate: [Double]
    /// (2n − 1)/√(n² − m²): the first factor of the three-term recursion in n (for n > m).
    let recursionFirst: [Double]
    /// √((n − 1)² − m²)/√(n² − m²): the second factor of the three-term recursion in n (for n > m).
    let recursionSecond: [Double]
    /// √((2m − 1)/(2m)): the factor from the sectoral function Pₘ₋₁ᵐ⁻¹ to Pₘᵐ (for m ≥ 2).
    let sectoral: [Double]

    /// The years after its epoch a WMM is published for: each model covers five years.
    static let yearsValid = 5.0

    /// The triangular index of degree `n` and order `m`.
    @inline(__always)
    static func index(_ n: Int, _ m: Int) -> Int {
        n * (n + 1) / 2 + m
    }

    /// What is wrong with a coefficient file.
    struct FileError: Error, CustomStringConvertible {
        /// The line (1-based) and the problem.
        let description: String
    }

    /// Reads a coefficient file: a header line `epoch name release-date`, then one line
    /// `n m g h ġ ḣ` for each degree n ≥ 1 and order 0 ≤ m ≤ n, ended by a line of 9s.
    /// - Throws: ``FileError`` for a malformed header or line, a repeated or missing (n, m), or a file
    ///   without its end.
    init(parsing text: String) throws(FileError) {
        var lines = text.split(whereSeparator: \.isNewline).enumerated().makeIterator()
        guard let (_, header) = lines.next() else { throw FileError(description: "the file is empty") }
        let fields = header.split(whereSeparator: \.isWhitespace)
        guard fields.count >= 2, let epoch = Double(fields[0]), epoch.isFinite else {
            throw FileError(description: "line 1: expected 'epoch name [release date]', got '\(header)'")
        }
        var rows: [(n: Int, m: Int, values: [Double])] = []
        var ended = false
        while let (number, line) = lines.next() {
            if line.trimmingWhitespace().hasPrefix("9999") {
                ended = true
                break
            }
            let parts = line.split(whereSeparator: \.isWhitespace)
            guard parts.count == 6, let n = Int(parts[0]), let m = Int(parts[1]), (1...99).contains(n),
                (0...n).contains(m)
            else { throw FileError(description: "line \(number + 1): expected 'n m g h ġ ḣ', got '\(line)'") }
            let values = parts[2...].compactMap { Double($0) }.filter(\.isFinite)
            guard values.count == 4 else {
                throw FileError(description: "line \(number + 1): a coefficient is not a number: '\(line)'")
            }
            rows.append((n, m, values))
        }
        guard ended else { throw FileError(description: "the file has no end line (9999…)") }
        let degree = rows.map(\.n).max() ?? 0
        guard degree > 0 else { throw FileError(description: "the file has no coefficients") }
        let count = Self.index(degree, degree) + 1
        var seen = [Bool](repeating: false, count: count)
        var table = [[Double]](repeating: [Double](repeating: 0, count: count), count: 4)
        for row in rows {
            let k = Self.index(row.n, row.m)
            guard !seen[k] else { throw FileError(description: "n = \(row.n), m = \(row.m) appears twice") }
            seen[k] = true
            for column in 0..<4 { table[column][k] = row.values[column] }
        }
        // Degree 0 (the monopole) has no coefficient; every other (n, m) must be there.
        if let missing = (1..<count).first(where: { !seen[$0] }) {
            let n = Int(((8 * Double(missing) + 1).squareRoot() - 1) / 2)
            throw FileError(description: "n = \(n), m = \(missing - Self.index(n, 0)) is missing")
        }
        self.init(
            name: String(fields[1].replacing("-", with: "")), epoch: epoch,
            releaseDate: fields.count > 2 ? String(fields[2]) : nil, degree: degree, g: table[0], h: table[1],
            gRate: table[2], hRate: table[3])
    }

    private init(
        name: String, epoch: Double, releaseDate: String?, degree: Int, g: [Double], h: [Double], gRate: [Double],
        hRate: [Double]
    ) {
        self.name = name
        self.epoch = epoch
        self.releaseDate = releaseDate
        self.degree = degree
        self.g = g
        self.h = h
        self.gRate = gRate
        self.hRate = hRate
        var first = [Double](repeating: 0, count: g.count)
        var second = [Double](repeating: 0, count: g.count)
        for n in 1...degree {
            for m in 0..<n {
                let root = Double(n * n - m * m).squareRoot()
                first[Self.index(n, m)] = Double(2 * n - 1) / root
                second[Self.index(n, m)] = Double((n - 1) * (n - 1) - m * m).squareRoot() / root
            }
        }
        recursionFirst = first
        recursionSecond = second
        var sectoral = [Double](repeating: 0, count: degree + 1)
        for m in stride(from: 2, through: degree, by: 1) {
            sectoral[m] = (Double(2 * m - 1) / Double(2 * m)).squareRoot()
        }
        self.sectoral = sectoral
    }

    /// WMM2025, parsed from ``wmm2025File`` on first use.
    static let wmm2025: WMMCoefficients = {
        do {
            return try WMMCoefficients(parsing: wmm2025File)
        } catch {
            // The text is a constant of this module: a failure is a broken build, not a user's input.
            preconditionFailure("the built-in WMM2025 coefficient file does not parse: \(error)")
        }
    }()
}
