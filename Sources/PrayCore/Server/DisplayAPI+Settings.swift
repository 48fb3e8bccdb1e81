#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DisplayAPI {
    /// What a mosque (or the screen's own machine) chooses about its screen: how long each phase
    /// around a prayer lasts — each can be switched off — and whether the Hijri date turns at maghrib.
    ///
    /// A mosque space keeps them in its settings (``SyncMosqueSettingsValue/screen``); a screen of a
    /// saved place in the `display` setting (``Preferences/Key/display``), as text:
    ///
    /// ```swift
    /// let settings = try DisplayAPI.Settings(parsing: "adhan=off,silence=2,hijri=maghrib")
    /// settings.phases.adhan          // 0: the adhan phase is switched off
    /// settings.description           // "before-adhan=10,adhan=off,iqama=on,silence=2,…,hijri=maghrib"
    /// ```
    public struct Settings: Hashable, Sendable, CustomStringConvertible {
        /// The phases around each prayer.
        public var phases: Phases
        /// Whether the Hijri date turns at maghrib (the Islamic day begins at sunset) rather than at
        /// midnight.
        public var hijriAtMaghrib: Bool

        /// Creates settings; the defaults suit most mosques.
        public init(phases: Phases = Phases(), hijriAtMaghrib: Bool = false) {
            self.phases = phases
            self.hijriAtMaghrib = hijriAtMaghrib
        }

        /// The longest each phase may last, in minutes, by its name in the text form.
        public static let limits: [(name: String, range: ClosedRange<Int>)] = [
            ("before-adhan", 0...120), ("adhan", 0...15), ("silence", 0...15), ("prayer", 0...60),
            ("jumuah", 0...120), ("after", 0...60),
        ]

        /// The names of the text form, in its order.
        public static let names = ["before-adhan", "adhan", "iqama", "silence", "prayer", "jumuah", "after", "hijri"]

        /// Reads `before-adhan=10,adhan=off,iqama=on,silence=1,prayer=10,jumuah=30,after=5,hijri=maghrib`:
        /// any of the names, each once, in any order; minutes, `off` (0) or `on` (the default minutes)
        /// for a phase that lasts, `on` or `off` for the countdown to iqama, `midnight` or `maghrib` for
        /// the Hijri date. A name left out keeps its value in `base` (the defaults unless given).
        /// - Throws: ``ValidationError`` (field `display`) naming the item and what it accepts.
        public init(parsing text: String, over base: Settings = Settings()) throws(ValidationError) {
            self = base
            var seen = Set<String>()
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                let pair = item.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingWhitespace().lowercased()
                }
                let name = pair.first ?? ""
                guard pair.count == 2, Self.names.contains(name) else {
                    throw Self.error(
                        "'\(item.prefix(40))' must be NAME=VALUE with NAME one of \(Self.names.joined(separator: ", "))"
                    )
                }
                guard seen.insert(name).inserted else { throw Self.error("\(name) is given twice") }
                try set(name, pair[1])
            }
        }

        /// Every name with its value, in the text form's order: what `config get display` shows.
        public var description: String {
            let minutes = phases.minutesByName
            var items: [String] = []
            for name in Self.names {
                switch name {
                case "iqama": items.append("iqama=\(phases.iqama ? "on" : "off")")
                case "hijri": items.append("hijri=\(hijriAtMaghrib ? "maghrib" : "midnight")")
                default:
                    let value = minutes[name] ?? 0
                    items.append("\(name)=\(value == 0 ? "off" : String(value))")
                }
            }
            return items.joined(separator: ",")
        }

        /// Checks every length against ``limits``.
        /// - Throws: ``ValidationError`` (field `display`) for a length out of its range.
        public func validate() throws(ValidationError) {
            let minutes = phases.minutesByName
            for (name, range) in Self.limits {
                let value = minutes[name] ?? 0
                guard range.contains(value) else {
                    throw Self.error(
                        "\(name) lasts \(range.lowerBound) to \(range.upperBound) minutes (or off), got \(value)")
                }
            }
        }

        private mutating func set(_ name: String, _ value: String) throws(ValidationError) {
            switch name {
            case "iqama":
                guard value == "on" || value == "off" else { throw Self.error("iqama is on or off, got '\(value)'") }
                phases.iqama = value == "on"
            case "hijri":
                guard value == "midnight" || value == "maghrib" else {
                    throw Self.error(
                        "hijri is midnight or maghrib (when the Hijri date turns), got '\(value.prefix(20))'")
                }
                hijriAtMaghrib = value == "maghrib"
            default:
                let range = Self.limits.first { $0.name == name }?.range ?? 0...0
                let minutes: Int
                switch value {
                case "off": minutes = 0
                case "on": minutes = Phases().minutesByName[name] ?? 0
                default:
                    guard let number = Int(value), range.contains(number) else {
                        throw Self.error(
                            "\(name) lasts \(range.lowerBound) to \(range.upperBound) minutes, or off or on, "
                                + "got '\(value.prefix(20))'")
                    }
                    minutes = number
                }
                phases.setMinutes(minutes, named: name)
            }
        }

        private static func error(_ message: String) -> ValidationError {
            ValidationError(field: "display", message: "display: " + message)
        }
    }
}

