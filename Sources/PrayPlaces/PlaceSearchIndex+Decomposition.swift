// The stdlib's canonical decomposition (`_nfd`) is public behind the `_Unicode` SPI: FoundationEssentials
// has no `decomposedStringWithCompatibilityMapping`.
@_spi(_Unicode) import Swift

extension PlaceSearchIndex {
    /// The text's compatibility decomposition (NFKD), as Foundation's
    /// `decomposedStringWithCompatibilityMapping` and Python's `unicodedata.normalize("NFKD")` (the
    /// generator's folding) give it: each scalar's compatibility decomposition
    /// (``compatibilityDecompositions``), then the canonical decomposition and order of marks.
    static func compatibilityDecomposed(_ text: String) -> String.UnicodeScalarView {
        var mapped = String.UnicodeScalarView()
        var changed = false
        for scalar in text.unicodeScalars {
            if !scalar.isASCII, let decomposition = compatibilityDecompositions[scalar.value] {
                mapped.append(contentsOf: decomposition)
                changed = true
            } else {
                mapped.append(scalar)
            }
        }
        var decomposed = String.UnicodeScalarView()
        decomposed.append(contentsOf: (changed ? String(mapped) : text)._nfd)
        return decomposed
    }

    /// The embedded table of compatibility decompositions (`data/compatibility.txt` of CPrayPlacesData),
    /// read once, on the first query that needs it.
    static let compatibilityDecompositions: [UInt32: [Unicode.Scalar]] = {
        var table: [UInt32: [Unicode.Scalar]] = [:]
        table.reserveCapacity(4096)
        for line in EmbeddedData.compatibilityDecompositions.bytes.split(separator: UInt8(ascii: "\n")) {
            let values = line.split(separator: UInt8(ascii: " ")).compactMap {
                UInt32(String(decoding: $0, as: UTF8.self), radix: 16)
            }
            guard let key = values.first else { continue }
            table[key] = values.dropFirst().compactMap(Unicode.Scalar.init)
        }
        return table
    }()
}
