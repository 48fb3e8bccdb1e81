import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``PrayerService`` that serves published timetables — AlAdhan's API or the London Unified Prayer
/// Timetable — keeping every month or year it fetches in the database.
///
/// Days fetched less than ``RemoteTimetable/maximumAge`` ago are served from the database without
/// asking the server. Older or missing days are fetched; when the server cannot be reached or
/// answers badly, cached days are served instead and the response says so (``PrayerAPI/Source/cache``
/// with when they were fetched). A response that does not parse, leaves out a day or puts times out
/// of order is an error and is never stored.
///
/// ```swift
/// let remote = PrayerServiceRemote(
///     timetable: RemoteTimetable(provider: .aladhan, baseURL: URL(string: "https://api.aladhan.com")!),
///     network: NetworkServiceCurl(log: log), database: database, log: log
/// )
/// let response = try await remote.prayerTimes(for: request)
/// ```
public struct PrayerServiceRemote: PrayerService {
    private let timetable: RemoteTimetable
    private let network: any NetworkService
    private let cache: TimetableCache
    private let log: LogManager
    private let now: @Sendable () -> Date

    /// Creates the service.
    /// - Parameters:
    ///   - timetable: The server and its format.
    ///   - network: Sends the requests.
    ///   - database: Keeps what was fetched.
    ///   - log: The logger: fetches at `info`, cache fallbacks at `notice`.
    ///   - now: The clock that decides the age of cached days.
    public init(
        timetable: RemoteTimetable, network: any NetworkService, database: SQLiteDatabase, log: LogManager,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.timetable = timetable
        self.network = network
        cache = TimetableCache(database: database)
        self.log = log
        self.now = now
    }
}

extension PrayerServiceRemote {
    /// The schedules of the request's days, from the cache or the server.
    /// - Throws: ``ValidationError`` for a bad request or a place the timetable does not serve
    ///   (``RemoteTimetable/checkServes(_:)``); ``PrayError`` (`unavailable`) when days can be neither
    ///   fetched nor found in the cache, with the reason.
    public func prayerTimes(for request: PrayerAPI.Request) async throws -> PrayerAPI.Response {
        try request.validate()
        try timetable.checkServes(request.coordinates)
        var served: [Int: TimetableCache.Entry] = [:]
        var fetchedNow = true
        for chunk in chunks(of: request) {
            let (entries, fresh) = try await days(of: chunk, request: request)
            served.merge(entries) { $1 }
            fetchedNow = fetchedNow && fresh
        }
        let schedules = try request.dates.map { date in
            guard let entry = served[date.daysSince1970] else {
                throw PrayError(.unavailable, message: "\(timetable.provider) gave no times for \(date)")
            }
            return schedule(entry.day, date: date, request: request)
        }
        let oldest = served.values.map(\.fetchedAt).min() ?? now()
        let source: PrayerAPI.Source =
            fetchedNow
            ? .remote(provider: timetable.provider.rawValue, fetchedAt: oldest)
            : .cache(provider: timetable.provider.rawValue, fetchedAt: oldest)
        return PrayerAPI.Response(schedules: schedules, source: source)
    }
}

// MARK: - Helpers

