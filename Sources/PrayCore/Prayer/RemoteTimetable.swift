#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A published timetable served over HTTP, for `PrayerServiceRemote`.
///
/// ```swift
/// let aladhan = RemoteTimetable(provider: .aladhan, baseURL: URL(string: "https://api.aladhan.com")!)
/// let london = RemoteTimetable(provider: .london, baseURL: URL(string: "https://www.londonprayertimes.com")!, apiKey: key)
/// ```
public struct RemoteTimetable: Hashable, Sendable, CustomStringConvertible {
    /// The wire formats PrayKit reads.
    public enum Provider: String, CaseIterable, Codable, Hashable, Sendable, CustomStringConvertible {
        /// The AlAdhan API (`/v1/calendar/{year}/{month}`), or a self-hosted instance of it: calculated
        /// by the server from the request's method and place, a month at a time.
        case aladhan
        /// The London Unified Prayer Timetable (`/api/times/`): London's published times with the
        /// congregation (jamat) times, a year at a time.
        case london

        /// The raw value.
        public var description: String { rawValue }
    }

    /// The wire format.
    public var provider: Provider
    /// The server, such as `https://api.aladhan.com`.
    public var baseURL: URL
    /// The API key, for providers that need one (London). Never logged, stored or shown in errors.
    public var apiKey: String?
    /// Cached days younger than this are served without asking the server again, seconds.
    public var maximumAge: TimeInterval
    /// Whether only cached days are served, however old, and the server is never asked (offline use).
    public var cacheOnly: Bool

    /// Creates a source.
    public init(
        provider: Provider, baseURL: URL, apiKey: String? = nil, maximumAge: TimeInterval = 30 * 86400,
        cacheOnly: Bool = false
    ) {
        self.provider = provider
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.maximumAge = maximumAge
        self.cacheOnly = cacheOnly
    }

    /// `aladhan at https://api.aladhan.com` (no key).
    public var description: String { "\(provider) at \(NetworkError.redacted(baseURL))" }
}

extension RemoteTimetable.Provider {
    /// The provider's public server: `https://api.aladhan.com` or `https://www.londonprayertimes.com`.
    public var defaultBaseURL: URL {
        switch self {
        case .aladhan: URL(string: "https://api.aladhan.com") ?? URL(fileURLWithPath: "/")
        case .london: URL(string: "https://www.londonprayertimes.com") ?? URL(fileURLWithPath: "/")
        }
    }

    /// Whether the provider needs an API key.
    public var needsAPIKey: Bool { self == .london }

    /// Where the timetable applies: `nil` for one calculated for any place (AlAdhan); London's within
    /// 60 km of central London (51.5074° N, 0.1278° W), which holds Greater London and its commuter
    /// towns but no other city with its own timetable.
    public var serviceArea: (center: Coordinates, radiusKilometers: Double)? {
        switch self {
        case .aladhan: nil
        case .london: (Self.centralLondon, 60)
        }
    }

    private static let centralLondon = Coordinates(constantLatitude: 51.5074, longitude: -0.1278)
}

extension RemoteTimetable {
    /// A timetable of `provider` at its public server.
    public init(_ provider: Provider, apiKey: String? = nil, cacheOnly: Bool = false) {
        self.init(provider: provider, baseURL: provider.defaultBaseURL, apiKey: apiKey, cacheOnly: cacheOnly)
    }

    /// Checks that this timetable applies at `coordinates`: a published timetable is its own place's,
    /// and another place must not be given its times.
    /// - Throws: ``ValidationError`` (field `coordinates`) naming the distance.
    public func checkServes(_ coordinates: Coordinates) throws(ValidationError) {
        guard let area = provider.serviceArea else { return }
        let distance = coordinates.kilometers(to: area.center)
        guard distance > area.radiusKilometers else { return }
        throw ValidationError(
            field: "coordinates",
            message: "the London Unified Prayer Timetable is London's, and this place is "
                + "\(Int(distance.rounded())) km from London")
    }
}
