/// The calculation method a country's Muslims customarily follow, with why we say so.
///
/// ``table`` is a table of facts, one row per country whose religious authority publishes times by
/// a method of ``CalculationMethod`` (or whose mosques widely follow one). Every other country gets
/// the Muslim World League method. ``madhabHint`` names the Asr school where the Hanafi school is
/// customary; it is advice to show, never applied by itself.
///
/// ```swift
/// let row = CountryMethod.method(forCountry: "pk")
/// print(row.method, row.madhabHint as Any)   // karachi Optional(hanafi)
/// ```
public struct CountryMethod: Hashable, Sendable {
    /// The ISO 3166-1 alpha-2 code, upper-case.
    public let countryCode: String
    /// The method.
    public let method: CalculationMethod
    /// The Asr school customary there when it is not the method's default (Hanafi), else `nil`.
    public let madhabHint: Madhab?
    /// Where the fact comes from.
    public let source: String

    /// Creates a row.
    public init(_ countryCode: String, _ method: CalculationMethod, madhabHint: Madhab? = nil, source: String) {
        self.countryCode = countryCode
        self.method = method
        self.madhabHint = madhabHint
        self.source = source
    }

    /// The method of countries without a row.
    public static let fallback = CalculationMethod.muslimWorldLeague

    /// The row for `code` (any case), or a Muslim World League row when the table has none.
    public static func method(forCountry code: String) -> CountryMethod {
        let code = code.uppercased()
        return byCountry[code]
            ?? CountryMethod(
                code, fallback, source: "no national method in the table: Muslim World League, the widest-used default")
    }

    /// The rows, by country code.
    public static let byCountry: [String: CountryMethod] = Dictionary(
        uniqueKeysWithValues: table.map { ($0.countryCode, $0) })

    // The rows. Sources name the authority that publishes the times and the presets of AlAdhan
    // (api.aladhan.com/v1/methods) and the Adhan libraries, which carry the same parameters.
    // swift-format-ignore
    /// Every country with a method other than the fallback, or with a madhab hint.
    public static let table: [CountryMethod] = [
        CountryMethod("SA", .ummAlQura, source: "Umm al-Qura University, Makkah: the official times and calendar of Saudi Arabia"),
        CountryMethod("EG", .egyptian, source: "Egyptian General Authority of Survey, the times of Egypt's Ministry of Awqaf"),
        CountryMethod("TR", .turkey, source: "Diyanet İşleri Başkanlığı; its published asr is the first (shadow factor 1)"),
        CountryMethod("IR", .tehran, source: "Institute of Geophysics, University of Tehran: Iran's official times"),
        CountryMethod("PK", .karachi, madhabHint: .hanafi, source: "University of Islamic Sciences, Karachi; Hanafi asr customary"),
        CountryMethod("IN", .karachi, madhabHint: .hanafi, source: "University of Islamic Sciences, Karachi, used across South Asia; Hanafi asr customary"),
        CountryMethod("BD", .karachi, madhabHint: .hanafi, source: "University of Islamic Sciences, Karachi (Islamic Foundation Bangladesh uses 18°/18°); Hanafi asr customary"),
        CountryMethod("AF", .karachi, madhabHint: .hanafi, source: "University of Islamic Sciences, Karachi, used in Afghanistan; Hanafi asr customary"),
        CountryMethod("MY", .jakim, source: "Jabatan Kemajuan Islam Malaysia (JAKIM)"),
        CountryMethod("ID", .kemenag, source: "Kementerian Agama Republik Indonesia (Kemenag)"),
        CountryMethod("SG", .singapore, source: "Majlis Ugama Islam Singapura (MUIS)"),
        CountryMethod("KW", .kuwait, source: "Kuwait's Ministry of Awqaf and Islamic Affairs"),
        CountryMethod("QA", .qatar, source: "Qatar's Ministry of Awqaf and Islamic Affairs"),
        CountryMethod("AE", .dubai, source: "The UAE's General Authority of Islamic Affairs and Endowments"),
        CountryMethod("BH", .gulf, source: "Gulf region preset (AlAdhan): fajr 19.5°, isha 90 min, as in the Gulf states"),
        CountryMethod("OM", .gulf, source: "Gulf region preset (AlAdhan): fajr 19.5°, isha 90 min, as in the Gulf states"),
        CountryMethod("MA", .morocco, source: "Morocco's Ministry of Habous and Islamic Affairs"),
        CountryMethod("DZ", .algeria, source: "Algeria's Ministry of Religious Affairs and Wakfs"),
        CountryMethod("TN", .tunisia, source: "Tunisia's Ministry of Religious Affairs"),
        CountryMethod("JO", .jordan, source: "Jordan's Ministry of Awqaf, Islamic Affairs and Holy Places"),
        CountryMethod("RU", .russia, source: "Spiritual Administration of Muslims of Russia"),
        CountryMethod("FR", .franceUOIF, source: "Union des Organisations Islamiques de France (12°); the Grande Mosquée de Paris uses 18° (france-18)"),
        CountryMethod("PT", .portugal, source: "Comunidade Islâmica de Lisboa"),
        CountryMethod("US", .northAmerica, source: "Islamic Society of North America (ISNA)"),
        CountryMethod("CA", .northAmerica, source: "Islamic Society of North America (ISNA), used by Canadian mosques"),
        CountryMethod("GB", .moonsightingCommittee, source: "Moonsighting Committee Worldwide, widely used by UK mosques: its seasonal twilight keeps fajr and isha through summers where 18° is never reached"),
        CountryMethod("UZ", .muslimWorldLeague, madhabHint: .hanafi, source: "Muslim World League; Hanafi asr customary in Central Asia"),
        CountryMethod("KZ", .muslimWorldLeague, madhabHint: .hanafi, source: "Muslim World League; Hanafi asr customary in Central Asia"),
        CountryMethod("KG", .muslimWorldLeague, madhabHint: .hanafi, source: "Muslim World League; Hanafi asr customary in Central Asia"),
        CountryMethod("TJ", .muslimWorldLeague, madhabHint: .hanafi, source: "Muslim World League; Hanafi asr customary in Central Asia"),
        CountryMethod("TM", .muslimWorldLeague, madhabHint: .hanafi, source: "Muslim World League; Hanafi asr customary in Central Asia"),
        CountryMethod("BA", .muslimWorldLeague, madhabHint: .hanafi, source: "Muslim World League; Hanafi asr customary in the Balkans"),
        CountryMethod("AL", .muslimWorldLeague, madhabHint: .hanafi, source: "Muslim World League; Hanafi asr customary in the Balkans"),
        CountryMethod("XK", .muslimWorldLeague, madhabHint: .hanafi, source: "Muslim World League; Hanafi asr customary in the Balkans"),
    ]
}