extension PrayerServiceRemote {
    /// An error in words: the message of the package's own errors, never Foundation's text.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as NetworkError: error.description
        case let error as CustomStringConvertible where "\(error)".firstRange(of: "Domain=") == nil: error.description
        default: "\(type(of: error))"
        }
    }

    /// A month (AlAdhan) or a year (London) the server sends in one response, and the requested days
    /// in it.
    struct Chunk {
        let year: Int
        let month: Int?
        let days: [Int]
    }

    private func chunks(of request: PrayerAPI.Request) -> [Chunk] {
        var chunks: [Chunk] = []
        for date in request.dates {
            let month = timetable.provider == .aladhan ? date.month : nil
            if let last = chunks.last, last.year == date.year, last.month == month {
                chunks[chunks.count - 1] = Chunk(year: last.year, month: month, days: last.days + [date.daysSince1970])
            } else {
                chunks.append(Chunk(year: date.year, month: month, days: [date.daysSince1970]))
            }
        }
        return chunks
    }

    /// What identifies a cached timetable: the server and everything that changes its times. Never
    /// the API key.
    private func place(_ request: PrayerAPI.Request) -> String {
        let base = NetworkError.redacted(timetable.baseURL)
        switch timetable.provider {
        case .london:
            return base
        case .aladhan:
            return AlAdhanFormat.url(base: timetable.baseURL, year: 2000, month: 1, request: request)
                .map { NetworkError.redacted($0).replacing("/v1/calendar/2000/1", with: "") } ?? base
        }
    }

    /// The chunk's requested days, and whether they were fetched now (rather than served from the
    /// cache).
    private func days(of chunk: Chunk, request: PrayerAPI.Request) async throws -> ([Int: TimetableCache.Entry], Bool) {
        let provider = timetable.provider.rawValue
        let place = place(request)
        let (first, last) = (chunk.days.min() ?? 0, chunk.days.max() ?? 0)
        let cached = try cache.entries(provider: provider, place: place, from: first, through: last)
        let complete = chunk.days.allSatisfy { cached[$0] != nil }
        let young = cached.values.allSatisfy { now().timeIntervalSince($0.fetchedAt) < timetable.maximumAge }
        if timetable.cacheOnly {
            guard complete else {
                throw PrayError(
                    .unavailable,
                    message: "no copy of the \(timetable.provider) timetable for \(CivilDate(daysSince1970: first))…"
                        + "\(CivilDate(daysSince1970: last)) is cached, and the server is not asked offline"
                )
            }
            return (cached, false)
        }
        if complete && young {
            log.debug(
                "Timetable served from the cache",
                metadata: ["timetable.provider": provider, "timetable.year": "\(chunk.year)"])
            return (cached, false)
        }
        do {
            let days = try await fetch(chunk, request: request)
            let fetchedAt = now()
            try cache.store(days, provider: provider, place: place, fetchedAt: fetchedAt)
            log.info(
                "Timetable fetched",
                metadata: [
                    "timetable.provider": provider, "timetable.days": "\(days.count)",
                    "timetable.year": "\(chunk.year)",
                ]
            )
            let entries = Dictionary(days.map { ($0.day, TimetableCache.Entry(day: $0, fetchedAt: fetchedAt)) }) { $1 }
            return (entries, true)
        } catch {
            guard complete else {
                throw PrayError(
                    .unavailable,
                    message:
                        "cannot fetch the \(timetable.provider) timetable (\(Self.describe(error))) and no copy of "
                        + "\(CivilDate(daysSince1970: first))…\(CivilDate(daysSince1970: last)) is cached"
                )
            }
            log.notice(
                "Timetable server unavailable, serving the cache",
                metadata: ["timetable.provider": provider, "timetable.error": "\(error)"]
            )
            return (cached, false)
        }
    }

    private func fetch(_ chunk: Chunk, request: PrayerAPI.Request) async throws -> [PublishedDay] {
        let url: URL?
        switch timetable.provider {
        case .aladhan:
            url = AlAdhanFormat.url(
                base: timetable.baseURL, year: chunk.year, month: chunk.month ?? 1, request: request)
        case .london: url = LondonFormat.url(base: timetable.baseURL, year: chunk.year, key: timetable.apiKey)
        }
        guard let url else {
            throw RemoteTimetableError("the timetable URL \(NetworkError.redacted(timetable.baseURL)) is not valid")
        }
        let response = try await network.send(HTTPRequest(url: url, headers: ["Accept": "application/json"]))
        switch timetable.provider {
        case .aladhan:
            return try AlAdhanFormat.days(
                from: response.body, year: chunk.year, month: chunk.month ?? 1, zone: request.timeZone)
        case .london:
            return try LondonFormat.days(from: response.body, year: chunk.year)
        }
    }

    /// A published day as a schedule: the times it gives, the others unavailable.
    private func schedule(_ day: PublishedDay, date: CivilDate, request: PrayerAPI.Request) -> PrayerSchedule {
        var times = day.times
        if request.parameters.madhab == .hanafi, let hanafi = times["asr2"] { times["asr"] = hanafi }
        var prayerTimes: [PrayerTime] = []
        var unavailable: [Prayer: PrayerTime.Unavailability] = [:]
        for prayer in Prayer.allCases {
            if let instant = times[prayer.rawValue] {
                prayerTimes.append(
                    PrayerTime(prayer: prayer, date: Date(timeIntervalSince1970: instant), derivation: .published)
                )
            } else {
                unavailable[prayer] = .notPublished
            }
        }
        let congregation = Dictionary(
            day.congregation.compactMap { name, instant in
                Prayer(rawValue: name).map { ($0, Date(timeIntervalSince1970: instant)) }
            }
        ) { $1 }
        return PrayerSchedule(
            date: date, timeZone: request.timeZone, coordinates: request.coordinates, times: prayerTimes,
            unavailable: unavailable, congregationTimes: congregation
        )
    }
}
