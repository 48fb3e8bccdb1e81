import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns the sun's events into a day's prayer times: the method's intervals, the high-latitude rule or
/// the Moonsighting Committee's seasons for fajr and isha, the night times, adjustments and rounding.
struct PrayerScheduleBuilder {
    /// What a day's times are made from, fixed for the request.
    private let rules: Rules
    /// The total adjustment of each prayer in minutes, the method's and the user's.
    private let adjustments: PerPrayer<Int>
    private let extraTimes: ExtraTimeSettings?
    private var clock: ZoneClock
    private var ruleDays = 0
    private var seasonalDays = 0
    private var polarDays = 0
    private var unavailableDays = 0
    private var reorderedDays = 0
    /// The fajr of the day after the last one built (needed for that day's night), keyed by its
    /// transit, so the next day does not solve it again.
    private var cachedFajr: (transit: Double, base: Base)?

    /// What a day's bases are made from, fixed for the request: the bases are made by its methods.
    /// Kept apart from the builder's clock and counters: a helper of the builder called from its
    /// mutating ``schedule(date:previous:current:next:)`` was handed a copy of the whole builder (450
    /// bytes) at every call, three times a day.
    fileprivate struct Rules {
        let parameters: CalculationParameters
        let coordinates: Coordinates
        let rule: HighLatitudeRule
        let horizon: Double
        let hijriCalendar: HijriCalendar
        let hijriOffset: Int
        /// The civil days (from 1970-01-01) of Ramadan around the request when months' starts were
        /// announced (``PrayerAPI/Request/hijriMonthStarts``); `nil` when none were.
        let announcedRamadan: Set<Int>?
    }

    /// A time before adjustments and rounding, or why there is none.
    fileprivate enum Base {
        case time(Double, PrayerTime.Derivation)
        case unavailable(PrayerTime.Unavailability)

        var time: Double? {
            if case .time(let time, _) = self { return time }
            return nil
        }
    }

    /// One value per prayer, stored inline: a dictionary's hashing and an array's allocation were
    /// each a tenth of the time of a day. A day's bases are set by name rather than through the
    /// subscript's switch (72 instructions a day fewer).
    fileprivate struct PerPrayer<Value> {
        var fajr, sunrise, dhuhr, asr, sunset, maghrib, isha, imsak, midnight, firstThird, lastThird: Value

        init(_ value: Value) {
            (fajr, sunrise, dhuhr, asr, sunset, maghrib) = (value, value, value, value, value, value)
            (isha, imsak, midnight, firstThird, lastThird) = (value, value, value, value, value)
        }

        /// Calls `body` with each prayer and its value, in the order of `Prayer.allCases`: unrolled, so
        /// that each value is read from its own field rather than through the subscript's switch.
        @inline(__always)
        func forEach<Failure: Error>(_ body: (Prayer, Value) throws(Failure) -> Void) throws(Failure) {
            try body(.fajr, fajr)
            try body(.sunrise, sunrise)
            try body(.dhuhr, dhuhr)
            try body(.asr, asr)
            try body(.sunset, sunset)
            try body(.maghrib, maghrib)
            try body(.isha, isha)
            try body(.imsak, imsak)
            try body(.midnight, midnight)
            try body(.firstThird, firstThird)
            try body(.lastThird, lastThird)
        }

        subscript(prayer: Prayer) -> Value {
            get {
                switch prayer {
                case .fajr: fajr
                case .sunrise: sunrise
                case .dhuhr: dhuhr
                case .asr: asr
                case .sunset: sunset
                case .maghrib: maghrib
                case .isha: isha
                case .imsak: imsak
                case .midnight: midnight
                case .firstThird: firstThird
                case .lastThird: lastThird
                }
            }
            set {
                switch prayer {
                case .fajr: fajr = newValue
                case .sunrise: sunrise = newValue
                case .dhuhr: dhuhr = newValue
                case .asr: asr = newValue
                case .sunset: sunset = newValue
                case .maghrib: maghrib = newValue
                case .isha: isha = newValue
                case .imsak: imsak = newValue
                case .midnight: midnight = newValue
                case .firstThird: firstThird = newValue
                case .lastThird: lastThird = newValue
                }
            }
        }
    }

    fileprivate typealias Bases = PerPrayer<Base>

