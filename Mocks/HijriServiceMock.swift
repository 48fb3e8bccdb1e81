import Foundation
import PrayCore

/// A ``HijriService`` whose answers the test sets, one `on…` closure per requirement, recording the
/// arguments of every call. A requirement without an answer records a test issue and throws
/// ``MockError``.
///
/// ```swift
/// let hijri = HijriServiceMock()
/// hijri.onDays { request in [HijriDay.mock(gregorian: request.date)] }
/// … run the code …
/// #expect(hijri.daysCalls.map(\.date) == [.mockDate])
/// ```
public final class HijriServiceMock: HijriService {
    /// The arguments of a call of ``day(of:calendar:offset:)``.
    public typealias DayArguments = (date: HijriDate, calendar: HijriCalendar, offset: Int)
    /// The arguments of a call of ``month(_:of:calendar:offset:)``.
    public typealias MonthArguments = (month: HijriMonth, year: Int, calendar: HijriCalendar, offset: Int)
    /// The arguments of a call of ``islamicDay(at:place:)``.
    public typealias IslamicDayArguments = (instant: Date, place: HijriAPI.Place)
    /// The arguments of a call of ``nextNotableDay(after:kinds:calendar:offset:)``.
    public typealias NextNotableDayArguments = (
        date: CivilDate, kinds: Set<NotableDay.Kind>, calendar: HijriCalendar, offset: Int
    )

    private let daysFunction = MockFunction<HijriAPI.Request, [HijriDay], any Error>("HijriServiceMock.days(for:)")
    private let dayFunction = MockFunction<DayArguments, HijriDay, any Error>(
        "HijriServiceMock.day(of:calendar:offset:)")
    private let monthFunction = MockFunction<MonthArguments, [HijriDay], any Error>(
        "HijriServiceMock.month(_:of:calendar:offset:)")
    private let islamicDayFunction = MockFunction<IslamicDayArguments, HijriAPI.IslamicDay, any Error>(
        "HijriServiceMock.islamicDay(at:place:)")
    private let nextNotableDayFunction = MockFunction<NextNotableDayArguments, HijriDay, any Error>(
        "HijriServiceMock.nextNotableDay(after:kinds:calendar:offset:)")

    /// Creates a mock with nothing set.
    public init() {}

    // MARK: - days(for:)

    /// Sets the answer of ``days(for:)``.
    public func onDays(_ answer: @escaping @Sendable (HijriAPI.Request) throws -> [HijriDay]) {
        daysFunction.on(answer)
    }

    /// The request of each call of ``days(for:)``, oldest first.
    public var daysCalls: [HijriAPI.Request] { daysFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func days(for request: HijriAPI.Request) throws -> [HijriDay] {
        try daysFunction(request)
    }

    // MARK: - day(of:calendar:offset:)

    /// Sets the answer of ``day(of:calendar:offset:)``.
    public func onDay(_ answer: @escaping @Sendable (HijriDate, HijriCalendar, Int) throws -> HijriDay) {
        dayFunction.on { try answer($0.date, $0.calendar, $0.offset) }
    }

    /// The arguments of each call of ``day(of:calendar:offset:)``, oldest first.
    public var dayCalls: [DayArguments] { dayFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func day(of date: HijriDate, calendar: HijriCalendar, offset: Int) throws -> HijriDay {
        try dayFunction((date, calendar, offset))
    }

    // MARK: - month(_:of:calendar:offset:)

    /// Sets the answer of ``month(_:of:calendar:offset:)``.
    public func onMonth(_ answer: @escaping @Sendable (HijriMonth, Int, HijriCalendar, Int) throws -> [HijriDay]) {
        monthFunction.on { try answer($0.month, $0.year, $0.calendar, $0.offset) }
    }

    /// The arguments of each call of ``month(_:of:calendar:offset:)``, oldest first.
    public var monthCalls: [MonthArguments] { monthFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func month(_ month: HijriMonth, of year: Int, calendar: HijriCalendar, offset: Int) throws -> [HijriDay] {
        try monthFunction((month, year, calendar, offset))
    }

    // MARK: - islamicDay(at:place:)

    /// Sets the answer of ``islamicDay(at:place:)``.
    public func onIslamicDay(_ answer: @escaping @Sendable (Date, HijriAPI.Place) throws -> HijriAPI.IslamicDay) {
        islamicDayFunction.on { try answer($0.instant, $0.place) }
    }

    /// The arguments of each call of ``islamicDay(at:place:)``, oldest first.
    public var islamicDayCalls: [IslamicDayArguments] { islamicDayFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func islamicDay(at instant: Date, place: HijriAPI.Place) async throws -> HijriAPI.IslamicDay {
        try islamicDayFunction((instant, place))
    }

    // MARK: - nextNotableDay(after:kinds:calendar:offset:)

    /// Sets the answer of ``nextNotableDay(after:kinds:calendar:offset:)``.
    public func onNextNotableDay(
        _ answer: @escaping @Sendable (CivilDate, Set<NotableDay.Kind>, HijriCalendar, Int) throws -> HijriDay
    ) {
        nextNotableDayFunction.on { try answer($0.date, $0.kinds, $0.calendar, $0.offset) }
    }

    /// The arguments of each call of ``nextNotableDay(after:kinds:calendar:offset:)``, oldest first.
    public var nextNotableDayCalls: [NextNotableDayArguments] { nextNotableDayFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func nextNotableDay(
        after date: CivilDate, kinds: Set<NotableDay.Kind>, calendar: HijriCalendar, offset: Int
    ) throws -> HijriDay {
        try nextNotableDayFunction((date, kinds, calendar, offset))
    }
}
