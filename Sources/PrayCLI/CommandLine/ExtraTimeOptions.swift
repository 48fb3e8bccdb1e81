import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `--extra` and its settings, shared by `times` and `next`: ishraq and duha, zawal, and the three
/// times prayer is disliked (``ExtraTimeSettings``).
enum ExtraTimeOptions {
    static let extra = Flag(
        "extra",
        help: "Also the times between the prayers: ishraq and duha, and the three times prayer is disliked.")
    static let ishraqAngle = Option<Double?>(
        "ishraq-angle", value: "deg",
        help: "With --extra: the sun's altitude at ishraq and isfirar (a spear's length).",
        defaultText: "5 (Türkiye Takvimi)", range: ExtraTimeSettings.altitudes, unit: "degrees")
    static let ishraqMinutes = Option<Int?>(
        "ishraq-minutes", value: "min",
        help: "With --extra: ishraq this many minutes after sunrise (isfirar as long before sunset), not by altitude.",
        range: ExtraTimeSettings.risenMinutes, unit: "minutes")
    static let zawalMinutes = Option<Int?>(
        "zawal-minutes", value: "min",
        help: "With --extra: prayer is disliked this many minutes before the sun crosses the meridian.",
        defaultText: "5", range: ExtraTimeSettings.zenithRange, unit: "minutes")

    /// The options, in the order help lists them.
    static let all: [any OptionDefinition] = [extra, ishraqAngle, ishraqMinutes, zawalMinutes]

    /// The settings the command line asks for, or `nil` without `--extra`.
    /// - Throws: ``CLIError`` (usage) for a setting without `--extra`, or both an angle and minutes.
    static func settings(_ arguments: ParsedArguments) throws(CLIError) -> ExtraTimeSettings? {
        let settingOptions: [any OptionDefinition] = [ishraqAngle, ishraqMinutes, zawalMinutes]
        let given = settingOptions.filter { arguments.isGiven($0) }
        guard arguments[extra] else {
            if let first = given.first { throw .usage("--\(first.name) goes with --extra") }
            return nil
        }
        if arguments.isGiven(ishraqAngle), arguments.isGiven(ishraqMinutes) {
            throw .usage("--ishraq-angle and --ishraq-minutes are two definitions of ishraq: give one")
        }
        var settings = ExtraTimeSettings()
        if let degrees = arguments[ishraqAngle] { settings.sunRisen = .altitude(degrees) }
        if let minutes = arguments[ishraqMinutes] { settings.sunRisen = .minutes(minutes) }
        if let minutes = arguments[zawalMinutes] { settings.zenithMinutes = minutes }
        return settings
    }

    /// How the times were defined, for the JSON `extraTimes` block.
    static func json(_ settings: ExtraTimeSettings) -> JSON {
        let risen: JSON =
            switch settings.sunRisen {
            case .altitude(let degrees): .object([("altitude", .number(degrees))])
            case .minutes(let minutes): .object([("minutesFromSunriseAndSunset", .int(minutes))])
            }
        return .object([
            ("sunRisen", risen),
            ("zawalMinutes", .int(settings.zenithMinutes)),
            ("source", .string(source(settings))),
        ])
    }

    /// One line saying how the times are defined and on whose authority.
    static func source(_ settings: ExtraTimeSettings) -> String {
        let risen =
            switch settings.sunRisen {
            case .altitude(let degrees):
                "ishraq and isfirar: the sun's centre \(degrees.formattedCompactly)° above the true horizon"
                    + (degrees == 5 ? " (a spear's length, Türkiye Takvimi)" : "")
            case .minutes(let minutes): "ishraq \(minutes) min after sunrise, isfirar \(minutes) min before sunset"
            }
        return "\(risen); zawal \(settings.zenithMinutes) min before the meridian transit; "
            + "the disliked times of Sahih Muslim 831"
    }
}
