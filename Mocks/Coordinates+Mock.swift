import PrayCore

extension Coordinates {
    /// The Kaaba, Makkah: 21.4225° N, 39.8262° E.
    public static let mockMakkah: Coordinates = {
        do { return try Coordinates(latitude: 21.4225, longitude: 39.8262) } catch { fatalError("\(error)") }
    }()
}
