import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A request the API refuses: the status (400, 404, …) and a sentence for the `data` member.
struct AlAdhanError: Error, Sendable {
    let status: Int
    let message: String

    init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    /// A 400: the request's parameters are wrong.
    init(_ message: String) {
        self.init(400, message)
    }
}

/// The calculation parameters of a prayer-times request, read from the query as AlAdhan reads them:
/// `method` (0–23, 99 with `methodSettings`; absent: the method of the place's country, as `praykit
/// times` chooses it), `school` (0 or 1), `midnightMode` (0 or 1; absent: the method's),
/// `latitudeAdjustmentMethod` (0 none, 1 middle of the night, 2 one seventh, 3 angle based — the
/// default), `tune` (nine minute offsets), `shafaq`, `calendarMethod` and `adjustment` (the Hijri
/// calendar and its day offset) and `iso8601`; and PrayKit's `midnightDay` (`next`, the default, or
/// `same`: AlAdhan's night, to the same day's sunrise or fajr 24 hours on).
///
/// Where AlAdhan silently replaces a value it does not know (`method=6` becomes ISNA, `method=99`
/// without `methodSettings` 15°/15°), this server answers 400 with what it accepts: a wrong number must
/// not give plausible, wrong times.
struct AlAdhanSettings: Sendable {
    var method: AlAdhanMethod
    /// The method's own parameters (the custom method's from `methodSettings`), as `meta.method` shows.
    var methodParameters: CalculationParameters
    /// What the times are calculated with.
    var parameters: CalculationParameters
    /// Minutes added to Imsak, Fajr, Sunrise, Dhuhr, Asr, Maghrib, Sunset, Isha and Midnight, each
    /// moving only its own time: the request's, else the method's (api.aladhan.com's for a few).
    var tune: [Int]
    var shafaq: Shafaq
    var hijriCalendar: HijriCalendar
    var hijriOffset: Int
    var iso8601: Bool
    /// Whether the night of midnight and its thirds ends on the same day's sunrise (or fajr) 24 hours
    /// on, as AlAdhan measures it, instead of the next day's.
    var sameDayNight: Bool

    /// The order of `tune` and `meta.offset`.
    static let tuneOrder: [(key: StaticString, prayer: Prayer)] = [
        ("Imsak", .imsak), ("Fajr", .fajr), ("Sunrise", .sunrise), ("Dhuhr", .dhuhr), ("Asr", .asr),
        ("Maghrib", .maghrib), ("Sunset", .sunset), ("Isha", .isha), ("Midnight", .midnight),
    ]

    /// Reads the settings of `query` for a place.
    /// - Parameter defaultMethod: The method when the query names none (the place's country's).
    /// - Throws: ``AlAdhanError`` (400) for a value that is not one AlAdhan accepts.
    init(_ query: AlAdhanQuery, defaultMethod: () -> AlAdhanMethod) throws(AlAdhanError) {
        if let text = query.given(.method) {
            guard let id = Int(text), let method = AlAdhanMethod.withID(id) else {
                throw AlAdhanError(
                    "Unknown method '\(text)': use 0 to 5, 7 to 23, or 99 with methodSettings (see /v1/methods).")
            }
            self.method = method
        } else {
            method = defaultMethod()
        }
        methodParameters =
            method.preset == .custom
            ? try Self.custom(query.given(.methodSettings)) : method.parameters
        parameters = methodParameters
        shafaq = try Self.choice(query, .shafaq, Self.shafaqChoices) ?? .general
        parameters.madhab = try Self.choice(query, .school, Self.schoolChoices) ?? .shafi
        if let night = try Self.choice(query, .midnightMode, Self.midnightModeChoices) {
            parameters.night = night
        }
        // The method's rule is AlAdhan's default (angle based); the Moonsighting Committee's seasonal
        // curves need none, and AlAdhan ignores one given for them.
        if let rule = try Self.choice(query, .latitudeAdjustmentMethod, Self.ruleChoices),
            parameters.seasonalTwilight == nil
        {
            parameters.highLatitudeRule = rule
        }
        if parameters.seasonalTwilight != nil { parameters.seasonalTwilight = shafaq }
        // A request's own minutes for a time replace the method's (api.aladhan.com's rule for Turkey,
        // here for every method it adds minutes to); without `tune`, the method's minutes as they are.
        if let text = query.given(.tune) {
            tune = zip(try Self.tune(text), method.tune).map { $0 != 0 ? $0 : $1 }
        } else {
            tune = method.tune
        }
        (hijriCalendar, hijriOffset) = try Self.hijri(query)
        iso8601 = query[.iso8601] == "true"
        sameDayNight = try Self.choice(query, .midnightDay, Self.midnightDayChoices) ?? false
    }

