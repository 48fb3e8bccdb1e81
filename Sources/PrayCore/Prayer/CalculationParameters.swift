/// Everything that turns the sun's positions into prayer times: twilight angles and intervals, the
/// Asr shadow, high-latitude and polar rules, minute adjustments and rounding.
///
/// Start from a method's preset and change what you need:
///
/// ```swift
/// var parameters = CalculationParameters(method: .muslimWorldLeague)
/// parameters.madhab = .hanafi
/// parameters.highLatitudeRule = .seventhOfTheNight
/// parameters.adjustments[.fajr] = 2
/// ```
///
/// or build a custom method from nothing: `CalculationParameters.custom(fajrAngle: 16, ishaAngle: 14)`.
public struct CalculationParameters: Hashable, Sendable, Codable {
    /// The method these parameters came from; ``CalculationMethod/custom`` when built by hand.
    public var method: CalculationMethod
    /// Fajr when the sun's centre is this many degrees below the horizon; `nil`: no fajr.
    public var fajrAngle: Double?
    /// Isha when the sun's centre is this many degrees below the horizon; ignored when
    /// ``ishaInterval`` is set.
    public var ishaAngle: Double?
    /// Isha this many minutes after maghrib (before adjustments), instead of an angle.
    public var ishaInterval: Int?
    /// Maghrib when the sun's centre is this many degrees below the horizon (Tehran, Jafari,
    /// Kemenag), instead of at sunset.
    public var maghribAngle: Double?
    /// Maghrib this many minutes after sunset (Portugal, Jordan), instead of at sunset.
    public var maghribInterval: Int?
    /// The Asr shadow factor: 1 for ``Madhab/shafi``, 2 for ``Madhab/hanafi``, or any other positive
    /// number.
    public var asrShadowFactor: Double
    /// The high-latitude rule for fajr and isha (and an angle maghrib).
    public var highLatitudeRule: HighLatitudeRule
    /// What to do on days without sunrise or sunset.
    public var polarResolution: PolarResolution
    /// When set, fajr and isha follow the Moonsighting Committee's seasonal curves, isha with this
    /// twilight. Set by the ``CalculationMethod/moonsightingCommittee`` preset, whose ``fajrAngle`` and
    /// ``ishaAngle`` (18°) bound the curves as Adhan does (fajr never earlier than the curve, isha never
    /// later, one seventh of the night from 55° of latitude). Without those angles, fajr and isha are
    /// the curves alone, in whole minutes from sunrise and sunset, as the committee's tables and the
    /// AlAdhan API's method 15 give them.
    public var seasonalTwilight: Shafaq?
    /// Minutes the method itself adds to each time (published with the method, e.g. dhuhr +1).
    public var methodAdjustments: PrayerAdjustments
    /// Minutes the user adds to each time, on top of ``methodAdjustments``.
    public var adjustments: PrayerAdjustments
    /// How times are rounded to the minute.
    public var rounding: Rounding
    /// How imsak is set; 10 minutes before fajr by default.
    public var imsak: Imsak
    /// The night divided by the night times (midnight and thirds).
    public var night: NightMeasure
    /// Isha this many minutes after maghrib during Ramadan (Umm al-Qura: 120), used by services that
    /// know the Hijri month; `nil` when the method has no Ramadan rule.
    public var ramadanIshaInterval: Int?

    /// Creates parameters with every value given; most callers want ``init(method:)`` instead.
    public init(
        method: CalculationMethod = .custom, fajrAngle: Double? = nil, ishaAngle: Double? = nil,
        ishaInterval: Int? = nil, maghribAngle: Double? = nil, maghribInterval: Int? = nil,
        asrShadowFactor: Double = 1, highLatitudeRule: HighLatitudeRule = .none,
        polarResolution: PolarResolution = .unresolved, seasonalTwilight: Shafaq? = nil,
        methodAdjustments: PrayerAdjustments = PrayerAdjustments(),
        adjustments: PrayerAdjustments = PrayerAdjustments(),
        rounding: Rounding = .nearest, imsak: Imsak = .minutesBeforeFajr(10), night: NightMeasure = .sunsetToSunrise,
        ramadanIshaInterval: Int? = nil
    ) {
        self.method = method
        self.fajrAngle = fajrAngle
        self.ishaAngle = ishaAngle
        self.ishaInterval = ishaInterval
        self.maghribAngle = maghribAngle
        self.maghribInterval = maghribInterval
        self.asrShadowFactor = asrShadowFactor
        self.highLatitudeRule = highLatitudeRule
        self.polarResolution = polarResolution
        self.seasonalTwilight = seasonalTwilight
        self.methodAdjustments = methodAdjustments
        self.adjustments = adjustments
        self.rounding = rounding
        self.imsak = imsak
        self.night = night
        self.ramadanIshaInterval = ramadanIshaInterval
    }