extension DisplayAPI.Settings: Codable {
    private enum CodingKeys: String, CodingKey {
        case beforeAdhan, adhan, iqama, silence, prayer, jumuah, after, hijriAtMaghrib
    }

    /// Decodes `{"beforeAdhan": 10, "adhan": 3, "iqama": true, "silence": 1, "prayer": 10,
    /// "jumuah": 30, "after": 5, "hijriAtMaghrib": false}`; a field left out keeps its default.
    /// - Throws: `DecodingError` for a field of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = DisplayAPI.Phases()
        func minutes(_ key: CodingKeys, _ fallback: Int) throws -> Int {
            try container.decodeIfPresent(Int.self, forKey: key) ?? fallback
        }
        phases = DisplayAPI.Phases(
            beforeAdhan: try minutes(.beforeAdhan, defaults.beforeAdhan), adhan: try minutes(.adhan, defaults.adhan),
            iqama: try container.decodeIfPresent(Bool.self, forKey: .iqama) ?? true,
            silence: try minutes(.silence, defaults.silence), prayer: try minutes(.prayer, defaults.prayer),
            jumuah: try minutes(.jumuah, defaults.jumuah), after: try minutes(.after, defaults.after))
        hijriAtMaghrib = try container.decodeIfPresent(Bool.self, forKey: .hijriAtMaghrib) ?? false
    }

    /// Encodes every field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(phases.beforeAdhan, forKey: .beforeAdhan)
        try container.encode(phases.adhan, forKey: .adhan)
        try container.encode(phases.iqama, forKey: .iqama)
        try container.encode(phases.silence, forKey: .silence)
        try container.encode(phases.prayer, forKey: .prayer)
        try container.encode(phases.jumuah, forKey: .jumuah)
        try container.encode(phases.after, forKey: .after)
        try container.encode(hijriAtMaghrib, forKey: .hijriAtMaghrib)
    }
}

extension DisplayAPI.Phases {
    /// The lengths by their names in the text form (``DisplayAPI/Settings/limits``).
    var minutesByName: [String: Int] {
        [
            "before-adhan": beforeAdhan, "adhan": adhan, "silence": silence, "prayer": prayer, "jumuah": jumuah,
            "after": after,
        ]
    }

    mutating func setMinutes(_ minutes: Int, named name: String) {
        switch name {
        case "before-adhan": beforeAdhan = minutes
        case "adhan": adhan = minutes
        case "silence": silence = minutes
        case "prayer": prayer = minutes
        case "jumuah": jumuah = minutes
        default: after = minutes
        }
    }
}
