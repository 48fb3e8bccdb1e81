#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Builds ``PrayerDay``s — a day's times with the day before and after — from a ``PrayerService``.
///
/// ```swift
/// let manager = PrayerManager(service: dependency.prayerService(), log: dependency.log())
/// let day = try await manager.day(for: request)
/// print(day.next(at: now)?.prayer ?? .fajr)
/// ```
public struct PrayerManager: Sendable {
    private let service: any PrayerService
    private let log: LogManager

    /// Creates a manager.
    /// - Parameters:
    ///   - service: Where the times come from.
    ///   - log: The logger.
    public init(service: any PrayerService, log: LogManager) {
        self.service = service
        self.log = log
    }

    /// Returns the prayer day of `request.date` (the request's day count is ignored).
    /// - Throws: What the service throws.
    public func day(for request: PrayerAPI.Request) async throws -> PrayerDay {
        var single = request
        single.days = 1
        guard let day = try await days(for: single).first else {
            throw PrayError(.unavailable, message: "the prayer service returned no times for \(request.date)")
        }
        return day
    }

    /// Returns one prayer day for each day of the request, fetching one extra day at each end.
    /// - Throws: What the service throws, or ``PrayError`` if it returns the wrong number of days;
    ///   ``PrayError`` `unsupportedDate` when the day before the first or after the last is one the
    ///   service does not calculate (a prayer day needs both), saying so.
    public func days(for request: PrayerAPI.Request) async throws -> [PrayerDay] {
        try request.validate()
        let last = CivilDate(daysSince1970: request.date.daysSince1970 + request.days - 1)
        guard request.date > CivilDate.first, last < CivilDate.last else {
            throw PrayError(
                .unsupportedDate,
                message: "a prayer day needs the days before and after it, and PrayKit's days run from "
                    + "\(CivilDate.first) to \(CivilDate.last)")
        }
        var widened = request
        widened.date = request.date.adding(days: -1)
        widened.days = request.days + 2
        let schedules: [PrayerSchedule]
        do {
            schedules = try await service.prayerTimes(for: widened).schedules
        } catch let error as PrayError where error.kind == .unsupportedDate {
            // The service names the neighbouring day it refused, which the caller never asked for.
            throw PrayError(
                .unsupportedDate,
                message: "the prayer days of \(request.date)…\(last) need the days before and after them: "
                    + error.message)
        }
        guard schedules.count == widened.days else {
            log.error(
                "Prayer service returned the wrong number of days",
                metadata: ["prayer.expected": "\(widened.days)", "prayer.received": "\(schedules.count)"]
            )
            throw PrayError(
                .unavailable, message: "the prayer service returned \(schedules.count) days instead of \(widened.days)"
            )
        }
        return (1...request.days).map { index in
            PrayerDay(yesterday: schedules[index - 1], today: schedules[index], tomorrow: schedules[index + 1])
        }
    }
}
