import PrayCore

extension Place {
    /// A place for tests: Makkah unless told otherwise.
    /// - Throws: ``ValidationError`` for coordinates out of range.
    public static func mock(
        geonameID: Int = 104_515, name: String = "Makkah", countryCode: String = "SA",
        countryName: String = "Saudi Arabia", region: String? = "Makkah al Mukarramah", regionCode: String? = "02",
        latitude: Double = 21.4266, longitude: Double = 39.8256, population: Int = 1_578_722,
        timeZoneIdentifier: String = "Asia/Riyadh"
    ) throws -> Place {
        Place(
            geonameID: geonameID, name: name, countryCode: countryCode, countryName: countryName, region: region,
            regionCode: regionCode, coordinates: try Coordinates(latitude: latitude, longitude: longitude),
            population: population, timeZoneIdentifier: timeZoneIdentifier
        )
    }
}
