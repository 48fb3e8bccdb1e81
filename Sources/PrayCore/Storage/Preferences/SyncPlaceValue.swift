#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SyncCollection {
    /// The saved place, as one record (never latitude from one device with longitude from another):
    /// key `current`.
    public static let place = SyncCollection(name: "place", schema: 1, valueType: SyncPlaceValue.self)
}

/// The value of the `place` row: the saved place as one record.
public struct SyncPlaceValue: SyncRowValue {
    /// The place's name, or `nil`.
    public var name: String?
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// Elevation in metres, or `nil` when unknown.
    public var elevation: Double?
    /// The zone saved with the place, or `nil`.
    public var timeZone: String?

    /// Creates a value.
    public init(name: String?, latitude: Double, longitude: Double, elevation: Double?, timeZone: String?) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.timeZone = timeZone
    }
}

extension SyncPlaceValue {
    /// The name, when there is one, and the coordinates.
    public var summary: String {
        let point = "\(latitude.formattedCompactly), \(longitude.formattedCompactly)"
        return name.map { "\($0) (\(point))" } ?? point
    }

    /// The `place` collection.
    public static var collection: SyncCollection { .place }

    /// The key `current`, valid coordinates, a known zone and a name of 1 to 200 characters.
    /// - Throws: ``ValidationError`` saying what is wrong.
    public static func validate(key: String, value: SyncPlaceValue?) throws(ValidationError) {
        guard key == "current" else {
            throw ValidationError(field: "key", message: "the place's key is 'current'")
        }
        guard let place = value else { return }
        _ = try Coordinates(latitude: place.latitude, longitude: place.longitude, elevation: place.elevation ?? 0)
        if let zone = place.timeZone, TimeZoneName(zone) == nil { throw TimeZoneName.unknown(zone) }
        if let name = place.name, name.isEmpty || name.count > 200 {
            throw ValidationError(field: "name", message: "a place's name has 1 to 200 characters")
        }
    }

    /// The saved place of `preferences` as one record, when both coordinates are saved.
    public init?(_ preferences: Preferences) {
        guard let latitude = preferences[.latitude].flatMap(Double.init),
            let longitude = preferences[.longitude].flatMap(Double.init)
        else { return nil }
        self.init(
            name: preferences[.placeName], latitude: latitude, longitude: longitude,
            elevation: preferences[.elevation].flatMap(Double.init), timeZone: preferences[.timeZone])
    }
}

extension SyncValue {
    /// A `place` value.
    public static func place(_ value: SyncPlaceValue) -> SyncValue { SyncValue(value) }
}