    /// The sequences whose adjusted times must not go backwards, the day's and the night's: their
    /// ordinals four bits each, the first in the lowest bits, and how many. Walked as bits: walked as
    /// arrays, the arrays were retained and released every day.
    private static let dayOrder = packed([.imsak, .fajr, .sunrise, .dhuhr, .asr, .sunset, .maghrib, .isha])
    private static let nightOrder = packed([.sunset, .firstThird, .midnight, .lastThird])

    private static func packed(_ prayers: [Prayer]) -> (ordinals: UInt64, count: Int) {
        (prayers.reversed().reduce(0) { $0 << 4 | UInt64($1.ordinal) }, prayers.count)
    }

    /// `Prayer.allCases` once: the synthesized property builds a new array at every call.
    private static let prayers = Prayer.allCases

    init(request: PrayerAPI.Request, clock: ZoneClock) {
        rules = Rules(
            parameters: request.parameters, coordinates: request.coordinates,
            rule: request.parameters.highLatitudeRule.resolved(latitude: request.coordinates.latitude),
            horizon: -(0.8333 + Observer.horizonDip(elevation: request.coordinates.elevation)),
            hijriCalendar: request.hijriCalendar, hijriOffset: request.hijriOffset,
            announcedRamadan: Self.ramadanDays(of: request))
        // Both tables' entries added in place: most are empty, and merging them made a dictionary.
        var adjustments = PerPrayer(0)
        for (prayer, minutes) in request.parameters.methodAdjustments.minutes { adjustments[prayer] += minutes }
        for (prayer, minutes) in request.parameters.adjustments.minutes { adjustments[prayer] += minutes }
        self.adjustments = adjustments
        extraTimes = request.extraTimes
        self.clock = clock
    }

    /// The schedule of `date`, whose solar day is `current`, between `previous` and `next`.
    /// - Throws: ``ValidationError`` when the user's own minute adjustments would put a time before
    ///   the one it follows (never silently moved: the user asked for something impossible).
    mutating func schedule(
        date: CivilDate, previous: SolarEvents, current: SolarEvents, next: SolarEvents
    ) throws(ValidationError) -> PrayerSchedule {
        let known = cachedFajr.flatMap { $0.transit == current.transit ? $0.base : nil }
        var bases = Bases(.unavailable(.notConfigured))
        let (nextFajr, nights) = rules.fill(
            &bases, date: date, previous: previous, current: current, next: next, fajr: known)
        cachedFajr = (next.transit, nextFajr)
        return try finish(date: date, bases: &bases, current: current, nights: nights)
    }

    /// The three nights that follow a day (sunset to sunrise, sunset to fajr, maghrib to fajr), each
    /// from its start to its end in Unix seconds, `nil` when an end is missing.
    fileprivate typealias NightBounds = (
        sunsetToSunrise: PrayerSchedule.Bounds?, sunsetToFajr: PrayerSchedule.Bounds?,
        maghribToFajr: PrayerSchedule.Bounds?
    )

    /// Whether the civil day's (daytime) Hijri date is in Ramadan in the calendar the person follows,
    /// offset included — the rule AlAdhan applies for the Umm al-Qura method's 120-minute isha.
    /// The days of Ramadan from the day before the request's first to the day after its last, following
    /// the announced month starts; `nil` when there are none (or the days cannot be converted, when the
    /// calendar alone decides).
    static func ramadanDays(of request: PrayerAPI.Request) -> Set<Int>? {
        guard !request.hijriMonthStarts.isEmpty, request.parameters.ramadanIshaInterval != nil else { return nil }
        let hijri = HijriServiceUmmAlQura(prayerService: PrayerServiceAstronomical(log: .silent), log: .silent)
            .following(request.hijriMonthStarts)
        let first = CivilDate(daysSince1970: request.date.daysSince1970 - 1)
        guard
            let days = try? hijri.days(
                for: HijriAPI.Request(
                    date: first, days: request.days + 2, calendar: request.hijriCalendar, offset: request.hijriOffset))
        else { return nil }
        return Set(days.filter { $0.hijri.month == .ramadan }.map(\.gregorian.daysSince1970))
    }

    static func isRamadan(_ date: CivilDate, calendar: HijriCalendar = .ummAlQura, offset: Int = 0) -> Bool {
        let day = date.daysSince1970 + offset
        let table = calendar == .ummAlQura ? UmmAlQuraTable.date(daysSince1970: day) : nil
        let hijri = table ?? TabularIslamicCalendar.date(daysSince1970: day)
        return hijri.month == HijriMonth.ramadan.rawValue
    }

