import Foundation
import PrayCore
import PrayPlaces
import Testing

@Suite struct TimeZoneBoundaryTests {
    let service = TimeZoneServiceBoundaries(log: .silent)

    @Test(arguments: [
        (21.4225, 39.8262, "Asia/Riyadh"), (51.5074, -0.1278, "Europe/London"), (40.7128, -74.006, "America/New_York"),
        (-33.8688, 151.2093, "Australia/Sydney"), (30.0444, 31.2357, "Africa/Cairo"),
        (41.0082, 28.9784, "Europe/Istanbul"),
        (-13.5, -172.5, "Pacific/Apia"), (-43.95, -176.55, "Pacific/Chatham"), (27.7172, 85.324, "Asia/Kathmandu"),
        (31.7767, 35.2345, "Asia/Jerusalem"), (31.5326, 35.0998, "Asia/Hebron"), (3.139, 101.6869, "Asia/Kuala_Lumpur"),
    ])
    func knownPlaces(latitude: Double, longitude: Double, zone: String) throws {
        // When
        let lookup = try service.timeZone(latitude: latitude, longitude: longitude)
        // Then
        #expect(lookup.identifier == zone)
        #expect(lookup.source == .boundaries)
        #expect(lookup.alternatives.isEmpty)
    }

    @Test(arguments: [
        (43.8, 87.6, "Asia/Shanghai", ["Asia/Urumqi"]),  // Ürümqi, Xinjiang
        (39.47, 75.99, "Asia/Shanghai", ["Asia/Urumqi"]),  // Kashgar
        (43.0, 41.0, "Europe/Moscow", ["Asia/Tbilisi"]),  // Sukhumi, Abkhazia
        (44.95, 34.1, "Europe/Simferopol", ["Europe/Kyiv"]),  // Simferopol, Crimea
        (31.7774, 35.2982, "Asia/Jerusalem", ["Asia/Hebron"]),  // Ma'ale Adumim, West Bank
    ])
    func disputedTerritoryHasAlternatives(latitude: Double, longitude: Double, zone: String, others: [String]) throws {
        // When
        let lookup = try service.timeZone(latitude: latitude, longitude: longitude)
        // Then
        #expect(lookup.identifier == zone)
        #expect(lookup.alternatives == others)
    }

    @Test func openOceanIsNautical() throws {
        // Given: the South Indian Ocean at 45° E, the mid-Atlantic at 30° W, the central Pacific
        let atlantic = try service.timeZone(latitude: 0, longitude: -30)
        let indian = try service.timeZone(latitude: -40, longitude: 45)
        // Then: POSIX signs are inverted: 45° E is three hours ahead, Etc/GMT-3
        #expect(indian == TimeZoneLookup(identifier: "Etc/GMT-3", source: .ocean))
        #expect(atlantic == TimeZoneLookup(identifier: "Etc/GMT+2", source: .ocean))
        #expect(TimeZone(identifier: indian.identifier)?.secondsFromGMT() == 3 * 3600)
    }

    @Test func polesAndDateLineAreAnswered() throws {
        // When
        let north = try service.timeZone(latitude: 90, longitude: 0)
        let south = try service.timeZone(latitude: -90, longitude: 180)
        let east = try service.timeZone(latitude: 0, longitude: 180)
        let west = try service.timeZone(latitude: 0, longitude: -180)
        let corner = try service.timeZone(latitude: 90, longitude: -180)
        // Then
        #expect(north.identifier == "Etc/GMT")
        #expect(south.identifier.hasPrefix("Antarctica/"))
        #expect(east.identifier == "Etc/GMT-12")
        #expect(west.identifier == "Etc/GMT+12")
        #expect(corner.source == .ocean)
    }

    @Test(arguments: [(91.0, 0.0), (0.0, 180.5), (Double.nan, 0.0), (0.0, -Double.infinity)])
    func invalidCoordinatesThrow(latitude: Double, longitude: Double) {
        #expect(throws: ValidationError.self) { try service.timeZone(latitude: latitude, longitude: longitude) }
    }

