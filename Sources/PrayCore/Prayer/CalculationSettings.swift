#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Calculation settings as a person gives them, each one optional: `nil` means "not given". The
/// command line fills one from its options, an app from its settings screen; ``init(_:)`` reads the
/// saved ``Preferences`` the same way.
///
/// ``resolve(given:saved:country:latitude:)`` is the one rule that turns given values, saved values and the
/// method of the place's country into ``CalculationParameters``:
///
/// - a value given wins; a saved value fills a value not given;
/// - a saved value gives way when the given ones say the same thing another way (a given isha
///   interval over a saved isha angle), and a saved shafaq is ignored unless the method is the
///   Moonsighting Committee's; each ignored value is reported with its reason;
/// - the method is the one given, else the saved one, else the country's (with the recommended
///   high-latitude rule above 48° unless a rule is given or saved), else the Muslim World League;
/// - from 65° of latitude, towards the poles, where the sun stays up or down for days, the polar
///   resolution is `nearest-latitude` unless one is given or saved: the times of the nearest
///   latitude where the sun rises and sets that day (aqrab al-bilad), marked as such, rather than
///   days without maghrib or isha. A person who wants those days unresolved says so
///   (`polar-resolution unresolved`).
///
/// ```swift
/// var given = CalculationSettings()
/// given.madhab = .hanafi
/// let country = MethodChoice.forCountry("PK", latitude: 24.9)
/// let resolved = try CalculationSettings.resolve(given: given, saved: preferences, country: country)
/// print(resolved.method, resolved.parameters.madhab as Any)   // karachi (country:PK) hanafi
/// ```
public struct CalculationSettings: Hashable, Sendable {
    /// The method.
    public var method: CalculationMethod?
    /// The Asr school.
    public var madhab: Madhab?
    /// Fajr's angle, degrees below the horizon.
    public var fajrAngle: Double?
    /// Isha's angle, degrees below the horizon (instead of an interval).
    public var ishaAngle: Double?
    /// Isha's interval, minutes after maghrib (instead of an angle).
    public var ishaInterval: Int?
    /// Maghrib's angle, degrees below the horizon (instead of sunset or an interval).
    public var maghribAngle: Double?
    /// Maghrib's interval, minutes after sunset (instead of an angle).
    public var maghribInterval: Int?
    /// Imsak, minutes before fajr (instead of an angle).
    public var imsakMinutes: Int?
    /// Imsak's angle, degrees below the horizon (instead of minutes).
    public var imsakAngle: Double?
    /// The high-latitude rule.
    public var highLatitudeRule: HighLatitudeRule?
    /// The polar resolution.
    public var polarResolution: PolarResolution?
    /// The Moonsighting Committee's twilight.
    public var shafaq: Shafaq?
    /// The night divided by midnight and the thirds.
    public var night: NightMeasure?
    /// Rounding to the minute.
    public var rounding: Rounding?
    /// Minutes added per time.
    public var adjustments: PrayerAdjustments?

    /// No value given.
    public init() {}

    /// The calculation values saved in `preferences`.
    public init(_ preferences: Preferences) {
        func number(_ key: Preferences.Key) -> Double? { preferences[key].flatMap(Double.init) }
        func integer(_ key: Preferences.Key) -> Int? { preferences[key].flatMap { Int($0) } }
        method = preferences[.method].flatMap { try? CalculationMethod.named($0) }
        madhab = preferences[.madhab].flatMap(Madhab.init(rawValue:))
        fajrAngle = number(.fajrAngle)
        ishaAngle = number(.ishaAngle)
        ishaInterval = integer(.ishaInterval)
        maghribAngle = number(.maghribAngle)
        maghribInterval = integer(.maghribInterval)
        imsakMinutes = integer(.imsakMinutes)
        imsakAngle = number(.imsakAngle)
        highLatitudeRule = preferences[.highLatitudeRule].flatMap(HighLatitudeRule.init(rawValue:))
        polarResolution = preferences[.polarResolution].flatMap(PolarResolution.init(rawValue:))
        shafaq = preferences[.shafaq].flatMap(Shafaq.init(rawValue:))
        night = preferences[.night].flatMap(NightMeasure.init(rawValue:))
        rounding = preferences[.rounding].flatMap(Rounding.init(rawValue:))
        adjustments = preferences[.adjust].flatMap { try? PrayerAdjustments(parsing: $0) }
    }

    /// The pairs of settings that say the same thing two ways: given together they are refused, and a
    /// saved one of a pair gives way to the other given.
    public static let alternatives: [(Preferences.Key, Preferences.Key)] = [
        (.ishaAngle, .ishaInterval), (.imsakMinutes, .imsakAngle), (.maghribAngle, .maghribInterval),
    ]

    /// Whether the setting of `key` has a value (``Preferences/calculationKeys`` only).
    public func isGiven(_ key: Preferences.Key) -> Bool {
        Self.field(key)?.isSet(self) ?? false
    }

