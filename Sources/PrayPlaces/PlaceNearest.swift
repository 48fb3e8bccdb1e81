import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Nearest cities by rings of 1° grid cells around a point.
enum PlaceNearest {
    /// Up to `limit` cities nearest to `coordinates` in a 1° grid (row-major from −90°, −180°),
    /// nearest first: `members(cell)` is the range of the cell's entries, `member(i)` the city of entry
    /// `i`, and `position(city)` its position (`nil` for a damaged entry, skipped).
    static func nearest(
        to coordinates: Coordinates, limit: Int, members: (Int) -> Range<Int>, member: (Int) -> Int,
        position: (Int) -> Coordinates?
    ) -> [(city: Int, kilometers: Double)] {
        let row = min(179, max(0, Int((coordinates.latitude + 90).rounded(.down))))
        let column = min(359, max(0, Int((coordinates.longitude + 180).rounded(.down))))
        var found: [(city: Int, kilometers: Double)] = []
        let cosLatitude = cos(coordinates.latitude * .pi / 180)
        for ring in 0...180 {
            for cell in cells(row: row, column: column, ring: ring) {
                for entry in members(cell) {
                    let city = member(entry)
                    guard let place = position(city) else { continue }
                    found.append((city, coordinates.kilometers(to: place)))
                }
            }
            found.sort { ($0.kilometers, $0.city) < ($1.kilometers, $1.city) }
            if found.count > limit { found.removeLast(found.count - limit) }
            // How near a city outside this ring can be: in a row beyond it, more than `ring` degrees of
            // latitude away; in a column beyond it, more than `ring` degrees of longitude, which near a
            // pole is short — at least the distance to that meridian, asin(cos φ · sin Δλ). (Counting
            // latitude alone, as before, stopped early far north and south and in open ocean.)
            let latitudeReach = Double(ring) * 111.19
            let longitudeReach =
                ring >= 180
                ? Double.infinity
                : 6371 * asin(min(1, cosLatitude * sin(Double(min(ring, 90)) * .pi / 180)))
            let reach = min(latitudeReach, longitudeReach)
            if found.count == limit, let last = found.last, last.kilometers <= reach { break }
        }
        return found
    }

    /// The cells at Chebyshev distance `ring` from (row, column), wrapping in longitude (each once).
    private static func cells(row: Int, column: Int, ring: Int) -> [Int] {
        guard ring > 0 else { return [row * 360 + column] }
        var cells: [Int] = []
        for dr in -ring...ring {
            let r = row + dr
            guard (0..<180).contains(r) else { continue }
            let columns = abs(dr) == ring ? Array(-ring...ring) : [-ring, ring]
            for dc in columns where abs(dc) <= 180 {
                cells.append(r * 360 + ((column + dc) % 360 + 360) % 360)
            }
        }
        // Only a ring wider than the globe (≥ 180) meets itself across the antimeridian.
        return ring >= 180 ? Array(Set(cells)) : cells
    }
}
