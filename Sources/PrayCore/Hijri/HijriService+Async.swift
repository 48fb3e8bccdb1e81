// MARK: - The async view

extension HijriService {
    /// ``WorkQueue/shared``: a service that has no queue of its own runs its `async` calls there.
    public var workQueue: WorkQueue { .shared }

    /// This service's conversions of many days as `async` functions that run on ``workQueue`` while
    /// the caller is suspended — for the main actor, which should not compute a year of days itself.
    /// The synchronous methods stay for servers, tools and the command line.
    public var async: AsyncHijriService { AsyncHijriService(service: self) }
}

/// The `async` counterparts of a ``HijriService``'s conversions of many days, with the same names: each
/// runs the synchronous method on the service's ``HijriService/workQueue``, off the caller's actor.
/// Get it from ``HijriService/async``.
///
/// ```swift
/// let year = try await dependency.hijriService().async.days(for: HijriAPI.Request(date: today, days: 365))
/// ```
public struct AsyncHijriService: Sendable {
    /// The service whose methods run.
    public let service: any HijriService

    /// Returns the Hijri date of each requested civil day.
    /// - Throws: What ``HijriService/days(for:)`` throws.
    public func days(for request: HijriAPI.Request) async throws -> [HijriDay] {
        try await service.workQueue.run { [service] in try service.days(for: request) }
    }

    /// Returns every day of a Hijri month with its civil date.
    /// - Throws: What ``HijriService/month(_:of:calendar:offset:)`` throws.
    public func month(_ month: HijriMonth, of year: Int, calendar: HijriCalendar, offset: Int) async throws
        -> [HijriDay]
    {
        try await service.workQueue.run { [service] in
            try service.month(month, of: year, calendar: calendar, offset: offset)
        }
    }
}