    /// Removes the value of `key`.
    public mutating func clear(_ key: Preferences.Key) {
        Self.field(key)?.copy(&self, CalculationSettings())
    }

    /// The keys with a value, in the order of ``Preferences/calculationKeys``.
    public var givenKeys: [Preferences.Key] { Preferences.calculationKeys.filter(isGiven) }
}

// MARK: - Resolution

extension CalculationSettings {
    /// What ``resolve(given:saved:country:latitude:)`` decided: the parameters, the method and why, and the
    /// saved values it ignored.
    public struct Resolution: Hashable, Sendable {
        /// The parameters to calculate with.
        public let parameters: CalculationParameters
        /// The method and why it was chosen.
        public let method: MethodChoice
        /// The saved values not used, each with its reason.
        public let ignored: [Ignored]

        /// Creates a resolution.
        public init(parameters: CalculationParameters, method: MethodChoice, ignored: [Ignored]) {
            self.parameters = parameters
            self.method = method
            self.ignored = ignored
        }
    }

    /// A saved value that ``resolve(given:saved:country:latitude:)`` did not use.
    public struct Ignored: Hashable, Sendable, CustomStringConvertible {
        /// Why it was not used.
        public enum Reason: Hashable, Sendable {
            /// The given values set the same thing another way (this key).
            case givenOtherwise(Preferences.Key)
            /// It applies only to another method than this one.
            case notForMethod(CalculationMethod)
        }

        /// The setting.
        public let key: Preferences.Key
        /// Why.
        public let reason: Reason

        /// Creates a record of an ignored value.
        public init(key: Preferences.Key, reason: Reason) {
            self.key = key
            self.reason = reason
        }

        /// `isha-angle (isha-interval is given)` or `shafaq (it applies only to moonsighting-committee)`.
        public var description: String {
            switch reason {
            case .givenOtherwise(let other): "\(key) (\(other) is given)"
            case .notForMethod: "\(key) (it applies only to \(CalculationMethod.moonsightingCommittee.rawValue))"
            }
        }
    }

    /// From this latitude (north or south) a polar resolution applies when none is given or saved.
    public static let polarLatitude = 65.0

    /// The method by the one rule: the one given, else the saved one, else the country's choice
    /// (``MethodChoice/forCountry(_:latitude:)``), else the Muslim World League.
    public static func methodChoice(
        given: CalculationMethod?, saved: Preferences, country: MethodChoice?
    ) -> MethodChoice {
        if let given { return MethodChoice(method: given, source: .option) }
        if let stored = saved[.method].flatMap({ try? CalculationMethod.named($0) }) {
            return MethodChoice(method: stored, source: .saved)
        }
        return country ?? MethodChoice(method: CountryMethod.fallback, source: .default)
    }

    /// Resolves given values, saved values and the country's method into parameters, by the rule of
    /// the type's documentation.
    /// - Parameters:
    ///   - given: The values given for this calculation.
    ///   - saved: The saved preferences.
    ///   - country: The method chosen for the place's country, when known.
    ///   - latitude: The place's latitude, for the polar resolution from ``polarLatitude``.
    /// - Returns: The parameters, the method and its source, and the saved values ignored.
    /// - Throws: ``ValidationError`` when the given values set one thing two ways, or a value does
    ///   not fit the method (a shafaq given with a method other than the Moonsighting Committee's) or
    ///   is out of range.
    public static func resolve(
        given: CalculationSettings, saved: Preferences, country: MethodChoice? = nil, latitude: Double? = nil
    ) throws(ValidationError) -> Resolution {
        for (first, second) in alternatives where given.isGiven(first) && given.isGiven(second) {
            throw ValidationError(
                field: first.rawValue, message: "\(first) and \(second) say the same thing two ways; give one")
        }
        let stored = CalculationSettings(saved)
        let choice = methodChoice(given: given.method, saved: saved, country: country)
        var chosen = given
        chosen.method = choice.method
        var ignored: [Ignored] = []
        for key in Preferences.calculationKeys where !given.isGiven(key) && stored.isGiven(key) && key != .method {
            let other = alternatives.lazy.compactMap { pair in
                pair.0 == key ? pair.1 : pair.1 == key ? pair.0 : nil
            }.first { given.isGiven($0) }
            if let other {
                ignored.append(Ignored(key: key, reason: .givenOtherwise(other)))
            } else if key == .shafaq, choice.method != .moonsightingCommittee {
                ignored.append(Ignored(key: key, reason: .notForMethod(.moonsightingCommittee)))
            } else {
                chosen.take(key, from: stored)
            }
        }
        if case .country = choice.source, chosen.highLatitudeRule == nil {
            chosen.highLatitudeRule = choice.highLatitudeRule
        }
        if let latitude, abs(latitude) >= polarLatitude, chosen.polarResolution == nil {
            chosen.polarResolution = .nearestLatitude
        }
        return Resolution(parameters: try chosen.parameters(), method: choice, ignored: ignored)
    }