    /// Logs, once per request, how many days needed a rule.
    func logSummary(to log: LogManager, request: PrayerAPI.Request) {
        // Most requests need no rule: nothing is formatted for them.
        guard ruleDays + seasonalDays + polarDays + reorderedDays + unavailableDays > 0 else { return }
        // Formatted only for an event the logger keeps (the metadata are autoclosures): a server at its
        // default level formats nothing.
        let coordinates = rules.coordinates
        func place() -> [String: String] {
            ["prayer.latitude": "\(coordinates.latitude)", "prayer.date": "\(request.date)"]
        }
        if ruleDays > 0 {
            log.notice(
                "High-latitude rule applied",
                metadata: place().merging(["prayer.rule": rules.rule.rawValue, "prayer.days": "\(ruleDays)"]) { $1 }
            )
        }
        if seasonalDays > 0 {
            log.debug(
                "Moonsighting Committee season applied",
                metadata: place().merging(["prayer.days": "\(seasonalDays)"]) { $1 })
        }
        if polarDays > 0 {
            log.notice(
                "Polar resolution applied",
                metadata: place().merging(
                    ["prayer.resolution": rules.parameters.polarResolution.rawValue, "prayer.days": "\(polarDays)"]
                ) { $1 }
            )
        }
        if reorderedDays > 0 {
            log.notice(
                "Adjusted times held back to keep the day in order",
                metadata: place().merging(["prayer.times": "\(reorderedDays)"]) { $1 }
            )
        }
        if unavailableDays > 0 {
            log.info(
                "Some times are unavailable", metadata: place().merging(["prayer.days": "\(unavailableDays)"]) { $1 })
        }
    }

    // MARK: - Helpers

    /// Whether the times at `earlier` and `later` (ordinals) are in order with the method's minutes
    /// alone, so that it is the user's adjustments that put `later` first.
    private func userAdjustmentReorders(
        earlier: Int, later: Int, adjusted: UnsafeMutableBufferPointer<Double>
    ) -> Bool {
        let user = rules.parameters.adjustments
        let userEarlier = Double(user[Self.prayers[earlier]]) * 60
        let userLater = Double(user[Self.prayers[later]]) * 60
        guard userEarlier != 0 || userLater != 0 else { return false }
        return adjusted[later] - userLater >= adjusted[earlier] - userEarlier
    }