    /// The published parameters of `method` (see ``CalculationMethod`` for each one's source).
    public init(method: CalculationMethod) {
        self = method.parameters
    }

    /// Parameters with nothing but the given values: the `custom` method. Times without a parameter
    /// (no fajr angle, say) are unavailable; there is no high-latitude rule unless one is given.
    public static func custom(
        fajrAngle: Double? = nil, ishaAngle: Double? = nil, ishaInterval: Int? = nil, maghribAngle: Double? = nil
    ) -> CalculationParameters {
        CalculationParameters(
            method: .custom, fajrAngle: fajrAngle, ishaAngle: ishaAngle, ishaInterval: ishaInterval,
            maghribAngle: maghribAngle
        )
    }

    /// The madhab whose shadow factor is ``asrShadowFactor``, or `nil` for another factor. Setting it
    /// sets the factor.
    public var madhab: Madhab? {
        get { Madhab.allCases.first { $0.shadowFactor == asrShadowFactor } }
        set { if let newValue { asrShadowFactor = newValue.shadowFactor } }
    }

    /// The method and user adjustments added together.
    public var totalAdjustments: PrayerAdjustments { methodAdjustments + adjustments }

    /// Checks that every value can be used.
    /// - Throws: ``ValidationError`` naming the first value that cannot: an angle outside 0…89°, an
    ///   interval outside 0…1440 minutes, an adjustment (or the method's and the person's together)
    ///   outside ±1440 minutes, a shadow factor outside (0, 10].
    public func validate() throws(ValidationError) {
        // Each value checked by a call, not a loop over an array of them: this runs for every request
        // the server answers, and the arrays were most of its cost.
        func checkAngle(_ name: String, _ angle: Double?) throws(ValidationError) {
            if let angle, !(angle.isFinite && (0...89).contains(angle)) {
                throw .outOfRange(name, angle, 0...89, unit: "degrees")
            }
        }
        try checkAngle("fajr-angle", fajrAngle)
        try checkAngle("isha-angle", ishaAngle)
        try checkAngle("maghrib-angle", maghribAngle)
        switch imsak {
        case .angle(let angle):
            guard angle.isFinite && (0...89).contains(angle) else {
                throw .outOfRange("imsak-angle", angle, 0...89, unit: "degrees")
            }
            if let fajr = fajrAngle, seasonalTwilight == nil, angle < fajr {
                throw ValidationError(
                    field: "imsak-angle",
                    message:
                        "imsak-angle \(angle.formattedCompactly)° is below fajr-angle \(fajr.formattedCompactly)°, "
                        + "so imsak would come after fajr; imsak needs a larger angle"
                )
            }
        case .minutesBeforeFajr(let minutes):
            guard (0...120).contains(minutes) else {
                throw .outOfRange("imsak-minutes", Double(minutes), 0...120, unit: "minutes")
            }
        }
        func checkInterval(_ name: String, _ minutes: Int?) throws(ValidationError) {
            if let minutes, !(0...1440).contains(minutes) {
                throw .outOfRange(name, Double(minutes), 0...1440, unit: "minutes")
            }
        }
        try checkInterval("isha-interval", ishaInterval)
        try checkInterval("maghrib-interval", maghribInterval)
        try checkInterval("ramadan-isha-interval", ramadanIshaInterval)
        // Each time's minutes, the method's and the person's (their sum is what moves it), as the
        // --adjust syntax takes them: ±1440.
        func checkAdjustment(_ name: String, _ prayer: Prayer, _ minutes: Int) throws(ValidationError) {
            guard !(-1440...1440).contains(minutes) else { return }
            throw ValidationError(
                field: name, message: "the adjustment of \(prayer) must be whole minutes within ±1440, got \(minutes)")
        }
        if !methodAdjustments.isEmpty || !adjustments.isEmpty {
            for prayer in Prayer.allCases {
                let (method, own) = (methodAdjustments[prayer], adjustments[prayer])
                try checkAdjustment("method-adjustments", prayer, method)
                try checkAdjustment("adjust", prayer, own)
                try checkAdjustment("adjust", prayer, method + own)
            }
        }
        guard asrShadowFactor.isFinite, asrShadowFactor > 0, asrShadowFactor <= 10 else {
            throw ValidationError(
                field: "asr-shadow-factor",
                message: "the Asr shadow factor must be greater than 0 and at most 10, got \(asrShadowFactor)"
            )
        }
    }
}
