/// "Did you mean …?" for a mistyped command, option, method or zone: the closest candidate within a
/// small edit distance.
enum Suggestion {
    /// The candidate nearest to `text` (case-insensitive), if it is close enough to be a typo: at
    /// most one edit for short words, two for words of five letters or more, three from ten.
    static func closest(to text: String, among candidates: [String]) -> String? {
        let typed = Array(text.lowercased())
        guard !typed.isEmpty else { return nil }
        let allowed = typed.count >= 10 ? 3 : typed.count >= 5 ? 2 : 1
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate.lowercased()), limit: allowed)
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// `; did you mean 'times'?`, or nothing.
    static func didYouMean(_ text: String, among candidates: [String], quote: (String) -> String = { "'\($0)'" })
        -> String
    {
        closest(to: text, among: candidates).map { "; did you mean \(quote($0))?" } ?? ""
    }

    /// The Damerau–Levenshtein (optimal string alignment) distance, stopping early past `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previousRow = Array(0...b.count)
        var beforePrevious = previousRow
        var row = previousRow
        for i in 1...a.count {
            row[0] = i
            var smallest = row[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], beforePrevious[j - 2] + 1)
                }
                smallest = min(smallest, row[j])
            }
            if smallest > limit { return limit + 1 }
            beforePrevious = previousRow
            previousRow = row
        }
        return previousRow[b.count]
    }
}
