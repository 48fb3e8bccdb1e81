import PrayCore

/// The location on Linux and in the command-line tool: the place saved in the preferences
/// (`latitude`, `longitude`, `elevation`, `place-name`, `tz`).
///
/// ```swift
/// let location = LocationServicePreferences(preferences: store, log: .silent)
/// if let fix = try await location.currentLocation() { print(fix.coordinates) }
/// ```
public struct LocationServicePreferences: LocationService {
    private let preferences: any PreferencesStore
    private let log: LogManager

    /// Creates the service.
    /// - Parameters:
    ///   - preferences: Where the place is saved.
    ///   - log: The logger.
    public init(preferences: any PreferencesStore, log: LogManager) {
        self.preferences = preferences
        self.log = log
    }
}

extension LocationServicePreferences {
    /// Returns the saved place, or `nil` when no latitude and longitude are saved.
    /// - Throws: `StorageError` from the store; ``ValidationError`` for a saved value out of range.
    public func currentLocation() async throws -> LocationAPI.Fix? {
        let saved = try await preferences.async.preferences()
        guard let coordinates = try saved.coordinates() else {
            log.debug("No saved place")
            return nil
        }
        return LocationAPI.Fix(
            coordinates: coordinates, name: saved[.placeName], timeZoneIdentifier: saved[.timeZone], isSavedPlace: true)
    }
}
