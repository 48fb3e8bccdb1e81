import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A calculation method as the AlAdhan API numbers, names and defines it (`method=3` is `MWL`, the
/// Muslim World League: fajr 18°, isha 17°), with the place AlAdhan ties it to.
///
/// The times follow AlAdhan's definitions, not PrayKit's presets of the same authorities
/// (`praykit times --method`): a client moved from api.aladhan.com must get the same method. So the
/// angles and intervals are AlAdhan's (islamic-network/prayer-times, `Method::getMethods()`), there are
/// no hidden minute adjustments (the presets carry the Adhan libraries' dhuhr +1 and so on), and times
/// are rounded to the nearest minute. The minutes api.aladhan.com itself adds to a few methods
/// (`PrayerTimesHelper::applyMethodSpecificTuning`: Dubai, Turkey, Morocco, Portugal) are added as it
/// adds them, as `tune` minutes that `meta.offset` shows. One value differs on purpose: JAKIM's fajr is
/// 18°, the authority's rule since November 2019, where AlAdhan still has 20° (see ``source``).
///
/// A class: the methods are made once (``all``) and never change, and every request takes one into its
/// settings, where a struct of four texts, an array and the parameters was copied field by field.
final class AlAdhanMethod: Sendable {
    /// AlAdhan's number: 0–23, or 99 for a custom method.
    let id: Int
    /// AlAdhan's key in `/v1/methods`: `MWL`.
    let code: String
    /// AlAdhan's name: `Muslim World League`.
    let name: String
    /// AlAdhan's place for the method, if it has one.
    let location: (latitude: Double, longitude: Double)?
    /// PrayKit's preset for the same authority (``CalculationMethod/custom`` for 99): the method the
    /// country table names, mapped to this number.
    let preset: CalculationMethod
    /// AlAdhan's definition as calculation parameters, made once.
    let parameters: CalculationParameters
    /// The minutes api.aladhan.com adds to this method, in `tune` order (Imsak, Fajr, Sunrise, Dhuhr,
    /// Asr, Maghrib, Sunset, Isha, Midnight); a request's own non-zero minutes for a time replace them.
    let tune: [Int]
    /// Where the definition comes from, and how it differs from AlAdhan's when it does.
    let source: String

    /// An angle below the horizon, or minutes after the time before.
    private enum Value {
        case angle(Double)
        case minutes(Int)
    }

    /// Every method, in AlAdhan's order of `/v1/methods`.
    static let all: [AlAdhanMethod] = [
        .init(
            3, "MWL", "Muslim World League", (51.5194682, -0.1360365), .muslimWorldLeague, fajr: 18, isha: .angle(17)),
        .init(
            2, "ISNA", "Islamic Society of North America (ISNA)", (39.70421229999999, -86.39943869999999),
            .northAmerica, fajr: 15, isha: .angle(15)),
        .init(
            5, "EGYPT", "Egyptian General Authority of Survey", (30.0444196, 31.2357116), .egyptian, fajr: 19.5,
            isha: .angle(17.5)),
        .init(
            4, "MAKKAH", "Umm Al-Qura University, Makkah", (21.3890824, 39.8579118), .ummAlQura, fajr: 18.5,
            isha: .minutes(90),
            note: " In Ramadan isha is 120 min after maghrib (api.aladhan.com adds 30 min to isha then and shows "
                + "them in meta.offset; here they are in the time)."),
        .init(
            1, "KARACHI", "University of Islamic Sciences, Karachi", (24.8614622, 67.0099388), .karachi, fajr: 18,
            isha: .angle(18)),
        .init(
            7, "TEHRAN", "Institute of Geophysics, University of Tehran", (35.6891975, 51.3889736), .tehran, fajr: 17.7,
            isha: .angle(14), maghrib: .angle(4.5), jafariMidnight: true),
        .init(
            0, "JAFARI", "Shia Ithna-Ashari, Leva Institute, Qum", (34.6415764, 50.8746035), .jafari, fajr: 16,
            isha: .angle(14), maghrib: .angle(4), jafariMidnight: true),
        .init(8, "GULF", "Gulf Region", (24.1323638, 53.3199527), .gulf, fajr: 19.5, isha: .minutes(90)),
        .init(9, "KUWAIT", "Kuwait", (29.375859, 47.9774052), .kuwait, fajr: 18, isha: .angle(17.5)),
        .init(10, "QATAR", "Qatar", (25.2854473, 51.5310398), .qatar, fajr: 18, isha: .minutes(90)),
        .init(
            11, "SINGAPORE", "Majlis Ugama Islam Singapura, Singapore", (1.352083, 103.819836), .singapore, fajr: 20,
            isha: .angle(18)),
        .init(
            12, "FRANCE", "Union Organization Islamic de France", (48.856614, 2.3522219), .franceUOIF, fajr: 12,
            isha: .angle(12)),
        .init(
            13, "TURKEY", "Diyanet İşleri Başkanlığı, Turkey (experimental)", (39.9333635, 32.8597419), .turkey,
            fajr: 18, isha: .angle(17),
            tune: [.sunrise: -7, .dhuhr: 5, .asr: 4, .maghrib: 7, .sunset: 7]),
        .init(
            14, "RUSSIA", "Spiritual Administration of Muslims of Russia", (54.73479099999999, 55.9578555), .russia,
            fajr: 16, isha: .angle(15)),
        .init(
            15, "MOONSIGHTING", "Moonsighting Committee Worldwide (Moonsighting.com)", nil, .moonsightingCommittee,
            fajr: nil, isha: nil,
            note:
                " Fajr and isha are the committee's seasonal curves alone (islamic-network/prayer-times-moonsighting), "
                + "in whole minutes from sunrise and sunset, with no high-latitude rule; PrayKit counts the days from the "
                + "solstice (AlAdhan from 21 December of the same year, a day fewer in leap years)."),
        .init(
            16, "DUBAI", "Dubai (experimental)", (25.0762677, 55.087404), .dubai, fajr: 18.2, isha: .angle(18.2),
            tune: [.dhuhr: 3, .maghrib: 3, .sunset: 3]),
        .init(
            17, "JAKIM", "Jabatan Kemajuan Islam Malaysia (JAKIM)", (3.139003, 101.686855), .jakim, fajr: 18,
            isha: .angle(18),
            note: " Fajr is 18°, JAKIM's rule since the 116th Muzakarah of the National Council for Islamic Religious "
                + "Affairs Malaysia (MKI), 20–21 November 2019, applied by the states from 29 November 2019; "
                + "api.aladhan.com's method 17 still has the former 20° (method=99&methodSettings=20,null,18 gives it)."
        ),
        .init(18, "TUNISIA", "Tunisia", (36.8064948, 10.1815316), .tunisia, fajr: 18, isha: .angle(18)),
        .init(19, "ALGERIA", "Algeria", (36.753768, 3.0587561), .algeria, fajr: 18, isha: .angle(17)),
        .init(
            20, "KEMENAG", "Kementerian Agama Republik Indonesia", (-6.2087634, 106.845599), .kemenag, fajr: 20,
            isha: .angle(18)),
        .init(
            21, "MOROCCO", "Morocco", (33.9715904, -6.8498129), .morocco, fajr: 19, isha: .angle(17),
            tune: [.dhuhr: 5, .maghrib: 5]),
        .init(
            22, "PORTUGAL", "Comunidade Islamica de Lisboa", (38.7222524, -9.1393366), .portugal, fajr: 18,
            isha: .minutes(77), maghrib: .minutes(3),
            tune: [.dhuhr: 5]),
        .init(
            23, "JORDAN", "Ministry of Awqaf, Islamic Affairs and Holy Places, Jordan", (31.9461222, 35.923844),
            .jordan, fajr: 18, isha: .angle(18),
            maghrib: .minutes(5)),
        .init(99, "CUSTOM", "Custom", nil, .custom, fajr: nil, isha: nil),
    ]

    private init(
        _ id: Int, _ code: String, _ name: String, _ location: (Double, Double)?, _ preset: CalculationMethod,
        fajr: Double?, isha: Value?, maghrib: Value? = nil, jafariMidnight: Bool = false, tune: [Prayer: Int] = [:],
        note: String = ""
    ) {
        self.id = id
        self.code = code
        self.name = name
        self.location = location.map { (latitude: $0.0, longitude: $0.1) }
        self.preset = preset
        // AlAdhan's default high-latitude rule is angle based; the request's latitudeAdjustmentMethod
        // replaces it (AlAdhanSettings).
        var parameters = CalculationParameters(method: preset, highLatitudeRule: .twilightAngle)
        parameters.fajrAngle = fajr
        switch isha {
        case .angle(let angle): parameters.ishaAngle = angle
        case .minutes(let minutes): parameters.ishaInterval = minutes
        case nil: break
        }
        switch maghrib {
        case .angle(let angle): parameters.maghribAngle = angle
        case .minutes(let minutes): parameters.maghribInterval = minutes
        case nil: break
        }
        if jafariMidnight { parameters.night = .sunsetToFajr }
        if preset == .moonsightingCommittee {
            // The seasonal curves alone: no angles, and no high-latitude rule (AlAdhan recalculates
            // fajr and isha after its rule, and shows NONE).
            parameters.seasonalTwilight = .general
            parameters.highLatitudeRule = .none
        }
        // The Ramadan rule api.aladhan.com applies to Umm al-Qura (isha +30 min in Ramadan).
        if preset == .ummAlQura { parameters.ramadanIshaInterval = 120 }
        self.parameters = parameters
        self.tune = AlAdhanSettings.tuneOrder.map { tune[$0.prayer] ?? 0 }
        if preset == .custom {
            source =
                "Custom: the angles and intervals of methodSettings=fajr,maghrib,isha (required), as AlAdhan reads them."
        } else {
            let added = AlAdhanSettings.tuneOrder.compactMap { entry -> String? in
                guard let minutes = tune[entry.prayer] else { return nil }
                return "\(entry.key) \(minutes > 0 ? "+" : "")\(minutes)"
            }
            source =
                "AlAdhan's method \(id) (islamic-network/prayer-times Method.php), the authority's parameters with "
                + "no minute adjustments"
                + (added.isEmpty
                    ? "" : "; api.aladhan.com adds \(added.joined(separator: ", ")) min, shown in meta.offset") + "."
                + note + " PrayKit's own preset for the authority is '\(preset.rawValue)' (praykit methods)."
        }
    }

    /// The method AlAdhan numbers `id`.
    static func withID(_ id: Int) -> AlAdhanMethod? {
        guard indexByID.indices.contains(id), let index = indexByID[id] else { return nil }
        return all[index]
    }

    /// The index in ``all`` of each number 0…99 that names a method: an array rather than a
    /// dictionary, as every request that names a method looks it up (hashing the number cost more
    /// than the rest of the lookup).
    private static let indexByID: [Int?] = (0...99).map { id in all.firstIndex { $0.id == id } }

    /// The method for a request that names none: the method of the country's table (`CountryMethod`,
    /// the rule of `praykit times`), by AlAdhan's number; the Muslim World League where the country is
    /// unknown or its method has no number.
    static func forCountry(_ countryCode: String?, latitude: Double) -> AlAdhanMethod {
        let choice = MethodChoice.forCountry(countryCode, latitude: latitude)
        return choice.method.alAdhanID.flatMap(withID) ?? withID(3) ?? all[0]
    }

    /// How PrayKit's arithmetic differs from AlAdhan's, for every method.
    static let calculation =
        "The times are PrayKit's arithmetic with this method's parameters: the sun from NREL SPA (AlAdhan: the "
        + "U.S. Naval Observatory's approximate formula, one pass per time); Asr when the shadow exceeds its noon "
        + "length (declination at transit) by the school's factor, solved with the sun's position at that moment "
        + "(AlAdhan: the position near 13:00); midnight and the night's thirds over the night to the next day's "
        + "sunrise, or fajr (AlAdhan: the same day's, 24 hours on; midnightDay=same gives AlAdhan's). Each can "
        + "move a time by a minute or two."

    /// The method as `meta.method` shows it: `id`, `name`, `params` and `location` (Moonsighting has no
    /// location; the custom method shows only its name and parameters, as AlAdhan does). With
    /// `describe`, as `/v1/methods` shows it: also `source` and `calculation`.
    func json(parameters: CalculationParameters, shafaq: Shafaq?, describe: Bool = false) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if preset != .custom { members.append(("id", .int(id))) }
        members.append(("name", .string(name)))
        members.append(("params", Self.params(parameters, shafaq: shafaq)))
        if let location {
            members.append(
                (
                    "location",
                    .object([("latitude", .double(location.latitude)), ("longitude", .double(location.longitude))])
                )
            )
        }
        if describe {
            members.append(("source", .string(source)))
            members.append(("calculation", .string(Self.calculation)))
        }
        return .object(members)
    }

    /// The parameters AlAdhan shows: `Fajr` and `Isha` as angles (or `"90 min"`), `Maghrib` when it is
    /// not sunset, `Midnight: "JAFARI"` when midnight is measured to fajr; the Moonsighting Committee's
    /// shows its `shafaq`.
    private static func params(_ parameters: CalculationParameters, shafaq: Shafaq?) -> JSONValue {
        if parameters.seasonalTwilight != nil { return .object([("shafaq", .string((shafaq ?? .general).rawValue))]) }
        var members: [(String, JSONValue)] = []
        if let fajr = parameters.fajrAngle { members.append(("Fajr", .number(fajr))) }
        if let interval = parameters.ishaInterval {
            members.append(("Isha", .string("\(interval) min")))
        } else if let isha = parameters.ishaAngle {
            members.append(("Isha", .number(isha)))
        }
        if let angle = parameters.maghribAngle {
            members.append(("Maghrib", .number(angle)))
        } else if let interval = parameters.maghribInterval, interval != 0 {
            members.append(("Maghrib", .string("\(interval) min")))
        }
        if parameters.night == .sunsetToFajr { members.append(("Midnight", .string("JAFARI"))) }
        return .object(members)
    }
}
