import PrayCore

/// The altitudes a calculation asks the sun about, degrees (topocentric, no refraction).
struct EventAltitudes {
    /// Sunrise and sunset: the upper limb on the horizon, −(0.8333° + dip) (DESIGN §5).
    let horizon: Altitude
    private(set) var fajr: Altitude?
    private(set) var isha: Altitude?
    private(set) var maghrib: Altitude?
    private(set) var imsak: Altitude?
    /// The sun risen a spear's length (ishraq in the morning, isfirar in the afternoon), when the
    /// request asks for the extra times by altitude.
    private(set) var risen: Altitude?
    let shadowFactor: Double
    private(set) var solvesSunrise = true
    private(set) var solvesSunset = true
    private(set) var solvesAsr = true

    /// Only what the day before a request's first day gives it: the sunset that begins the night
    /// before fajr.
    var dayBefore: EventAltitudes {
        var altitudes = self
        (altitudes.fajr, altitudes.isha, altitudes.maghrib, altitudes.imsak) = (nil, nil, nil, nil)
        altitudes.risen = nil
        (altitudes.solvesSunrise, altitudes.solvesAsr) = (false, false)
        return altitudes
    }

    /// Only what the day after a request's last day gives it: the sunrise and fajr that end the night
    /// after isha.
    var dayAfter: EventAltitudes {
        var altitudes = self
        (altitudes.isha, altitudes.maghrib, altitudes.imsak, altitudes.risen) = (nil, nil, nil, nil)
        (altitudes.solvesSunset, altitudes.solvesAsr) = (false, false)
        return altitudes
    }

    init(parameters: CalculationParameters, extraTimes: ExtraTimeSettings? = nil, observer: Observer) {
        horizon = Altitude(-(0.8333 + observer.horizonDip))
        fajr = parameters.fajrAngle.map { Altitude(-$0) }
        isha = parameters.ishaInterval == nil ? parameters.ishaAngle.map { Altitude(-$0) } : nil
        maghrib = parameters.maghribAngle.map { Altitude(-$0) }
        if case .angle(let angle) = parameters.imsak { imsak = Altitude(-angle) } else { imsak = nil }
        shadowFactor = parameters.asrShadowFactor
        if case .altitude(let degrees) = extraTimes?.sunRisen { risen = Altitude(degrees) } else { risen = nil }
    }
}

/// The sun's events of one solar day at one place, in Unix seconds: the raw material of a prayer
/// schedule before any rule, adjustment or rounding.
///
/// Each event is stored as a plain `Double`, NaN where the sun does not reach its altitude (the
/// engine never makes a NaN time), and read as an optional (``NaNIsNone``): stored as eleven
/// optionals the value was 177 bytes, copied by a call to `memcpy` a dozen times a day; as 97 it is
/// copied inline.
struct SolarEvents {
    var transit: Double
    @NaNIsNone var sunrise: Double?
    @NaNIsNone var sunset: Double?
    @NaNIsNone var fajr: Double?
    @NaNIsNone var isha: Double?
    @NaNIsNone var maghrib: Double?
    @NaNIsNone var imsak: Double?
    @NaNIsNone var asr: Double?
    /// The sun risen a spear's length in the morning (ishraq) and in the afternoon (isfirar).
    @NaNIsNone var ishraq: Double?
    @NaNIsNone var isfirar: Double?
    /// The altitude Asr needed, or `nil` when the sun stays below the horizon all day.
    @NaNIsNone var asrAltitude: Double?
    /// Set when the events were borrowed from another latitude or day.
    var basis: PolarBasis?

    /// Whether the sun rises and sets (and stands high enough for Asr), so the day needs no polar
    /// resolution.
    var hasSunriseAndSunset: Bool { sunrise != nil && sunset != nil && asr != nil }

    /// Solves every event of `day` for `altitudes`, starting from the offsets of the `previous`
    /// day's events when there is one.
    init(_ day: borrowing SolarDay, _ altitudes: EventAltitudes, previous: SolarEvents? = nil) {
        // Unwrapped once: reading each hint through the optional copied the whole value each time.
        let hints = previous ?? Self.noHints
        let before = hints.transit
        transit = unixSeconds(day.transit)
        sunrise =
            altitudes.solvesSunrise ? Self.solve(day, altitudes.horizon, morning: true, hints.sunrise, before) : nil
        sunset = altitudes.solvesSunset ? Self.solve(day, altitudes.horizon, morning: false, hints.sunset, before) : nil
        fajr = Self.solve(day, altitudes.fajr, morning: true, hints.fajr, before)
        isha = Self.solve(day, altitudes.isha, morning: false, hints.isha, before)
        maghrib = Self.solve(day, altitudes.maghrib, morning: false, hints.maghrib, before)
        imsak = Self.solve(day, altitudes.imsak, morning: true, hints.imsak, before)
        let asrAltitude = altitudes.solvesAsr ? day.asrAltitude(shadowFactor: altitudes.shadowFactor) : nil
        self.asrAltitude = asrAltitude?.degrees
        asr = Self.solve(day, asrAltitude, morning: false, hints.asr, before)
        if altitudes.risen != nil {
            ishraq = Self.solve(day, altitudes.risen, morning: true, hints.ishraq, before)
            isfirar = Self.solve(day, altitudes.risen, morning: false, hints.isfirar, before)
        }
    }

    /// No day before: no hint for any event.
    private init(transit: Double) {
        self.transit = transit
    }

    private static let noHints = SolarEvents(transit: 0)

    /// The event at `altitude`, hinted by the same event (`hint`, Unix seconds) of the day whose
    /// transit was `previousTransit`.
    private static func solve(
        _ day: borrowing SolarDay, _ altitude: Altitude?, morning: Bool, _ hint: Double?, _ previousTransit: Double
    ) -> Double? {
        guard let altitude else { return nil }
        let offset = hint.map { ($0 - previousTransit) / 86400 }
        return day.time(altitude: altitude, morning: morning, hint: offset).map(unixSeconds)
    }

    /// These events moved so that their transit falls at `transit`, marked as borrowed from `basis`.
    func moved(toTransit newTransit: Double, basis: PolarBasis) -> SolarEvents {
        let shift = newTransit - transit
        var moved = self
        moved.transit = newTransit
        for keyPath in [\SolarEvents.sunrise, \.sunset, \.fajr, \.isha, \.maghrib, \.imsak, \.asr, \.ishraq, \.isfirar]
        {
            moved[keyPath: keyPath] = self[keyPath: keyPath].map { $0 + shift }
        }
        moved.basis = basis
        return moved
    }
}

/// Unix seconds for UT days from J2000.0 (2000-01-01T12:00Z is Unix 946728000).
func unixSeconds(_ daysFromJ2000: Double) -> Double {
    (daysFromJ2000 + 10957.5) * 86400
}

/// UT days from J2000.0 for Unix seconds.
func daysFromJ2000(_ unixSeconds: Double) -> Double {
    unixSeconds / 86400 - 10957.5
}

/// An optional `Double` kept in the eight bytes of a `Double`, NaN standing for `nil`: for values
/// that are never NaN, such as the engine's times (an optional `Double` takes 9 bytes, 16 in a struct).
@propertyWrapper
struct NaNIsNone {
    private var value = Double.nan

    init() {}

    init(wrappedValue: Double?) {
        value = wrappedValue ?? .nan
    }

    var wrappedValue: Double? {
        @inline(__always) get { value.isNaN ? nil : value }
        @inline(__always) set { value = newValue ?? .nan }
    }
}