    /// Applies adjustments and rounding and assembles the schedule.
    private mutating func finish(
        date: CivilDate, bases: inout Bases, current: SolarEvents, nights: NightBounds
    ) throws(ValidationError) -> PrayerSchedule {
        let basis = current.basis
        if case .minutesBeforeFajr(let before) = rules.parameters.imsak {
            // Imsak follows the fajr people see: adjusted fajr minus the minutes.
            bases.imsak =
                switch bases.fajr {
                case .time(let fajr, _):
                    .time(
                        fajr + Double(adjustments[.fajr] - before) * 60, .interval(minutes: -before, from: .fajr))
                case .unavailable: .unavailable(.requires(.fajr))
                }
        }
        var unavailable: [Prayer: PrayerTime.Unavailability] = [:]
        var heldBack: UInt16 = 0
        var reorderedByUser: (earlier: Prayer, later: Prayer)?
        var times: [PrayerTime] = []
        var usedRule = false
        var usedSeason = false
        // The adjusted instants by ordinal, NaN where there is none, on the stack.
        withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.prayers.count) { adjusted in
            // Every time adjusted (each read from its own field: see `PerPrayer.forEach`).
            bases.forEach { prayer, base in
                switch base {
                case .time(let time, let derivation):
                    adjusted[prayer.ordinal] = time + Double(adjustments[prayer]) * 60
                    if case .highLatitudeRule = derivation { usedRule = true }
                    if case .seasonal = derivation { usedSeason = true }
                case .unavailable(let reason):
                    adjusted[prayer.ordinal] = .nan
                    unavailable[prayer] = reason
                }
            }
            // A method's minutes can reorder times on days when the sun barely moves (dhuhr +5 past an
            // Asr a minute after transit, near the polar night): the later time is held back to the
            // earlier one, and marked. The user's own adjustments are never overridden: if they alone
            // reorder the day, the request is refused.
            for sequence in 0..<2 {
                var (ordinals, count) = sequence == 0 ? Self.dayOrder : Self.nightOrder
                var latest = -Double.infinity
                var latestOrdinal = 0
                while count > 0 {
                    let ordinal = Int(ordinals & 0xF)
                    (ordinals, count) = (ordinals >> 4, count - 1)
                    guard !adjusted[ordinal].isNaN else { continue }
                    guard adjusted[ordinal] < latest else {
                        (latest, latestOrdinal) = (adjusted[ordinal], ordinal)
                        continue
                    }
                    if reorderedByUser == nil,
                        userAdjustmentReorders(earlier: latestOrdinal, later: ordinal, adjusted: adjusted)
                    {
                        reorderedByUser = (Self.prayers[latestOrdinal], Self.prayers[ordinal])
                    }
                    adjusted[ordinal] = latest
                    heldBack |= 1 << UInt16(ordinal)
                    reorderedDays += 1
                }
            }
            let rounding = rules.parameters.rounding
            let polar = basis != nil
            // The day's times made on the stack, then copied into an array of their exact count: an
            // append for each checked the array's room and uniqueness.
            withUnsafeTemporaryAllocation(of: PrayerTime.self, capacity: Self.prayers.count) { made in
                var count = 0
                bases.forEach { prayer, base in
                    guard case .time(_, let derivation) = base else { return }
                    let ordinal = prayer.ordinal
                    made.initializeElement(
                        at: count,
                        to: PrayerTime(
                            prayer: prayer,
                            date: Date(timeIntervalSince1970: clock.round(adjusted[ordinal], rounding)),
                            derivation: derivation, adjustmentMinutes: adjustments[prayer],
                            rounding: rounding, isPolarResolved: polar && prayer != .dhuhr,
                            isHeldBack: heldBack & (1 << UInt16(ordinal)) != 0
                        )
                    )
                    count += 1
                }
                times = Array(UnsafeBufferPointer(rebasing: made[..<count]))
                made.baseAddress?.deinitialize(count: count)
            }
        }
        if let (earlier, later) = reorderedByUser {
            let minutes = rules.parameters.adjustments
            throw ValidationError(
                field: "adjust",
                message: "the adjustments (\(minutes)) put \(later) before \(earlier) on \(date); "
                    + "a time is never moved past the one before it"
            )
        }
        ruleDays += usedRule ? 1 : 0
        seasonalDays += usedSeason ? 1 : 0
        polarDays += basis == nil ? 0 : 1
        unavailableDays += unavailable.isEmpty ? 0 : 1
        return PrayerSchedule(
            calculated: date, zone: clock.zone, coordinates: rules.coordinates, times: times, unavailable: unavailable,
            nights: nights, polarBasis: basis, extraTimes: extraTimes.map { extra(current, settings: $0, times: times) }
        )
    }

    /// Ishraq, zawal and isfirar of a day whose sun's events are `current` and whose (adjusted,
    /// rounded) times are `times`. Rounded, when the day's times are, so that no disliked time is
    /// shown shorter than it is: the ones that begin one down to the minute, the ones that end one up.
    private mutating func extra(_ current: SolarEvents, settings: ExtraTimeSettings, times: [PrayerTime])
        -> ExtraTimes
    {
        let sunrise = times.first { $0.prayer == .sunrise }?.date
        let sunset = times.first { $0.prayer == .sunset }?.date
        let rounding = rules.parameters.rounding
        func up(_ instant: Double) -> Date {
            Date(timeIntervalSince1970: rounding == .none ? instant : clock.round(instant, .up))
        }
        func down(_ instant: Double) -> Date {
            Date(timeIntervalSince1970: rounding == .none ? instant : clock.roundDown(instant))
        }
        let ishraq: Date?
        let isfirar: Date?
        switch settings.sunRisen {
        case .altitude:
            (ishraq, isfirar) = (current.ishraq.map(up), current.isfirar.map(down))
        case .minutes(let minutes):
            let seconds = Double(minutes) * 60
            ishraq = sunrise.map { $0.addingTimeInterval(seconds) }
            isfirar = sunset.map { $0.addingTimeInterval(-seconds) }
        }
        return ExtraTimes(
            ishraq: ishraq, zawal: down(current.transit - Double(settings.zenithMinutes) * 60),
            transit: up(current.transit), isfirar: isfirar, sunrise: sunrise, sunset: sunset)
    }
}

extension PrayerScheduleBuilder.Rules {
    fileprivate typealias Base = PrayerScheduleBuilder.Base
    fileprivate typealias Bases = PrayerScheduleBuilder.Bases
    fileprivate typealias NightBounds = PrayerScheduleBuilder.NightBounds

