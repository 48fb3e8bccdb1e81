import PrayCore

/// The IANA zone at a point, offline, from the timezone-boundary-builder polygons (2026c, with
/// oceans; ODbL) simplified to 0.003° (at most 333 m) on a 1° grid.
///
/// The data (1.4 MB) is compiled into the binary and read in place: the first lookup reads its header
/// (the zone names), and a lookup then takes a microsecond or two, reading only the pages of its cell. In territory two
/// administrations claim, the zone of the wider jurisdiction is the main one and the other an
/// alternative (Xinjiang: Asia/Shanghai, also Asia/Urumqi; Abkhazia: Europe/Moscow, also
/// Asia/Tbilisi; Crimea: Europe/Simferopol, also Europe/Kyiv). At sea the zone is the nautical
/// `Etc/GMT±N`.
///
/// ```swift
/// let service = TimeZoneServiceBoundaries(log: .silent)
/// let zone = try service.timeZone(latitude: 21.4225, longitude: 39.8262)
/// print(zone.identifier, zone.source)   // Asia/Riyadh boundaries
/// ```
public struct TimeZoneServiceBoundaries: TimeZoneService {
    private let log: LogManager

    /// Creates the service. Nothing is loaded until the first lookup.
    /// - Parameter log: The logger.
    public init(log: LogManager) {
        self.log = log
    }

    /// The notice the ODbL asks a program that ships the data to show (`praykit --version --verbose`,
    /// an app's acknowledgements).
    public static let dataNotice = """
        Time zone boundaries: timezone-boundary-builder 2026c by Evan Siroky, from OpenStreetMap data \
        (© OpenStreetMap contributors), under the Open Database License 1.0 \
        (https://opendatacommons.org/licenses/odbl/1-0/); simplified by PrayKit's \
        Scripts/data/generate_timezones.py, the derived database likewise ODbL.
        """

    /// The version of the timezone-boundary-builder release the data comes from.
    public static let dataVersion = "2026c"

    /// The data, opened on first use and shared by every instance.
    private static let data = Result { () throws(PrayError) in
        try TimeZoneBoundaryData()
    }
}

extension TimeZoneServiceBoundaries {
    /// Returns the zone at `coordinates`.
    /// - Throws: `PrayError` (`.unavailable`) when the built-in data is damaged.
    public func timeZone(at coordinates: Coordinates) throws -> TimeZoneLookup {
        let data: TimeZoneBoundaryData
        do {
            data = try Self.data.get()
        } catch {
            log.error("Time zone boundaries unreadable", metadata: ["error": error.message])
            throw error
        }
        let label = data.label(latitude: coordinates.latitude, longitude: coordinates.longitude)
        guard label < data.labels.count else { return .nautical(longitude: coordinates.longitude) }
        let zones = data.labels[label].map { data.zones[$0] }
        let main = zones[0]
        return TimeZoneLookup(
            identifier: main, alternatives: Array(zones.dropFirst()),
            source: main.hasPrefix("Etc/") ? .ocean : .boundaries
        )
    }

    /// Opens the data now rather than on the first lookup (an app may call it off the main thread
    /// at launch).
    /// - Throws: `PrayError` (`.unavailable`) when the built-in data is damaged.
    public func preload() throws {
        _ = try Self.data.get()
    }

    /// The number of zones the data knows, nautical zones included.
    /// - Throws: `PrayError` (`.unavailable`) when the built-in data is damaged.
    public func zoneIdentifiers() throws -> [String] {
        try Self.data.get().zones
    }
}
