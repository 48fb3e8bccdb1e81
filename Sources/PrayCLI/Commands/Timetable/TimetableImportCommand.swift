import Foundation
import PrayCore

/// `praykit timetable import FILE.csv --mosque NAME`: keeps a mosque's own timetable.
enum TimetableImportCommand: Command {
    static let name = "import"
    static let abstract = "Keep a mosque's own timetable from a CSV file, replacing the mosque's days kept before."
    static let discussion = """
        The file is UTF-8 text (a byte-order mark is accepted): a header row naming the columns, then one
        row per day. 'date' (YYYY-MM-DD) is required; any of fajr, sunrise, dhuhr, asr, maghrib, isha (adhan
        times), fajr_iqama, dhuhr_iqama, asr_iqama, maghrib_iqama, isha_iqama and jumuah (times separated by
        spaces) may follow, in any order. Times are HH:MM, 24-hour, in the mosque's zone; an empty cell
        leaves that time to the calculation.

        The whole file is checked first: a time out of order (fajr after sunrise, an iqama before its
        adhan), a day given twice, a missing date column, an unknown column, a bad time or date, text that
        is not UTF-8 or a file without days is an error naming the line, and nothing is imported. Importing
        the same mosque again replaces all its days in one transaction.

        The mosque's place is the saved place, or the one given with --city or --lat/--lon and --tz; its
        times apply within \(Int(MosqueTimetable.radiusKilometers)) km of it, in its zone, once it is chosen
        with 'praykit config set mosque NAME'. Then times, next, notify, calendar and timetable use its
        times for the days it gives, and calculated times for the rest.
        """
    static let examples = [
        "praykit timetable import east-london-2027.csv --mosque \"East London Mosque\" --city London",
        "praykit config set mosque \"East London Mosque\"",
    ]
    static let file = Argument<String>("file", help: "The CSV file, or - for standard input.", completion: .file)
    static let mosque = Option<String>("mosque", value: "name", help: "The mosque's name (1 to 100 characters).")
    static let options: [any OptionDefinition] = [mosque] + PlaceOptions.place
    static let arguments: [any ArgumentDefinition] = [file]

    /// The largest file read: 16 MiB (a century of days is under 6 MiB).
    static let maximumBytes = 16 * 1024 * 1024

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let name = arguments[mosque].trimmingCharacters(in: .whitespaces)
        do {
            try MosqueTimetable.validate(name: name)
        } catch {
            throw CLIError.usage("--mosque: " + error.message)
        }
        let data = try InputFile.read(arguments[file], limit: maximumBytes + 1, context: context)
        guard data.count <= maximumBytes else {
            throw CLIError.runtime("\(arguments[file]) is larger than \(maximumBytes / 1024 / 1024) MiB")
        }
        let days: [MosqueDay]
        do {
            days = try MosqueTimetableCSV.days(from: data)
        } catch {
            throw CLIError.runtime("\(arguments[file] == "-" ? "standard input" : arguments[file]), \(error.message)")
        }
        let place = try await PlaceOptions.place(arguments, saved: try context.preferences(), context: context)
        let timetable = MosqueTimetable(
            name: name, coordinates: place.coordinates, timeZone: place.zone.identifier, days: days)
        try context.dependency.mosqueTimetables().replace(timetable)
        let first = days.first.map { "\($0.date)" } ?? ""
        let last = days.last.map { "\($0.date)" } ?? ""
        var message =
            "Imported \(days.count) \(days.count == 1 ? "day" : "days") (\(first) to \(last)) for \(name), in \(place.zone.identifier).\n"
        if try context.preferences()[.mosque] != name {
            message += "Use its times with: praykit config set mosque \(name.praykitValueWord)\n"
        }
        try context.output.write(message)
    }
}
