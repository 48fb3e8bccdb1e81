import Foundation
import PrayCore
import PrayServices
import Testing

/// How parameters shape the times: rules, resolutions, intervals, adjustments, rounding.
@Suite struct PrayerRulesTests {
    let service = PrayerServiceAstronomical(log: .silent)

    func day(
        _ latitude: Double, _ longitude: Double, _ zone: String, _ date: String, _ parameters: CalculationParameters,
        elevation: Double = 0
    ) throws -> PrayerSchedule {
        let request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: latitude, longitude: longitude, elevation: elevation),
            timeZone: TimeZone(identifier: zone)!, date: try CivilDate(parsing: date), parameters: parameters
        )
        return try #require(try service.schedules(for: request).first)
    }

    func parameters(
        _ method: CalculationMethod, _ change: (inout CalculationParameters) -> Void = { _ in }
    ) -> CalculationParameters {
        var parameters = CalculationParameters(method: method)
        change(&parameters)
        return parameters
    }

    @Test func withoutARuleTheSummerTwilightOfOsloIsUnavailable() throws {
        // Given Oslo at midsummer, where the sun stays within 7° of the horizon
        let none = parameters(.muslimWorldLeague) { $0.highLatitudeRule = .none }
        // When
        let schedule = try day(59.9139, 10.7522, "Europe/Oslo", "2026-06-21", none)
        // Then
        #expect(schedule[.fajr] == nil)
        #expect(schedule.unavailability(of: .fajr) == .sunDoesNotReach(altitude: -18))
        #expect(schedule.unavailability(of: .isha) == .sunDoesNotReach(altitude: -17))
        #expect(schedule.unavailability(of: .imsak) == .requires(.fajr))
        #expect(schedule[.sunrise] != nil && schedule[.midnight] != nil)
    }

    @Test(arguments: [HighLatitudeRule.middleOfTheNight, .seventhOfTheNight, .twilightAngle])
    func aRuleFillsTheGapWithItsPortionOfTheNight(_ rule: HighLatitudeRule) throws {
        // The portions: 1/2, 1/7, or angle/60 (18° fajr, 17° isha for the Muslim World League).
        let portions: (fajr: Double, isha: Double) =
            switch rule {
            case .middleOfTheNight: (1.0 / 2, 1.0 / 2)
            case .seventhOfTheNight: (1.0 / 7, 1.0 / 7)
            default: (18.0 / 60, 17.0 / 60)
            }
        // Given
        let chosen = parameters(.muslimWorldLeague) {
            $0.highLatitudeRule = rule
            $0.rounding = .none
            $0.methodAdjustments = PrayerAdjustments()
        }
        // When
        let schedule = try day(59.9139, 10.7522, "Europe/Oslo", "2026-06-21", chosen)
        let before = try day(59.9139, 10.7522, "Europe/Oslo", "2026-06-20", chosen)
        // Then fajr is sunrise minus the portion of the night before it (previous sunset to sunrise)
        let fajr = try #require(schedule[.fajr])
        #expect(fajr.derivation == .highLatitudeRule(rule))
        let sunrise = try #require(schedule[.sunrise]).date
        let previousSunset = try #require(before[.sunset]).date
        let expected = sunrise.addingTimeInterval(-portions.fajr * sunrise.timeIntervalSince(previousSunset))
        #expect(abs(fajr.date.timeIntervalSince(expected)) < 0.01)
        // and isha is sunset plus the portion of the night after it.
        let isha = try #require(schedule[.isha])
        let night = try #require(schedule.sunsetToSunrise)
        #expect(abs(isha.date.timeIntervalSince(night.start.addingTimeInterval(portions.isha * night.duration))) < 0.01)
    }

    @Test func theRecommendedRuleDependsOnLatitude() {
        #expect(HighLatitudeRule.recommended.resolved(latitude: 59.9) == .seventhOfTheNight)
        #expect(HighLatitudeRule.recommended.resolved(latitude: -52) == .seventhOfTheNight)
        #expect(HighLatitudeRule.recommended.resolved(latitude: 40) == .middleOfTheNight)
        #expect(HighLatitudeRule.twilightAngle.resolved(latitude: 70) == .twilightAngle)
    }

    @Test func aRuleLeavesAnEarlierAngleTimeAlone() throws {
        // Given Makkah, where twilight is short and the angle times are well inside the night
        let schedule = try day(21.4225, 39.8262, "Asia/Riyadh", "2026-11-29", parameters(.muslimWorldLeague))
        // Then
        #expect(schedule[.fajr]?.derivation == .altitude(-18))
        #expect(schedule[.isha]?.derivation == .altitude(-17))
    }

    @Test(arguments: [PolarResolution.nearestLatitude, .nearestDay])
    func polarResolutionFillsDaysWithoutSunriseOrSunset(_ resolution: PolarResolution) throws {
        // Given Tromsø in the midnight sun and in the polar night
        for date in ["2026-06-21", "2026-12-21"] {
            let unresolved = try day(69.6492, 18.9553, "Europe/Oslo", date, parameters(.muslimWorldLeague))
            #expect(unresolved[.sunrise] == nil && unresolved[.sunset] == nil)
            #expect(unresolved[.dhuhr] != nil)
            // When
            let resolved = try day(
                69.6492, 18.9553, "Europe/Oslo", date,
                parameters(.muslimWorldLeague) { $0.polarResolution = resolution }
            )
            // Then every time exists, in order, and says where it came from
            let order: [Prayer] = [.fajr, .sunrise, .dhuhr, .asr, .sunset, .maghrib, .isha]
            let times = try order.map { try #require(resolved[$0], "\(date) \($0)").date }
            #expect(times == times.sorted())
            #expect(resolved[.sunrise]?.isPolarResolved == true)
            #expect(resolved[.dhuhr]?.isPolarResolved == false)
            switch (resolution, resolved.polarBasis) {
            case (.nearestLatitude, .latitude(let latitude)?): #expect(latitude < 69.65 && latitude > 60)
            case (.nearestDay, .day(let day)?): #expect(day != (try CivilDate(parsing: date)))
            default: Issue.record("unexpected basis \(String(describing: resolved.polarBasis))")
            }
        }
    }

    /// A place inside the polar circle, with a polar day and a polar night.
    struct PolarPlace: Sendable, CustomTestStringConvertible {
        let name: String
        let latitude: Double
        let longitude: Double
        let zone: String

        var testDescription: String { name }

        static let all = [
            PolarPlace(name: "Tromsø", latitude: 69.6492, longitude: 18.9553, zone: "Europe/Oslo"),
            PolarPlace(name: "Longyearbyen", latitude: 78.2232, longitude: 15.6267, zone: "Arctic/Longyearbyen"),
        ]

        /// The most a time moves between the last day with a sunset and the first without (or back):
        /// the sun's lowest point moves by one day's change of declination, at most 0.41°, and the sun
        /// crosses the horizon that far below its lowest point at the hour angle ΔH from the lower
        /// transit where cos φ·cos δ·(1 − cos ΔH) = sin 0.41° (δ ≤ 23.44°), 4 minutes a degree: 49 min
        /// at Tromsø, 64 at Longyearbyen. A real place there moves as much on its own edge days.
        var edgeBound: Double {
            let cosines = cos(latitude * .pi / 180) * cos(23.44 * .pi / 180)
            return acos(1 - sin(0.41 * .pi / 180) / cosines) * 180 / .pi * 240
        }
    }

    @Test(arguments: PolarPlace.all)
    func theNearestLatitudeMovesAsTheSunDoes(_ place: PolarPlace) throws {
        // Given a year from March at a place with a polar day and a polar night, and the rules the CLI
        // picks there
        let chosen = parameters(.muslimWorldLeague) {
            $0.highLatitudeRule = .recommended
            $0.polarResolution = .nearestLatitude
            $0.rounding = .none
        }
        let zone = try #require(TimeZone(identifier: place.zone))
        let request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: place.latitude, longitude: place.longitude), timeZone: zone,
            date: try CivilDate(parsing: "2027-03-01"), days: 366, parameters: chosen)
        // When
        let days = try service.schedules(for: request)
        // Then every day has every time, in order, none of them on the day before and maghrib and isha at
        // most on the next (which the CLI marks +1). Ties are the nearest place's own: where the sun only
        // just sets, its night lasts a minute or two (fajr at sunrise, isha at maghrib at the solstice),
        // and where it only just stands high enough for Asr, Asr is at noon.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let order: [Prayer] = [.fajr, .sunrise, .dhuhr, .asr, .maghrib, .isha]
        let polarDays = days.filter { $0.polarBasis != nil }
        #expect(polarDays.count > 100, "a polar day and a polar night")
        for day in days {
            let times = try order.map { try #require(day[$0], "\(day.date) \($0)").date }
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(day.date): \(times)")
            #expect(times[1] < times[2] && times[2] < times[4], "\(day.date): sunrise, dhuhr, maghrib")
            for (prayer, time) in zip(order, times) {
                let civil = calendar.dateComponents([.year, .month, .day], from: time)
                let offset =
                    try CivilDate(year: civil.year!, month: civil.month!, day: civil.day!).daysSince1970
                    - day.date.daysSince1970
                #expect(offset == 0 || (offset == 1 && [.maghrib, .isha].contains(prayer)), "\(day.date) \(prayer)")
            }
        }
        // and from one day to the next the times move as the sun does: by at most 7 minutes while both
        // days borrow (the most found was 6.3 min, Longyearbyen's fajr the day after its polar day
        // begins; steps of 0.5° moved them by 33–45 min), and by no more than the sun's own edge change
        // between a day with a sunset and a day without.
        var largest = 0.0
        for (before, after) in zip(days, days.dropFirst()) where before.polarBasis != nil || after.polarBasis != nil {
            let bound = before.polarBasis != nil && after.polarBasis != nil ? 7 * 60 : place.edgeBound
            for prayer in [Prayer.fajr, .sunrise, .maghrib, .isha] {
                let change = abs(
                    try #require(after[prayer]).date.timeIntervalSince(try #require(before[prayer]).date) - 86400)
                if before.polarBasis != nil, after.polarBasis != nil { largest = max(largest, change) }
                #expect(change <= bound, "\(before.date) → \(after.date) \(prayer): \(Int(change / 60)) min")
            }
        }
        #expect(largest > 60, "the borrowed times do move")
        // and the latitude is the nearest one: the sun rises and sets (with an Asr) just inside it, and
        // not 0.01° further out.
        let sign = place.latitude < 0 ? -1.0 : 1.0
        for day in polarDays.enumerated().filter({ $0.offset % 15 == 0 }).map(\.element) {
            guard case .latitude(let latitude)? = day.polarBasis else {
                Issue.record("\(day.date): \(String(describing: day.polarBasis))")
                continue
            }
            let unresolved = parameters(.muslimWorldLeague) { $0.highLatitudeRule = .recommended }
            let date = day.date.description
            let inside = try self.day(latitude - sign * 0.001, place.longitude, place.zone, date, unresolved)
            let outside = try self.day(latitude + sign * 0.01, place.longitude, place.zone, date, unresolved)
            #expect([Prayer.sunrise, .sunset, .asr].allSatisfy { inside[$0] != nil }, "\(date) at \(latitude)")
            #expect([Prayer.sunrise, .sunset, .asr].contains { outside[$0] == nil }, "\(date) at \(latitude)")
        }
    }

    @Test func theMoonsightingCommitteeShafaqMovesIsha() throws {
        // Given London in winter, when the seasonal curve governs isha
        let times = try Shafaq.allCases.map { shafaq in
            let chosen = parameters(.moonsightingCommittee) { $0.seasonalTwilight = shafaq }
            return try #require(try day(51.5074, -0.1278, "Europe/London", "2026-01-15", chosen)[.isha])
        }
        // Then red twilight ends first, white last
        #expect(times[1].date < times[0].date && times[0].date < times[2].date)
        #expect(times.allSatisfy { if case .seasonal = $0.derivation { true } else { false } })
    }

    @Test func intervalsCountFromMaghrib() throws {
        // Given Portugal's method: maghrib 3 min after sunset, isha 77 min after maghrib
        let portugal = parameters(.portugal) { $0.rounding = .none }
        let schedule = try day(38.7223, -9.1393, "Europe/Lisbon", "2026-05-01", portugal)
        let sunset = try #require(schedule[.sunset]).date
        let maghrib = try #require(schedule[.maghrib]).date
        let isha = try #require(schedule[.isha]).date
        #expect(abs(maghrib.timeIntervalSince(sunset) - 180) < 0.001)
        #expect(abs(isha.timeIntervalSince(maghrib) - 77 * 60) < 0.001)
        #expect(schedule[.isha]?.derivation == .interval(minutes: 77, from: .maghrib))
    }

    @Test func aMaghribAngleComesAfterSunset() throws {
        let schedule = try day(35.6892, 51.3890, "Asia/Tehran", "2026-03-20", parameters(.tehran))
        let sunset = try #require(schedule[.sunset]).date
        let maghrib = try #require(schedule[.maghrib])
        #expect(maghrib.derivation == .altitude(-4.5))
        #expect(maghrib.date.timeIntervalSince(sunset) > 10 * 60)
    }

    @Test func adjustmentsAndRoundingApplyLast() throws {
        // Given
        let exact = parameters(.muslimWorldLeague) { $0.rounding = .none }
        let adjusted = parameters(.muslimWorldLeague) {
            $0.rounding = .none
            $0.adjustments[.fajr] = 2
            $0.adjustments[.isha] = -3
        }
        // When
        let base = try day(21.4225, 39.8262, "Asia/Riyadh", "2026-11-29", exact)
        let moved = try day(21.4225, 39.8262, "Asia/Riyadh", "2026-11-29", adjusted)
        let nearest = try day(21.4225, 39.8262, "Asia/Riyadh", "2026-11-29", parameters(.muslimWorldLeague))
        let up = try day(
            21.4225, 39.8262, "Asia/Riyadh", "2026-11-29", parameters(.muslimWorldLeague) { $0.rounding = .up })
        // Then
        let fajr = try #require(base[.fajr]).date
        #expect(try #require(moved[.fajr]).date.timeIntervalSince(fajr) == 120)
        #expect(try #require(moved[.isha]).date.timeIntervalSince(try #require(base[.isha]).date) == -180)
        #expect(moved[.fajr]?.adjustmentMinutes == 2)
        #expect(base[.dhuhr]?.adjustmentMinutes == 1)  // the method's dhuhr +1
        let rounded = try #require(nearest[.fajr]).date
        #expect(rounded.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) == 0)
        #expect(abs(rounded.timeIntervalSince(fajr)) <= 30)
        let roundedUp = try #require(up[.fajr]).date
        #expect(roundedUp >= fajr.addingTimeInterval(-0.5) && roundedUp.timeIntervalSince(fajr) < 60)
    }

    @Test func elevationBringsSunriseEarlierAndSunsetLater() throws {
        let low = try day(
            39.7392, -104.9903, "America/Denver", "2026-06-01", parameters(.northAmerica) { $0.rounding = .none })
        let high = try day(
            39.7392, -104.9903, "America/Denver", "2026-06-01", parameters(.northAmerica) { $0.rounding = .none },
            elevation: 1609
        )
        let earlier = try #require(low[.sunrise]).date.timeIntervalSince(try #require(high[.sunrise]).date)
        let later = try #require(high[.sunset]).date.timeIntervalSince(try #require(low[.sunset]).date)
        // A dip of 0.0347°·√1609 = 1.39° is about 7 minutes at this latitude in June.
        #expect(earlier > 5 * 60 && earlier < 10 * 60)
        #expect(later > 5 * 60 && later < 10 * 60)
        // Twilight angles take no dip (the parallax of a higher observer moves them by microseconds).
        let fajrs = try [low, high].map { try #require($0[.fajr]).date.timeIntervalSince1970 }
        #expect(abs(fajrs[0] - fajrs[1]) < 0.01)
    }

    @Test func aCustomMethodHasOnlyWhatItIsGiven() throws {
        let schedule = try day(21.4225, 39.8262, "Asia/Riyadh", "2026-11-29", .custom(fajrAngle: 16))
        #expect(schedule[.fajr]?.derivation == .altitude(-16))
        #expect(schedule[.isha] == nil)
        #expect(schedule.unavailability(of: .isha) == .notConfigured)
        #expect(schedule[.dhuhr]?.adjustmentMinutes == 0)
    }

    @Test func imsakByMinutesOrAngle() throws {
        let minutes = try day(
            21.4225, 39.8262, "Asia/Riyadh", "2026-11-29",
            parameters(.muslimWorldLeague) { $0.imsak = .minutesBeforeFajr(15) })
        #expect(try #require(minutes[.fajr]).date.timeIntervalSince(try #require(minutes[.imsak]).date) == 15 * 60)
        let angle = try day(
            21.4225, 39.8262, "Asia/Riyadh", "2026-11-29", parameters(.muslimWorldLeague) { $0.imsak = .angle(20) })
        #expect(angle[.imsak]?.derivation == .altitude(-20))
        #expect(try #require(angle[.imsak]).date < (try #require(angle[.fajr])).date)
    }

    @Test(arguments: NightMeasure.allCases)
    func nightTimesDivideTheChosenNight(_ measure: NightMeasure) throws {
        let chosen = parameters(.jafari) {
            $0.night = measure
            $0.rounding = .none
        }
        let schedule = try day(35.6892, 51.3890, "Asia/Tehran", "2026-11-29", chosen)
        let night = try #require(schedule.night(measure))
        let midnight = try #require(schedule[.midnight])
        #expect(abs(midnight.date.timeIntervalSince(night.start) - night.duration / 2) < 0.001)
        #expect(midnight.derivation == .nightFraction(0.5, night: measure))
        let last = try #require(schedule[.lastThird]).date
        #expect(abs(last.timeIntervalSince(night.start) - night.duration * 2 / 3) < 0.001)
    }

    @Test func badRequestsAreErrorsNotCrashes() throws {
        let place = try Coordinates(latitude: 10, longitude: 10)
        let zone = TimeZone(identifier: "UTC")!
        let day = try CivilDate(parsing: "2026-01-01")
        #expect(throws: ValidationError.self) {
            try service.schedules(
                for: PrayerAPI.Request(
                    coordinates: place, timeZone: zone, date: day, days: 0, parameters: parameters(.mwlAlias)))
        }
        #expect(throws: ValidationError.self) {
            try service.schedules(
                for: PrayerAPI.Request(
                    coordinates: place, timeZone: zone, date: day, parameters: .custom(fajrAngle: 95)))
        }
        #expect(throws: PrayError.self) {
            try service.schedules(
                for: PrayerAPI.Request(
                    coordinates: place, timeZone: zone, date: try CivilDate(parsing: "0900-01-01"),
                    parameters: .custom())
            )
        }
    }

    @Test func theEngineRefusesUserAdjustmentsThatReorderAndHoldsBackMethodOnes() async throws {
        // Given
        let engine = PrayerServiceAstronomical(log: .silent)
        var request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 21.4225, longitude: 39.8262),
            timeZone: try #require(TimeZone(identifier: "Asia/Riyadh")), date: try CivilDate(parsing: "2026-11-29"),
            parameters: CalculationParameters(method: .ummAlQura))
        // When the user's own minutes reorder the day: refused.
        request.parameters.adjustments = PrayerAdjustments([.sunrise: -120])
        #expect(throws: ValidationError.self) { try engine.prayerTimes(for: request) }
        // When the method's minutes do: held back and marked.
        request.parameters.adjustments = PrayerAdjustments([:])
        request.parameters.methodAdjustments = PrayerAdjustments([.dhuhr: 300])
        let schedule = try #require(try engine.prayerTimes(for: request).schedules.first)
        #expect(schedule[.asr]?.isHeldBack == true)
        #expect(schedule[.dhuhr]?.isHeldBack == false)
        #expect(schedule[.asr]?.date == schedule[.dhuhr]?.date)
    }
}

extension CalculationMethod {
    fileprivate static let mwlAlias: CalculationMethod = .muslimWorldLeague
}