/// The method a calculation uses and why: given on the command line, saved in the preferences,
/// chosen for the country of the place, or the default.
///
/// ```swift
/// let choice = MethodChoice.forCountry("SA", latitude: 21.4)
/// print(choice.method, choice.source)   // umm-al-qura country:SA
/// ```
public struct MethodChoice: Hashable, Sendable, CustomStringConvertible {
    /// Why this method.
    public enum Source: Hashable, Sendable, CustomStringConvertible {
        /// Given with the request (`--method`).
        case option
        /// Saved in the preferences.
        case saved
        /// Chosen for the country of the place (ISO 3166-1 alpha-2).
        case country(String)
        /// Neither given, saved nor known from a country: the Muslim World League.
        case `default`

        /// `option`, `saved`, `country:SA` or `default`, as in `"methodSource"`.
        public var description: String {
            switch self {
            case .option: "option"
            case .saved: "saved"
            case .country(let code): "country:\(code)"
            case .default: "default"
            }
        }
    }

    /// The method.
    public let method: CalculationMethod
    /// Why this method.
    public let source: Source
    /// The high-latitude rule to suggest: ``HighLatitudeRule/recommended`` above 48° of latitude
    /// when the method was chosen here (not given or saved), else `nil`.
    public let highLatitudeRule: HighLatitudeRule?
    /// The Asr school customary in the country when it differs from the default; a hint to show.
    public let madhabHint: Madhab?
    /// The source note of the country's row, when the method came from the country.
    public let note: String?

    /// Creates a choice.
    public init(
        method: CalculationMethod, source: Source, highLatitudeRule: HighLatitudeRule? = nil,
        madhabHint: Madhab? = nil, note: String? = nil
    ) {
        self.method = method
        self.source = source
        self.highLatitudeRule = highLatitudeRule
        self.madhabHint = madhabHint
        self.note = note
    }

    /// The latitude beyond which a chosen method comes with the recommended high-latitude rule.
    public static let highLatitude = 48.0

    /// The choice for a place in `countryCode` at `latitude` (the Muslim World League and source
    /// ``Source/default`` when the country is unknown).
    public static func forCountry(_ countryCode: String?, latitude: Double) -> MethodChoice {
        let rule: HighLatitudeRule? = abs(latitude) > highLatitude ? .recommended : nil
        guard let countryCode, !countryCode.isEmpty else {
            return MethodChoice(method: CountryMethod.fallback, source: .default, highLatitudeRule: rule)
        }
        let row = CountryMethod.method(forCountry: countryCode)
        return MethodChoice(
            method: row.method, source: .country(row.countryCode), highLatitudeRule: rule,
            madhabHint: row.madhabHint, note: row.source
        )
    }

    /// The parameters of ``method``, with ``highLatitudeRule`` applied when there is one (the
    /// madhab hint is not applied).
    public var parameters: CalculationParameters {
        var parameters = CalculationParameters(method: method)
        if let highLatitudeRule { parameters.highLatitudeRule = highLatitudeRule }
        return parameters
    }

    /// `umm-al-qura (country:SA)`.
    public var description: String { "\(method) (\(source))" }
}
