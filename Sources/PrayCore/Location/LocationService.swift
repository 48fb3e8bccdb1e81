/// Says where the user is. On Linux and in the command-line tool the saved place is the location
/// (`LocationServicePreferences` in PrayServices); an app on Apple platforms can plug in one backed
/// by Core Location.
///
/// ```swift
/// struct LocationServiceCoreLocation: LocationService {
///     func currentLocation() async throws -> LocationAPI.Fix? {
///         let coordinates = try await lastKnownCoordinates()   // CLLocationManager
///         return LocationAPI.Fix(coordinates: coordinates, isSavedPlace: false)
///     }
/// }
/// ```
public protocol LocationService: Sendable {
    /// Returns the user's place now, or `nil` when it is not known (nothing saved, no permission).
    /// - Throws: What the source of the location throws.
    func currentLocation() async throws -> LocationAPI.Fix?
}
