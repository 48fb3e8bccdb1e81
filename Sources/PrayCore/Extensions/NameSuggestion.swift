/// "Did you mean …?": the closest of a few known names to a mistyped one, within a small edit
/// distance. The command line's suggestions (commands, options, methods, zones) and the files PrayCore
/// reads (a timetable's column names) use the same rule.
package enum NameSuggestion {
    /// The candidate nearest to `text` (case-insensitive), if it is close enough to be a typo: at
    /// most one edit for short words, two for words of five letters or more, three from ten.
    package static func closest(to text: String, among candidates: [String]) -> String? {
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

    /// The Damerau–Levenshtein (optimal string alignment) distance, stopping early past `limit`.
    package static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
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