    /// Sets every base of `date` before adjustments (in place: returned, the 264 bytes of bases
    /// were copied); returns the next day's fajr base and the nights. `fajr` is this day's fajr base
    /// when the day before already found it.
    func fill(
        _ bases: inout Bases, date: CivilDate, previous: SolarEvents, current: SolarEvents, next: SolarEvents,
        fajr known: Base?
    ) -> (nextFajr: Base, nights: NightBounds) {
        bases.sunrise = event(current.sunrise, .altitude(horizon), altitude: horizon)
        bases.sunset = event(current.sunset, .altitude(horizon), altitude: horizon)
        bases.dhuhr = .time(current.transit, .transit)
        bases.asr = event(
            current.asr, .shadow(factor: parameters.asrShadowFactor), altitude: current.asrAltitude ?? 0
        )
        bases.fajr = known ?? fajrBase(previous: previous, current: current, date: date)
        let maghrib = maghribBase(current: current, next: next)
        bases.maghrib = maghrib
        bases.isha = ishaBase(current: current, next: next, maghrib: maghrib, date: date)
        if case .angle(let angle) = parameters.imsak {
            bases.imsak = morningTwilight(current.imsak, angle: angle, previous: previous, current: current)
        }
        let nextFajrBase = fajrBase(previous: current, current: next, date: date.adding(days: 1))
        let nextFajr = nextFajrBase.time
        let nights: NightBounds = (
            sunsetToSunrise: interval(current.sunset, next.sunrise),
            sunsetToFajr: interval(current.sunset, nextFajr),
            maghribToFajr: interval(maghrib.time, nextFajr)
        )
        let night: PrayerSchedule.Bounds? =
            switch parameters.night {
            case .sunsetToSunrise: nights.sunsetToSunrise
            case .sunsetToFajr: nights.sunsetToFajr
            case .maghribToFajr: nights.maghribToFajr
            }
        let measure = parameters.night
        func part(_ fraction: Double) -> Base {
            guard let night else { return .unavailable(.requires(measure == .sunsetToSunrise ? .sunrise : .fajr)) }
            return .time(night.start + fraction * (night.end - night.start), .nightFraction(fraction, night: measure))
        }
        bases.firstThird = part(1.0 / 3)
        bases.midnight = part(0.5)
        bases.lastThird = part(2.0 / 3)
        return (nextFajrBase, nights)
    }

    private func event(_ time: Double?, _ derivation: PrayerTime.Derivation, altitude: Double) -> Base {
        time.map { .time($0, derivation) } ?? .unavailable(.sunDoesNotReach(altitude: altitude))
    }

    private func interval(_ start: Double?, _ end: Double?) -> PrayerSchedule.Bounds? {
        guard let start, let end, end > start else { return nil }
        return (start, end)
    }

    /// The part of the night a rule allows between sunrise and fajr (or sunset and isha).
    private func portion(angle: Double) -> Double {
        switch rule {
        case .middleOfTheNight: 1.0 / 2
        case .seventhOfTheNight: 1.0 / 7
        case .twilightAngle: angle / 60
        case .none, .recommended: 0
        }
    }

    private func fajrBase(previous: SolarEvents, current: SolarEvents, date: @autoclosure () -> CivilDate) -> Base {
        guard let angle = parameters.fajrAngle else {
            // Without an angle, the Moonsighting Committee's curve alone, in whole minutes (its tables;
            // the AlAdhan API's method 15).
            guard parameters.seasonalTwilight != nil else { return .unavailable(.notConfigured) }
            guard let sunrise = current.sunrise else { return .unavailable(.requires(.sunrise)) }
            let minutes = MoonsightingCommittee.fajrMinutesBeforeSunrise(latitude: coordinates.latitude, date: date())
            return .time(sunrise - minutes.rounded() * 60, .seasonal(nil))
        }
        guard parameters.seasonalTwilight != nil else {
            return morningTwilight(current.fajr, angle: angle, previous: previous, current: current)
        }
        // Moonsighting Committee: one seventh of the night from 55°, then never earlier than the
        // seasonal curve (Adhan's `seasonAdjustedMorningTwilight` as the safe bound).
        var base: Base = event(current.fajr, .altitude(-angle), altitude: -angle)
        if abs(coordinates.latitude) >= 55, let sunrise = current.sunrise, let sunset = previous.sunset,
            sunrise > sunset
        {
            base = .time(sunrise - (sunrise - sunset) / 7, .highLatitudeRule(.seventhOfTheNight))
        }
        if let sunrise = current.sunrise {
            let minutes = MoonsightingCommittee.fajrMinutesBeforeSunrise(latitude: coordinates.latitude, date: date())
            let seasonal = sunrise - (minutes * 60).rounded()
            if base.time.map({ $0 < seasonal }) ?? true { base = .time(seasonal, .seasonal(nil)) }
        }
        return base
    }

