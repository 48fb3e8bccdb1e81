extension CalculationMethod {
    /// The method's published parameters, with the defaults PrayKit adds: Shafi'i Asr, the
    /// middle-of-the-night high-latitude rule (none for `custom`), no polar resolution, imsak 10 minutes
    /// before fajr, and rounding to the nearest minute unless the method rounds up.
    public var parameters: CalculationParameters {
        var parameters = CalculationParameters(method: self, highLatitudeRule: .middleOfTheNight)
        switch self {
        case .muslimWorldLeague:
            parameters.set(fajr: 18, isha: 17, adjustments: [.dhuhr: 1])
        case .egyptian:
            parameters.set(fajr: 19.5, isha: 17.5, adjustments: [.dhuhr: 1])
        case .karachi:
            parameters.set(fajr: 18, isha: 18, adjustments: [.dhuhr: 1])
        case .ummAlQura:
            parameters.set(fajr: 18.5, ishaInterval: 90)
            parameters.ramadanIshaInterval = 120
        case .dubai:
            parameters.set(fajr: 18.2, isha: 18.2, adjustments: [.sunrise: -3, .dhuhr: 3, .asr: 3, .maghrib: 3])
        case .moonsightingCommittee:
            parameters.set(fajr: 18, isha: 18, adjustments: [.dhuhr: 5, .maghrib: 3])
            parameters.seasonalTwilight = .general
        case .northAmerica:
            parameters.set(fajr: 15, isha: 15, adjustments: [.dhuhr: 1])
        case .kuwait:
            parameters.set(fajr: 18, isha: 17.5)
        case .qatar:
            parameters.set(fajr: 18, ishaInterval: 90)
        case .singapore:
            parameters.set(fajr: 20, isha: 18, adjustments: [.dhuhr: 1])
            parameters.rounding = .up
        case .tehran:
            parameters.set(fajr: 17.7, isha: 14)
            parameters.maghribAngle = 4.5
            parameters.night = .sunsetToFajr
        case .turkey:
            parameters.set(fajr: 18, isha: 17, adjustments: [.sunrise: -7, .dhuhr: 5, .asr: 4, .maghrib: 7])
        case .gulf:
            parameters.set(fajr: 19.5, ishaInterval: 90)
        case .franceUOIF:
            parameters.set(fajr: 12, isha: 12)
        case .france15:
            parameters.set(fajr: 15, isha: 15)
        case .france18:
            parameters.set(fajr: 18, isha: 18)
        case .russia:
            parameters.set(fajr: 16, isha: 15)
        case .jakim:
            parameters.set(fajr: 18, isha: 18, adjustments: [.sunrise: -1, .dhuhr: 1])
            parameters.rounding = .up
        case .kemenag:
            parameters.set(
                fajr: 20, isha: 18, adjustments: [.fajr: 2, .sunrise: -4, .dhuhr: 3, .asr: 2, .maghrib: 2, .isha: 2]
            )
            parameters.maghribAngle = 1
            parameters.rounding = .up
        case .tunisia:
            parameters.set(fajr: 18, isha: 18)
        case .algeria:
            parameters.set(fajr: 18, isha: 17)
        case .morocco:
            parameters.set(fajr: 19, isha: 17, adjustments: [.sunrise: -3, .dhuhr: 5, .maghrib: 5])
        case .portugal:
            parameters.set(fajr: 18, ishaInterval: 77, adjustments: [.dhuhr: 5])
            parameters.maghribInterval = 3
        case .jordan:
            parameters.set(fajr: 18, isha: 18)
            parameters.maghribInterval = 5
        case .jafari:
            parameters.set(fajr: 16, isha: 14)
            parameters.maghribAngle = 4
            parameters.night = .sunsetToFajr
        case .custom:
            parameters.highLatitudeRule = .none
        }
        return parameters
    }
}

extension CalculationParameters {
    fileprivate mutating func set(
        fajr: Double, isha: Double? = nil, ishaInterval: Int? = nil, adjustments: [Prayer: Int] = [:]
    ) {
        fajrAngle = fajr
        ishaAngle = isha
        self.ishaInterval = ishaInterval
        methodAdjustments = PrayerAdjustments(adjustments)
    }
}
