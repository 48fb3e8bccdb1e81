import Foundation

extension Preferences {
    /// The keys that shape the calculation, in the order they are applied.
    public static let calculationKeys: [Key] = [
        .method, .madhab, .fajrAngle, .ishaAngle, .ishaInterval, .maghribAngle, .maghribInterval, .imsakMinutes,
        .imsakAngle, .highLatitudeRule, .polarResolution, .shafaq, .night, .rounding, .adjust,
    ]

    /// The stored place, or `nil` when latitude or longitude is unset.
    /// - Throws: ``ValidationError`` when a stored value is out of range.
    public func coordinates() throws(ValidationError) -> Coordinates? {
        guard let latitude = self[.latitude].flatMap(Double.init), let longitude = self[.longitude].flatMap(Double.init)
        else { return nil }
        let elevation = self[.elevation].flatMap(Double.init) ?? 0
        return try Coordinates(latitude: latitude, longitude: longitude, elevation: elevation)
    }

    /// The stored iqama and Jumu'ah settings, or `nil` when none is set.
    public var iqamaSettings: IqamaSettings? {
        guard self[.iqama] != nil || self[.jumuah] != nil else { return nil }
        return try? IqamaSettings(
            parsing: self[.iqama] ?? "", jumuah: self[.jumuah] ?? "",
            roundingMinutes: self[.iqamaRounding].flatMap { Int($0) })
    }

    /// The stored reminder minutes (`[15, 5]`), empty when unset.
    public var reminderMinutes: [Int] {
        self[.reminderMinutes]?.split(separator: ",").compactMap { Int($0) } ?? []
    }

    /// The stored time zone, or `nil` when unset.
    public var timeZone: TimeZone? {
        self[.timeZone].flatMap { TimeZone(identifier: $0) }
    }

    /// The calculation the preferences describe: the stored method (Muslim World League when unset)
    /// with each stored override applied. An isha or maghrib angle replaces the method's interval
    /// and an interval replaces the angle; an imsak angle wins over imsak minutes.
    ///
    /// ```swift
    /// var preferences = Preferences()
    /// try preferences.set("isna", for: .method)
    /// try preferences.set("hanafi", for: .madhab)
    /// let parameters = try preferences.calculationParameters()  // ISNA 15°/15°, Asr factor 2
    /// ```
    /// - Throws: ``ValidationError`` naming the key when a value does not fit the method, such as a
    ///   shafaq without the Moonsighting Committee method.
    public func calculationParameters() throws(ValidationError) -> CalculationParameters {
        let method = try self[.method].map { text throws(ValidationError) in try CalculationMethod.named(text) }
        var parameters = CalculationParameters(method: method ?? .muslimWorldLeague)
        func number(_ key: Key) -> Double? { self[key].flatMap(Double.init) }
        func integer(_ key: Key) -> Int? { self[key].flatMap { Int($0) } }
        if let madhab = self[.madhab].flatMap(Madhab.init(rawValue:)) { parameters.madhab = madhab }
        if let angle = number(.fajrAngle) { parameters.fajrAngle = angle }
        if let angle = number(.ishaAngle) {
            parameters.ishaAngle = angle
            parameters.ishaInterval = nil
        }
        if let minutes = integer(.ishaInterval) { parameters.ishaInterval = minutes }
        if let angle = number(.maghribAngle) {
            parameters.maghribAngle = angle
            parameters.maghribInterval = nil
        }
        if let minutes = integer(.maghribInterval) {
            parameters.maghribInterval = minutes
            parameters.maghribAngle = nil
        }
        if let minutes = integer(.imsakMinutes) { parameters.imsak = .minutesBeforeFajr(minutes) }
        if let angle = number(.imsakAngle) { parameters.imsak = .angle(angle) }
        if let rule = self[.highLatitudeRule].flatMap(HighLatitudeRule.init(rawValue:)) {
            parameters.highLatitudeRule = rule
        }
        if let resolution = self[.polarResolution].flatMap(PolarResolution.init(rawValue:)) {
            parameters.polarResolution = resolution
        }
        if let shafaq = self[.shafaq].flatMap(Shafaq.init(rawValue:)) {
            guard parameters.method == .moonsightingCommittee else {
                throw ValidationError(
                    field: Key.shafaq.rawValue, message: "shafaq applies only to the moonsighting-committee method")
            }
            parameters.seasonalTwilight = shafaq
        }
        if let night = self[.night].flatMap(NightMeasure.init(rawValue:)) { parameters.night = night }
        if let rounding = self[.rounding].flatMap(Rounding.init(rawValue:)) { parameters.rounding = rounding }
        if let text = self[.adjust] { parameters.adjustments = try PrayerAdjustments(parsing: text) }
        try parameters.validate()
        return parameters
    }
}