    private func ishaBase(current: SolarEvents, next: SolarEvents, maghrib: Base, date: CivilDate) -> Base {
        if var minutes = parameters.ishaInterval {
            guard let maghrib = maghrib.time else { return .unavailable(.requires(.maghrib)) }
            if let ramadan = parameters.ramadanIshaInterval,
                announcedRamadan.map({ $0.contains(date.daysSince1970) })
                    ?? PrayerScheduleBuilder.isRamadan(date, calendar: hijriCalendar, offset: hijriOffset)
            {
                minutes = ramadan
            }
            return .time(maghrib + Double(minutes) * 60, .interval(minutes: minutes, from: .maghrib))
        }
        guard let angle = parameters.ishaAngle else {
            // Without an angle, the curve alone, in whole minutes, as for fajr.
            guard let shafaq = parameters.seasonalTwilight else { return .unavailable(.notConfigured) }
            guard let sunset = current.sunset else { return .unavailable(.requires(.sunset)) }
            let minutes = MoonsightingCommittee.ishaMinutesAfterSunset(
                latitude: coordinates.latitude, date: date, shafaq: shafaq)
            return .time(sunset + minutes.rounded() * 60, .seasonal(shafaq))
        }
        guard let shafaq = parameters.seasonalTwilight else {
            return eveningTwilight(current.isha, angle: angle, current: current, next: next)
        }
        // Moonsighting Committee: one seventh of the night from 55°, then never later than the seasonal
        // curve for the chosen shafaq.
        var base: Base = event(current.isha, .altitude(-angle), altitude: -angle)
        if abs(coordinates.latitude) >= 55, let sunset = current.sunset, let sunrise = next.sunrise, sunrise > sunset {
            base = .time(sunset + (sunrise - sunset) / 7, .highLatitudeRule(.seventhOfTheNight))
        }
        if let sunset = current.sunset {
            let minutes = MoonsightingCommittee.ishaMinutesAfterSunset(
                latitude: coordinates.latitude, date: date, shafaq: shafaq
            )
            let seasonal = sunset + (minutes * 60).rounded()
            if base.time.map({ $0 > seasonal }) ?? true { base = .time(seasonal, .seasonal(shafaq)) }
        }
        return base
    }

    private func maghribBase(current: SolarEvents, next: SolarEvents) -> Base {
        if let angle = parameters.maghribAngle {
            return eveningTwilight(current.maghrib, angle: angle, current: current, next: next)
        }
        guard let sunset = current.sunset else { return .unavailable(.sunDoesNotReach(altitude: horizon)) }
        if let minutes = parameters.maghribInterval, minutes != 0 {
            return .time(sunset + Double(minutes) * 60, .interval(minutes: minutes, from: .sunset))
        }
        return .time(sunset, .altitude(horizon))
    }

    /// A morning time at `angle` below the horizon, no earlier than the rule's portion of the night
    /// (previous sunset to this sunrise) before sunrise.
    private func morningTwilight(
        _ time: Double?, angle: Double, previous: SolarEvents, current: SolarEvents
    ) -> Base {
        let base = event(time, .altitude(-angle), altitude: -angle)
        guard rule != .none, let sunrise = current.sunrise, let sunset = previous.sunset, sunrise > sunset else {
            return base
        }
        let safe = sunrise - portion(angle: angle) * (sunrise - sunset)
        return base.time.map { $0 >= safe } ?? false ? base : .time(safe, .highLatitudeRule(rule))
    }

    /// An evening time at `angle` below the horizon, no later than the rule's portion of the night
    /// (sunset to the next sunrise) after sunset.
    private func eveningTwilight(_ time: Double?, angle: Double, current: SolarEvents, next: SolarEvents) -> Base {
        let base = event(time, .altitude(-angle), altitude: -angle)
        guard rule != .none, let sunset = current.sunset, let sunrise = next.sunrise, sunrise > sunset else {
            return base
        }
        let safe = sunset + portion(angle: angle) * (sunrise - sunset)
        return base.time.map { $0 <= safe } ?? false ? base : .time(safe, .highLatitudeRule(rule))
    }
}
