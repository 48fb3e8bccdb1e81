#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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

    /// The stored announced Hijri month starts (`hijri-starts`), none when unset.
    public var hijriMonthStarts: HijriMonthStarts {
        self[.hijriStarts].flatMap { try? HijriMonthStarts(parsing: $0) } ?? HijriMonthStarts()
    }

    /// The stored reminder minutes (`[15, 5]`), empty when unset.
    public var reminderMinutes: [Int] {
        self[.reminderMinutes]?.split(separator: ",").compactMap { Int($0) } ?? []
    }

    /// The stored time zone, or `nil` when unset.
    public var timeZone: TimeZone? {
        self[.timeZone].flatMap { TimeZoneName($0)?.timeZone }
    }

    /// The calculation the preferences describe, by the one rule of
    /// ``CalculationSettings/resolve(given:saved:country:latitude:)`` with nothing given and no country: the
    /// stored method (Muslim World League when unset) with each stored override applied. An isha or
    /// maghrib angle replaces the method's interval and an interval replaces the angle; an imsak angle
    /// wins over imsak minutes; a stored shafaq applies only to the Moonsighting Committee method.
    ///
    /// An app that knows the place should resolve with the place's country instead, so that a person
    /// who saved no method gets their country's.
    ///
    /// ```swift
    /// var preferences = Preferences()
    /// try preferences.set("isna", for: .method)
    /// try preferences.set("hanafi", for: .madhab)
    /// let parameters = try preferences.calculationParameters()  // ISNA 15°/15°, Asr factor 2
    /// ```
    /// - Throws: ``ValidationError`` naming the key when a value is out of range.
    public func calculationParameters() throws(ValidationError) -> CalculationParameters {
        try CalculationSettings.resolve(given: CalculationSettings(), saved: self).parameters
    }
}