    @Test func everyZoneIsKnownToFoundation() throws {
        let unknown = try service.zoneIdentifiers().filter { TimeZone(identifier: $0) == nil }
        #expect(unknown.isEmpty, "unknown zones: \(unknown)")
    }

    @Test func nauticalZonesFollowLongitude() {
        #expect(TimeZoneLookup.nautical(longitude: 0).identifier == "Etc/GMT")
        #expect(TimeZoneLookup.nautical(longitude: 45).identifier == "Etc/GMT-3")
        #expect(TimeZoneLookup.nautical(longitude: -97.5).identifier == "Etc/GMT+7")
        #expect(TimeZoneLookup.nautical(longitude: 180).identifier == "Etc/GMT-12")
        #expect(TimeZoneLookup.nautical(longitude: -180).identifier == "Etc/GMT+12")
    }

    /// The simplified data against the full-precision polygons (generate_timezone_fixtures.py): the
    /// same UTC offsets in January and July as one of the zones the polygons give.
    @Test func accuracyAgainstFullPrecisionPolygons() throws {
        // Given
        let reference = try ZoneReference.load()
        var offsets: [String: [Int]] = [:]
        func offsetsOf(_ zone: String) -> [Int] {
            if let known = offsets[zone] { return known }
            let timeZone = TimeZone(identifier: zone)
            let value = ZoneReference.instants.map { timeZone?.secondsFromGMT(for: $0) ?? Int.min }
            offsets[zone] = value
            return value
        }
        // When
        var agreed: [String: (same: Int, total: Int)] = [:]
        var misses: [String] = []
        for point in reference.points {
            let lookup = try service.timeZone(latitude: point.latitude, longitude: point.longitude)
            let ours = offsetsOf(lookup.identifier)
            let same = point.zones.contains { offsetsOf($0) == ours }
            agreed[point.kind, default: (0, 0)].total += 1
            if same { agreed[point.kind, default: (0, 0)].same += 1 }
            if !same, point.kind == "city", misses.count < 20 {
                misses.append("\(point.latitude),\(point.longitude): \(lookup.identifier) vs \(point.zones)")
            }
        }
        // Then
        func share(_ kind: String) -> Double {
            let counts = agreed[kind] ?? (0, 1)
            return Double(counts.same) / Double(counts.total)
        }
        print("zone accuracy", agreed.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.same)/\($0.value.total)" })
        #expect(agreed["city"]?.total ?? 0 > 30_000)
        #expect(agreed["border"]?.total ?? 0 >= 4000)
        #expect(share("city") >= 0.999, "\(misses)")
        #expect(share("border") >= 0.97)
        #expect(share("coast") >= 0.97)
        #expect(share("ocean") >= 0.99)
    }
}

/// `timezone-reference.tsv`: points and the zones the full-precision polygons give them.
struct ZoneReference {
    struct Point {
        let kind: String
        let latitude: Double
        let longitude: Double
        let zones: [String]
    }

    let points: [Point]

    /// 15 January and 15 July 2026, 12:00 UTC: winter and summer on either hemisphere.
    static let instants = [Date(timeIntervalSince1970: 1_768_478_400), Date(timeIntervalSince1970: 1_784_116_800)]

    static func load() throws -> ZoneReference {
        let text = String(decoding: try Fixtures.data("timezone-reference.tsv"), as: UTF8.self)
        var zones: [String] = []
        var points: [Point] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if fields[0] == "zones" {
                zones = Array(fields.dropFirst())
                continue
            }
            guard fields.count == 4, let latitude = Double(fields[1]), let longitude = Double(fields[2]) else {
                continue
            }
            let numbers = fields[3].split(separator: ",").compactMap { Int($0) }
            points.append(
                Point(kind: fields[0], latitude: latitude, longitude: longitude, zones: numbers.map { zones[$0] }))
        }
        return ZoneReference(points: points)
    }
}

@Test func dataNoticesNameTheirLicences() {
    #expect(TimeZoneServiceBoundaries.dataNotice.contains("Open Database License"))
    #expect(TimeZoneServiceBoundaries.dataNotice.contains(TimeZoneServiceBoundaries.dataVersion))
    #expect(PlaceServiceGazetteer.dataNotice.contains("Creative Commons Attribution 4.0"))
}
