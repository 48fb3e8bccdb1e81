import Foundation

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