    // The values each parameter accepts, made once rather than on every request.
    private static let shafaqChoices = Shafaq.allCases.map { ($0.rawValue, $0) }
    private static let schoolChoices: [(String, Madhab)] = [("0", .shafi), ("1", .hanafi)]
    private static let midnightModeChoices: [(String, NightMeasure)] = [("0", .sunsetToSunrise), ("1", .sunsetToFajr)]
    private static let ruleChoices: [(String, HighLatitudeRule)] = [
        ("0", .none), ("1", .middleOfTheNight), ("2", .seventhOfTheNight), ("3", .twilightAngle),
    ]
    private static let midnightDayChoices = [("next", false), ("same", true)]
    private static let calendarChoices: [(String, HijriCalendar)] = [
        ("HJCoSA", .ummAlQura), ("UAQ", .ummAlQura), ("DIYANET", .ummAlQura), ("MATHEMATICAL", .civil),
    ]

    /// The Hijri calendar of `calendarMethod` (HJCoSA, the default, UAQ and DIYANET are served by the
    /// Umm al-Qura table; MATHEMATICAL by the tabular calendar) and the day offset of `adjustment`.
    /// - Throws: ``AlAdhanError`` for another calendar or an offset outside −2…2.
    static func hijri(_ query: AlAdhanQuery) throws(AlAdhanError) -> (HijriCalendar, Int) {
        let calendar = try choice(query, .calendarMethod, calendarChoices) ?? .ummAlQura
        guard let text = query.given(.adjustment) else { return (calendar, 0) }
        guard let days = Int(text), HijriAPI.offsets.contains(days) else {
            throw AlAdhanError("adjustment must be a whole number of days from -2 to 2, got '\(text)'.")
        }
        return (calendar, days)
    }

    /// The value of `name` among `choices`, or `nil` when absent.
    /// - Throws: ``AlAdhanError`` listing the choices for any other value.
    private static func choice<Value>(
        _ query: AlAdhanQuery, _ name: AlAdhanQuery.Name, _ choices: [(String, Value)]
    ) throws(AlAdhanError) -> Value? {
        guard let text = query.given(name) else { return nil }
        let lowered = text.lowercased()
        if let match = choices.first(where: { $0.0.lowercased() == lowered }) { return match.1 }
        throw AlAdhanError("\(name) must be one of \(choices.map(\.0).joined(separator: ", ")), got '\(text)'.")
    }

    /// Nine comma-separated whole minutes; missing trailing values are 0, as in AlAdhan.
    /// - Throws: ``AlAdhanError`` for more than nine values or one that is not whole minutes within ±1440.
    static func tune(_ text: String?) throws(AlAdhanError) -> [Int] {
        var minutes = Array(repeating: 0, count: 9)
        guard let text else { return minutes }
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        guard items.count <= 9 else {
            throw AlAdhanError(
                "tune takes at most 9 comma-separated minutes (Imsak,Fajr,Sunrise,Dhuhr,Asr,Maghrib,Sunset,Isha,"
                    + "Midnight), got \(items.count).")
        }
        for (index, item) in items.enumerated() {
            let value = String(item).trimmedOfSpaces
            if value.isEmpty { continue }
            guard let number = Int(value), (-1440...1440).contains(number) else {
                throw AlAdhanError("tune values must be whole minutes within ±1440, got '\(value)'.")
            }
            minutes[index] = number
        }
        return minutes
    }

    /// The custom method (99) of `methodSettings`: `fajr,maghrib,isha`, each an angle, `N min` (maghrib
    /// after sunset, isha after maghrib) or `null`; like AlAdhan, a fajr or isha left `null` is 15°.
    /// - Throws: ``AlAdhanError`` for a value that is neither, and when `methodSettings` is absent or
    ///   names nothing (AlAdhan then silently uses 15° and 15°; `praykit times --method custom` likewise
    ///   needs the rules given).
    static func custom(_ text: String?) throws(AlAdhanError) -> CalculationParameters {
        var parameters = CalculationParameters(method: .custom)
        parameters.highLatitudeRule = .twilightAngle
        parameters.fajrAngle = 15
        parameters.ishaAngle = 15
        let items = (text ?? "").split(separator: ",", omittingEmptySubsequences: false).map {
            String($0).trimmedOfSpaces
        }
        guard items.contains(where: { !["", "null", "0"].contains($0.lowercased()) }) else {
            throw AlAdhanError(
                "method=99 (custom) needs methodSettings=fajr,maghrib,isha, such as 18.5,null,17.5 or 18,null,90 min.")
        }
        guard items.count <= 3 else {
            throw AlAdhanError("methodSettings takes three values, fajr,maghrib,isha (such as 18.5,null,17.5).")
        }
        for (index, item) in items.enumerated() {
            guard !["", "null", "0"].contains(item.lowercased()) else { continue }
            let minutes = item.lowercased().hasSuffix("min") ? Int(String(item.dropLast(3)).trimmedOfSpaces) : nil
            let angle = minutes == nil ? DecimalText.double(item) : nil
            switch (index, angle, minutes) {
            case (0, let angle?, nil): parameters.fajrAngle = angle
            case (1, let angle?, nil): parameters.maghribAngle = angle
            case (1, nil, let minutes?): parameters.maghribInterval = minutes
            case (2, let angle?, nil): parameters.ishaAngle = angle
            case (2, nil, let minutes?): (parameters.ishaAngle, parameters.ishaInterval) = (nil, minutes)
            default:
                throw AlAdhanError(
                    "methodSettings value '\(item)' must be an angle such as 18.5"
                        + (index == 0 ? "" : " or minutes such as '90 min'") + ".")
            }
        }
        return parameters
    }

