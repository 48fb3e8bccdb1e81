import Foundation
import PrayCore

/// A calculation method as the AlAdhan API numbers and names it (`method=3` is `MWL`, the Muslim World
/// League), with the place AlAdhan ties it to: when a request names no method, AlAdhan picks the one
/// whose place is nearest (Umm al-Qura in Saudi Arabia).
///
/// Numbers, codes, names and places are AlAdhan's (islamic-network/prayer-times `Method::getMethods()`,
/// the `/v1/methods` endpoint); the parameters are PrayKit's presets for the same authorities, which
/// the times follow.
struct AlAdhanMethod: Sendable {
    /// AlAdhan's number: 0–23, or 99 for a custom method.
    let id: Int
    /// AlAdhan's key in `/v1/methods`: `MWL`.
    let code: String
    /// AlAdhan's name: `Muslim World League`.
    let name: String
    /// AlAdhan's place for the method, if it has one.
    let location: (latitude: Double, longitude: Double)?
    /// PrayKit's method; ``CalculationMethod/custom`` for 99.
    let method: CalculationMethod
    /// PrayKit's parameters of ``method``, made once.
    let parameters: CalculationParameters

    /// Every method, in AlAdhan's order of `/v1/methods`.
    static let all: [AlAdhanMethod] = [
        .init(3, "MWL", "Muslim World League", (51.5194682, -0.1360365), .muslimWorldLeague),
        .init(
            2, "ISNA", "Islamic Society of North America (ISNA)", (39.70421229999999, -86.39943869999999), .northAmerica
        ),
        .init(5, "EGYPT", "Egyptian General Authority of Survey", (30.0444196, 31.2357116), .egyptian),
        .init(4, "MAKKAH", "Umm Al-Qura University, Makkah", (21.3890824, 39.8579118), .ummAlQura),
        .init(1, "KARACHI", "University of Islamic Sciences, Karachi", (24.8614622, 67.0099388), .karachi),
        .init(7, "TEHRAN", "Institute of Geophysics, University of Tehran", (35.6891975, 51.3889736), .tehran),
        .init(0, "JAFARI", "Shia Ithna-Ashari, Leva Institute, Qum", (34.6415764, 50.8746035), .jafari),
        .init(8, "GULF", "Gulf Region", (24.1323638, 53.3199527), .gulf),
        .init(9, "KUWAIT", "Kuwait", (29.375859, 47.9774052), .kuwait),
        .init(10, "QATAR", "Qatar", (25.2854473, 51.5310398), .qatar),
        .init(11, "SINGAPORE", "Majlis Ugama Islam Singapura, Singapore", (1.352083, 103.819836), .singapore),
        .init(12, "FRANCE", "Union Organization Islamic de France", (48.856614, 2.3522219), .franceUOIF),
        .init(13, "TURKEY", "Diyanet İşleri Başkanlığı, Turkey (experimental)", (39.9333635, 32.8597419), .turkey),
        .init(
            14, "RUSSIA", "Spiritual Administration of Muslims of Russia", (54.73479099999999, 55.9578555), .russia),
        .init(15, "MOONSIGHTING", "Moonsighting Committee Worldwide (Moonsighting.com)", nil, .moonsightingCommittee),
        .init(16, "DUBAI", "Dubai (experimental)", (25.0762677, 55.087404), .dubai),
        .init(17, "JAKIM", "Jabatan Kemajuan Islam Malaysia (JAKIM)", (3.139003, 101.686855), .jakim),
        .init(18, "TUNISIA", "Tunisia", (36.8064948, 10.1815316), .tunisia),
        .init(19, "ALGERIA", "Algeria", (36.753768, 3.0587561), .algeria),
        .init(20, "KEMENAG", "Kementerian Agama Republik Indonesia", (-6.2087634, 106.845599), .kemenag),
        .init(21, "MOROCCO", "Morocco", (33.9715904, -6.8498129), .morocco),
        .init(22, "PORTUGAL", "Comunidade Islamica de Lisboa", (38.7222524, -9.1393366), .portugal),
        .init(
            23, "JORDAN", "Ministry of Awqaf, Islamic Affairs and Holy Places, Jordan", (31.9461222, 35.923844), .jordan
        ),
        .init(99, "CUSTOM", "Custom", nil, .custom),
    ]

    private init(
        _ id: Int, _ code: String, _ name: String, _ location: (Double, Double)?, _ method: CalculationMethod
    ) {
        self.id = id
        self.code = code
        self.name = name
        self.location = location.map { (latitude: $0.0, longitude: $0.1) }
        self.method = method
        parameters = CalculationParameters(method: method)
    }

    /// The method AlAdhan numbers `id`.
    static func withID(_ id: Int) -> AlAdhanMethod? {
        all.first { $0.id == id }
    }

    /// The method AlAdhan uses when a request names none: Umm al-Qura for Asia/Riyadh, otherwise the
    /// method whose place is nearest on a sphere (Moonsighting and Custom have none).
    static func nearest(to coordinates: Coordinates, zone: TimeZone) -> AlAdhanMethod {
        if zone.identifier == "Asia/Riyadh", let ummAlQura = withID(4) { return ummAlQura }
        var best = all[0]
        var bestDistance = Double.infinity
        for method in all {
            guard let location = method.location else { continue }
            let distance = Coordinates.centralAngle(
                coordinates.latitude, coordinates.longitude, location.latitude, location.longitude)
            if distance < bestDistance { (best, bestDistance) = (method, distance) }
        }
        return best
    }

    /// The method as `/v1/methods` and `meta.method` show it: `id`, `name`, `params` and `location`
    /// (Moonsighting has no location; the custom method shows only its name and parameters, as AlAdhan
    /// does).
    func json(parameters: CalculationParameters, shafaq: Shafaq?) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if method != .custom { members.append(("id", .int(id))) }
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
