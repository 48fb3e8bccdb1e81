import Foundation
import PrayCore

// MARK: - Rejections

extension SyncServerRules {
    /// Why a mutation whose stamp names another client than the push's is rejected: a client stamps
    /// its own changes (SYNC.md §2), so a stamp of another client's ID is either a forgery (to tie or
    /// beat another device's write) or an entry carried over from an earlier client ID.
    package static let foreignStamp =
        "the mutation's stamp names another client than this push's clientID: stamp it again with this client's ID"

    /// The reason for a rejection, without the value the mutation carried: the validator's message
    /// with every "got …" cut to `…` and every quoted part cut to `'…'` but one that names the key (the
    /// client's own: it tells which row), then every text of the value that still appears as a word —
    /// every string and number of it, and their words of three characters or more with a letter —
    /// replaced by `…`. A reason goes back to the device and into its list of refused changes: it says
    /// what is wrong, and never repeats a note, a name or a setting's value.
    package static func redactedReason(_ message: String, of mutation: SyncAPI.Mutation) -> String {
        let key = [mutation.key] + mutation.key.split(separator: "/").map(String.init)
        var reason = cutQuotedAndGot(message, keeping: Set(key.map { $0.lowercased() }))
        for text in valueTexts(of: mutation).sorted(by: { $0.count > $1.count }) {
            let pattern = "(?<![\\p{L}\\p{N}])" + NSRegularExpression.escapedPattern(for: text) + "(?![\\p{L}\\p{N}])"
            guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
                continue
            }
            reason = expression.stringByReplacingMatches(
                in: reason, range: NSRange(reason.startIndex..., in: reason), withTemplate: "…")
        }
        return String(reason.prefix(300))
    }

    /// `message` with each `'…'` and `"…"` part (but one whose text, in lower case, is in `kept`), and
    /// each "got " and what follows it up to a comma, a semicolon, a closing parenthesis or the end,
    /// cut to `…`. A quote opens after anything but a letter or a digit and closes before anything but
    /// one, so that an apostrophe (`the place's key`) is left alone.
    package static func cutQuotedAndGot(_ message: String, keeping kept: Set<String> = []) -> String {
        let characters = Array(message)
        var result = ""
        var index = 0
        func isLetter(_ position: Int) -> Bool {
            characters.indices.contains(position) && (characters[position].isLetter || characters[position].isNumber)
        }
        while index < characters.count {
            let character = characters[index]
            if character == "'" || character == "\"", !isLetter(index - 1) {
                // The closing quote: the next one not followed by a letter.
                var close = index + 1
                while close < characters.count, characters[close] != character || isLetter(close + 1) { close += 1 }
                let inside = String(characters[(index + 1)..<min(close, characters.count)])
                let shown = kept.contains(inside.lowercased()) ? inside : "…"
                result += "\(character)\(shown)" + (close < characters.count ? "\(character)" : "")
                index = close + 1
            } else if characters[index...].starts(with: "got "), !isLetter(index - 1) {
                result += "got …"
                index += 4
                while index < characters.count, !",;)".contains(characters[index]) { index += 1 }
            } else {
                result.append(character)
                index += 1
            }
        }
        return result
    }

    /// Every text of a mutation's value, of two characters or more: every string and number of it as
    /// JSON, and the words of each (split at anything but a letter or a digit) of three characters or
    /// more with a letter in them.
    private static func valueTexts(of mutation: SyncAPI.Mutation) -> Set<String> {
        var leaves: Set<String> = []
        if let value = mutation.value, let json = try? value.jsonData(),
            let object = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
        {
            collectLeaves(object, into: &leaves)
        }
        var texts: Set<String> = []
        for leaf in leaves {
            let trimmed = leaf.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.count >= 2 { texts.insert(trimmed) }
            for word in trimmed.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            where word.count >= 3 && word.contains(where: \.isLetter) {
                texts.insert(String(word))
            }
        }
        return texts
    }

    private static func collectLeaves(_ object: Any, into texts: inout Set<String>) {
        switch object {
        case let text as String: texts.insert(text)
        case let number as NSNumber: texts.insert(number.stringValue)
        case let array as [Any]: for item in array { collectLeaves(item, into: &texts) }
        case let dictionary as [String: Any]: for item in dictionary.values { collectLeaves(item, into: &texts) }
        default: break
        }
    }
}
