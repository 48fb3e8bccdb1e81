import PrayCore

/// The Moonsighting Committee's seasonal twilight (Khalid Shaukat, moonsighting.com): the minutes
/// between fajr and sunrise, and between sunset and isha, as a piecewise-linear function of the days
/// since the winter solstice, fitted to observations for latitudes up to 55°.
///
/// The constants are those of the committee's published method as implemented by Adhan
/// (`Astronomical.seasonAdjustedMorningTwilight` / `seasonAdjustedEveningTwilight`): four values a, b,
/// c, d at 0, 91, 137 and 183 days after the solstice, mirrored for the second half of the year.
enum MoonsightingCommittee {
    /// Minutes before sunrise that fajr begins on `date` at `latitude`.
    static func fajrMinutesBeforeSunrise(latitude: Double, date: CivilDate) -> Double {
        let l = abs(latitude) / 55
        return interpolate(
            a: 75 + 28.65 * l, b: 75 + 19.44 * l, c: 75 + 32.74 * l, d: 75 + 48.10 * l,
            day: daysSinceSolstice(date, latitude: latitude)
        )
    }

    /// Minutes after sunset that isha begins on `date` at `latitude`, following `shafaq`.
    static func ishaMinutesAfterSunset(latitude: Double, date: CivilDate, shafaq: Shafaq) -> Double {
        let l = abs(latitude) / 55
        let day = daysSinceSolstice(date, latitude: latitude)
        switch shafaq {
        case .general:
            return interpolate(a: 75 + 25.60 * l, b: 75 + 2.050 * l, c: 75 - 9.210 * l, d: 75 + 6.140 * l, day: day)
        case .ahmer:
            return interpolate(a: 62 + 17.40 * l, b: 62 - 7.160 * l, c: 62 + 5.120 * l, d: 62 + 19.44 * l, day: day)
        case .abyad:
            return interpolate(a: 75 + 25.60 * l, b: 75 + 7.160 * l, c: 75 + 36.84 * l, d: 75 + 81.84 * l, day: day)
        }
    }

    /// Days since the winter solstice of the place's hemisphere: day of year + 10 in the north,
    /// day of year − 172 (173 in leap years) in the south, wrapped into the year.
    static func daysSinceSolstice(_ date: CivilDate, latitude: Double) -> Int {
        let daysInYear = CivilDate.isLeap(date.year) ? 366 : 365
        if latitude >= 0 {
            let days = date.dayOfYear + 10
            return days >= daysInYear ? days - daysInYear : days
        }
        let days = date.dayOfYear - (CivilDate.isLeap(date.year) ? 173 : 172)
        return days < 0 ? days + daysInYear : days
    }

    private static func interpolate(a: Double, b: Double, c: Double, d: Double, day: Int) -> Double {
        let t = Double(day)
        switch day {
        case ..<91: return a + (b - a) / 91 * t
        case ..<137: return b + (c - b) / 46 * (t - 91)
        case ..<183: return c + (d - c) / 46 * (t - 137)
        case ..<229: return d + (c - d) / 46 * (t - 183)
        case ..<275: return c + (b - c) / 46 * (t - 229)
        default: return b + (a - b) / 91 * (t - 275)
        }
    }
}
