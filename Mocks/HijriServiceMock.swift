import Foundation
import PrayCore
import Synchronization

/// A ``HijriService`` whose answers the test sets, one closure per requirement, recording every
/// call by name. A requirement without a closure records a test issue and throws ``MockError``.
public final class HijriServiceMock: HijriService {
    private let state = Mutex(State())

    private struct State {
        var days: (@Sendable (HijriAPI.Request) throws -> [HijriDay])?
        var day: (@Sendable (HijriDate, HijriCalendar, Int) throws -> HijriDay)?
        var month: (@Sendable (HijriMonth, Int, HijriCalendar, Int) throws -> [HijriDay])?
        var islamicDay: (@Sendable (Date, HijriAPI.Place) throws -> HijriAPI.IslamicDay)?
        var nextNotableDay: (@Sendable (CivilDate, Set<NotableDay.Kind>, HijriCalendar, Int) throws -> HijriDay)?
        var calls: [String] = []
    }

    /// Creates a mock with nothing set.
    public init() {}

    /// The names of the requirements called, oldest first (`"days(for:)"`, …).
    public var calls: [String] { state.withLock { $0.calls } }

    /// Sets the answer of ``days(for:)``.
    public func onDays(_ answer: @escaping @Sendable (HijriAPI.Request) throws -> [HijriDay]) {
        state.withLock { $0.days = answer }
    }

    /// Sets the answer of ``day(of:calendar:offset:)``.
    public func onDay(_ answer: @escaping @Sendable (HijriDate, HijriCalendar, Int) throws -> HijriDay) {
        state.withLock { $0.day = answer }
    }

    /// Sets the answer of ``month(_:of:calendar:offset:)``.
    public func onMonth(_ answer: @escaping @Sendable (HijriMonth, Int, HijriCalendar, Int) throws -> [HijriDay]) {
        state.withLock { $0.month = answer }
    }

    /// Sets the answer of ``islamicDay(at:place:)``.
    public func onIslamicDay(_ answer: @escaping @Sendable (Date, HijriAPI.Place) throws -> HijriAPI.IslamicDay) {
        state.withLock { $0.islamicDay = answer }
    }

    /// Sets the answer of ``nextNotableDay(after:kinds:calendar:offset:)``.
    public func onNextNotableDay(
        _ answer: @escaping @Sendable (CivilDate, Set<NotableDay.Kind>, HijriCalendar, Int) throws -> HijriDay
    ) {
        state.withLock { $0.nextNotableDay = answer }
    }

    /// Records the call and returns the configured answer.
    /// - Throws: ``MockError`` when no answer is set.
    public func days(for request: HijriAPI.Request) throws -> [HijriDay] {
        try answer("days(for:)", \.days)(request)
    }

    /// Records the call and returns the configured answer.
    /// - Throws: ``MockError`` when no answer is set.
    public func day(of date: HijriDate, calendar: HijriCalendar, offset: Int) throws -> HijriDay {
        try answer("day(of:calendar:offset:)", \.day)(date, calendar, offset)
    }

    /// Records the call and returns the configured answer.
    /// - Throws: ``MockError`` when no answer is set.
    public func month(_ month: HijriMonth, of year: Int, calendar: HijriCalendar, offset: Int) throws -> [HijriDay] {
        try answer("month(_:of:calendar:offset:)", \.month)(month, year, calendar, offset)
    }

    /// Records the call and returns the configured answer.
    /// - Throws: ``MockError`` when no answer is set.
    public func islamicDay(at instant: Date, place: HijriAPI.Place) async throws -> HijriAPI.IslamicDay {
        try answer("islamicDay(at:place:)", \.islamicDay)(instant, place)
    }

    /// Records the call and returns the configured answer.
    /// - Throws: ``MockError`` when no answer is set.
    public func nextNotableDay(
        after date: CivilDate, kinds: Set<NotableDay.Kind>, calendar: HijriCalendar, offset: Int
    ) throws -> HijriDay {
        try answer("nextNotableDay(after:kinds:calendar:offset:)", \.nextNotableDay)(date, kinds, calendar, offset)
    }

    private func answer<Answer>(_ name: String, _ keyPath: KeyPath<State, Answer?>) throws -> Answer {
        let snapshot = state.withLock { state in
            state.calls.append(name)
            return state
        }
        guard let answer = snapshot[keyPath: keyPath] else {
            throw MockError.unset("HijriServiceMock.\(name)")
        }
        return answer
    }
}

extension HijriDay {
    /// A Hijri day for tests: 19 Jumada al-Akhirah 1448 on 2026-11-29 unless told otherwise.
    public static func mock(
        gregorian: CivilDate = .mockDate, year: Int = 1448, month: Int = 6, day: Int = 19, monthLength: Int = 30,
        calendar: HijriCalendar = .ummAlQura
    ) -> HijriDay {
        HijriDay(
            gregorian: gregorian, hijri: .mock(year: year, month: month, day: day), monthLength: monthLength,
            calendar: calendar,
            isTabular: calendar == .civil
        )
    }
}

extension HijriDate {
    /// A Hijri date for tests: 19 Jumada al-Akhirah 1448 unless told otherwise.
    public static func mock(year: Int = 1448, month: Int = 6, day: Int = 19) -> HijriDate {
        do { return try HijriDate(year: year, month: month, day: day) } catch { fatalError("\(error)") }
    }
}
