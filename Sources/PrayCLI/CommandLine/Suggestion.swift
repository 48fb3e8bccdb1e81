import PrayCore

/// "Did you mean …?" for a mistyped command, option, method or zone: the closest candidate within a
/// small edit distance, by PrayCore's rule (``NameSuggestion``), which its files' errors use too.
enum Suggestion {
    /// The candidate nearest to `text` (case-insensitive), if it is close enough to be a typo: at
    /// most one edit for short words, two for words of five letters or more, three from ten.
    static func closest(to text: String, among candidates: [String]) -> String? {
        NameSuggestion.closest(to: text, among: candidates)
    }

    /// `; did you mean 'times'?`, or nothing.
    static func didYouMean(_ text: String, among candidates: [String], quote: (String) -> String = { "'\($0)'" })
        -> String
    {
        closest(to: text, among: candidates).map { "; did you mean \(quote($0))?" } ?? ""
    }
}
