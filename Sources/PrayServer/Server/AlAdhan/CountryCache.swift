import PrayCore
import Synchronization

/// The countries of the places requests without `method` came from, remembered: finding the country
/// of a point (`LocationManager.countryCode(at:)`: the zone there and the nearest city, about 40 µs)
/// costs several answers, and clients ask for the same few places day after day.
///
/// Exact coordinates are the key, so an answer never depends on another place's. At most `capacity`
/// places are kept; when it is full the cache starts again empty (a few KB a thousand places).
final class CountryCache: Sendable {
    private struct Key: Hashable {
        let latitude: UInt64
        let longitude: UInt64
    }

    private let capacity: Int
    private let countries = Mutex<[Key: String?]>([:])

    init(capacity: Int = 16_384) {
        self.capacity = capacity
    }

    /// The country at `coordinates`, from `find` the first time.
    func country(at coordinates: Coordinates, find: (Coordinates) -> String?) -> String? {
        let key = Key(latitude: coordinates.latitude.bitPattern, longitude: coordinates.longitude.bitPattern)
        if let known = countries.withLock({ $0[key] }) { return known }
        // Found outside the lock: other requests go on meanwhile (two may find the same place at once).
        let country = find(coordinates)
        countries.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[key] = .some(country)
        }
        return country
    }
}