    // MARK: - Meta

    /// `meta.latitudeAdjustmentMethod`: `NONE`, `MIDDLE_OF_THE_NIGHT`, `ONE_SEVENTH` or `ANGLE_BASED`
    /// (`NONE` for the seasonal curves, as AlAdhan shows them).
    func latitudeAdjustmentName(latitude: Double) -> StaticString {
        if parameters.seasonalTwilight != nil { return "NONE" }
        return switch parameters.highLatitudeRule.resolved(latitude: latitude) {
        case .none: "NONE"
        case .middleOfTheNight: "MIDDLE_OF_THE_NIGHT"
        case .seventhOfTheNight: "ONE_SEVENTH"
        case .twilightAngle, .recommended: "ANGLE_BASED"
        }
    }

    /// `meta.method`: rendered once per preset method and shafaq, and for each custom method.
    private var methodJSON: [UInt8] {
        guard method.preset != .custom else {
            return method.json(parameters: methodParameters, shafaq: shafaq).renderedBytes
        }
        let index = method.id * Self.shafaqs.count + (Self.shafaqs.firstIndex(of: shafaq) ?? 0)
        return Self.presetMethods[index]
    }

    /// `Shafaq.allCases`, made once: the synthesized property makes a new array at each use.
    private static let shafaqs = Shafaq.allCases

    /// The rendered `meta.method` of every preset method (by AlAdhan number) and shafaq.
    private static let presetMethods: [[UInt8]] = (0..<(24 * shafaqs.count)).map { index in
        let id = index / shafaqs.count
        let shafaq = shafaqs[index % shafaqs.count]
        guard let method = AlAdhanMethod.withID(id), method.preset != .custom else { return Array("null".utf8) }
        return method.json(parameters: method.parameters, shafaq: shafaq).renderedBytes
    }

    /// The `meta` object.
    func meta(coordinates: Coordinates, zoneName: String) -> JSONValue {
        .written { writeMeta(coordinates: coordinates, zoneName: zoneName, to: &$0) }
    }

    /// Writes the `meta` object.
    func writeMeta(coordinates: Coordinates, zoneName: String, to json: inout JSONWriter) {
        json.value { text in
            text.text(#"{"latitude":"#)
            text.decimal(coordinates.latitude)
            text.text(#","longitude":"#)
            text.decimal(coordinates.longitude)
            text.text(#","timezone":"#)
            text.quotedText(zoneName)
            text.text(#","method":"#)
            text.text(methodJSON)
            text.text(#","latitudeAdjustmentMethod":""#)
            text.text(latitudeAdjustmentName(latitude: coordinates.latitude))
            text.text(#"","midnightMode":"#)
            text.text(parameters.night == .sunsetToFajr ? #""JAFARI""# : #""STANDARD""#)
            text.text(#","school":"#)
            text.text(parameters.madhab == .hanafi ? #""HANAFI""# : #""STANDARD""#)
            text.text(#","offset":"#)
            // Most requests send no `tune`: their minutes are the method's, written once for each method.
            if tune == method.tune {
                text.text(Self.methodOffsets[method.id])
            } else {
                Self.writeOffset(tune, to: &text)
            }
            text.text("}")
        }
    }

    /// Writes `meta.offset` of `tune`: `{"Imsak":0,"Fajr":0,…,"Midnight":0}`.
    private static func writeOffset(_ tune: [Int], to text: inout JSONWriter) {
        for (index, (name, minutes)) in zip(tuneOrder, tune).enumerated() {
            text.text(index == 0 ? "{\"" : ",\"")
            text.text(name.key)
            text.text("\":")
            text.digits(minutes)
        }
        text.text("}")
    }

    /// The `meta.offset` of each method's own minutes, by AlAdhan number (0…99; empty for a number that
    /// names no method).
    private static let methodOffsets: [[UInt8]] = (0...99).map { id in
        guard let method = AlAdhanMethod.withID(id) else { return [] }
        var json = JSONWriter(capacity: 128)
        json.value { writeOffset(method.tune, to: &$0) }
        return json.bytes
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs (cheaper than `trimmingCharacters(in:)`,
    /// which goes through `NSString`).
    var trimmedOfSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        // Most values have no space at either end: their first and last bytes say so, read in place
        // (the view's `first` and `last` cost more than the rest of a request's parameter).
        let plain = utf8.withContiguousStorageIfAvailable { bytes in
            guard let first = bytes.first, let last = bytes.last else { return false }
            return first != 32 && first != 9 && last != 32 && last != 9
        }
        if plain == true { return self }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        if first == startIndex, last == index(before: endIndex) { return self }
        return String(self[first...last])
    }
}