    /// The parameters of these values over the preset of ``method`` (the Muslim World League when
    /// unset). An isha or maghrib angle replaces the method's interval and an interval the angle;
    /// an imsak angle wins over imsak minutes.
    /// - Throws: ``ValidationError`` for a shafaq without the Moonsighting Committee method, or a
    ///   value out of range.
    public func parameters() throws(ValidationError) -> CalculationParameters {
        var parameters = CalculationParameters(method: method ?? .muslimWorldLeague)
        if let madhab { parameters.madhab = madhab }
        if let fajrAngle { parameters.fajrAngle = fajrAngle }
        if let ishaAngle {
            parameters.ishaAngle = ishaAngle
            parameters.ishaInterval = nil
        }
        if let ishaInterval { parameters.ishaInterval = ishaInterval }
        if let maghribAngle {
            parameters.maghribAngle = maghribAngle
            parameters.maghribInterval = nil
        }
        if let maghribInterval {
            parameters.maghribInterval = maghribInterval
            parameters.maghribAngle = nil
        }
        if let imsakMinutes { parameters.imsak = .minutesBeforeFajr(imsakMinutes) }
        if let imsakAngle { parameters.imsak = .angle(imsakAngle) }
        if let highLatitudeRule { parameters.highLatitudeRule = highLatitudeRule }
        if let polarResolution { parameters.polarResolution = polarResolution }
        if let shafaq {
            guard parameters.method == .moonsightingCommittee else {
                throw ValidationError(
                    field: Preferences.Key.shafaq.rawValue,
                    message: "shafaq applies only to the moonsighting-committee method")
            }
            parameters.seasonalTwilight = shafaq
        }
        if let night { parameters.night = night }
        if let rounding { parameters.rounding = rounding }
        if let adjustments { parameters.adjustments = adjustments }
        try parameters.validate()
        return parameters
    }

    /// Copies the value of `key` from `other`.
    private mutating func take(_ key: Preferences.Key, from other: CalculationSettings) {
        Self.field(key)?.copy(&self, other)
    }

    /// Reads and copies one setting, whatever the type of its value.
    private struct Field {
        let isSet: (CalculationSettings) -> Bool
        let copy: (inout CalculationSettings, CalculationSettings) -> Void
    }

    /// The setting of each key (``Preferences/calculationKeys``), `nil` for another key. Closures, not
    /// key paths: a key path is an object whose generic class the runtime instantiates, by mangled
    /// name, the first time — fifteen of them cost a tenth of a millisecond at every start.
    private static func field(_ key: Preferences.Key) -> Field? {
        switch key {
        case .method: Field(isSet: { $0.method != nil }, copy: { $0.method = $1.method })
        case .madhab: Field(isSet: { $0.madhab != nil }, copy: { $0.madhab = $1.madhab })
        case .fajrAngle: Field(isSet: { $0.fajrAngle != nil }, copy: { $0.fajrAngle = $1.fajrAngle })
        case .ishaAngle: Field(isSet: { $0.ishaAngle != nil }, copy: { $0.ishaAngle = $1.ishaAngle })
        case .ishaInterval: Field(isSet: { $0.ishaInterval != nil }, copy: { $0.ishaInterval = $1.ishaInterval })
        case .maghribAngle: Field(isSet: { $0.maghribAngle != nil }, copy: { $0.maghribAngle = $1.maghribAngle })
        case .maghribInterval:
            Field(isSet: { $0.maghribInterval != nil }, copy: { $0.maghribInterval = $1.maghribInterval })
        case .imsakMinutes: Field(isSet: { $0.imsakMinutes != nil }, copy: { $0.imsakMinutes = $1.imsakMinutes })
        case .imsakAngle: Field(isSet: { $0.imsakAngle != nil }, copy: { $0.imsakAngle = $1.imsakAngle })
        case .highLatitudeRule:
            Field(isSet: { $0.highLatitudeRule != nil }, copy: { $0.highLatitudeRule = $1.highLatitudeRule })
        case .polarResolution:
            Field(isSet: { $0.polarResolution != nil }, copy: { $0.polarResolution = $1.polarResolution })
        case .shafaq: Field(isSet: { $0.shafaq != nil }, copy: { $0.shafaq = $1.shafaq })
        case .night: Field(isSet: { $0.night != nil }, copy: { $0.night = $1.night })
        case .rounding: Field(isSet: { $0.rounding != nil }, copy: { $0.rounding = $1.rounding })
        case .adjust: Field(isSet: { $0.adjustments != nil }, copy: { $0.adjustments = $1.adjustments })
        default: nil
        }
    }
}
