import PrayCore

extension Coordinates {
    /// The Kaaba, Makkah: 21.4225° N, 39.8262° E.
    public static let mockMakkah: Coordinates = {
        do { return try Coordinates(latitude: 21.4225, longitude: 39.8262) } catch { fatalError("\(error)") }
    }()

    /// London (Charing Cross): 51.5074° N, 0.1278° W.
    public static let mockLondon: Coordinates = {
        do { return try Coordinates(latitude: 51.5074, longitude: -0.1278) } catch { fatalError("\(error)") }
    }()
}
