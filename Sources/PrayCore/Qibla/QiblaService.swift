/// Finds the direction of the Kaaba from a place.
public protocol QiblaService: Sendable {
    /// Returns the qibla from `coordinates`: the geodesic and the spherical bearing and the distance.
    func qibla(from coordinates: Coordinates) -> Qibla
}
