import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit timetable list`: the mosques whose timetables are kept.
enum TimetableListCommand: Command {
    static let name = "list"
    static let abstract = "List the mosques whose timetables are kept, and the days each covers."
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let mosques = try context.dependency.mosqueTimetables().mosques()
        let chosen = try context.preferences()[.mosque]
        if arguments[format] == .json {
            let list = mosques.map { mosque -> JSON in
                JSON.object([
                    ("name", .string(mosque.name)), ("latitude", .number(mosque.coordinates.latitude)),
                    ("longitude", .number(mosque.coordinates.longitude)), ("timeZone", .string(mosque.timeZone)),
                    ("first", .string("\(mosque.first)")), ("last", .string("\(mosque.last)")),
                    ("days", .int(mosque.days)), ("chosen", .bool(mosque.name == chosen)),
                ])
            }
            return try context.output.write(JSON.object([("mosques", .array(list))]).rendered() + "\n")
        }
        guard !mosques.isEmpty else {
            return try context.output.write(
                "No mosque timetables kept. Import one with: praykit timetable import FILE.csv --mosque NAME\n")
        }
        var lines = mosques.map { mosque in
            "\(mosque.name == chosen ? "*" : " ") \(mosque.name): \(mosque.first) to \(mosque.last), "
                + "\(counted(mosque.days, "day")), \(mosque.timeZone)"
        }
        if chosen != nil, mosques.contains(where: { $0.name == chosen }) {
            lines.append("* chosen ('praykit config set mosque NAME'): its times replace the calculated ones")
        }
        try context.output.write(lines.joined(separator: "\n") + "\n")
    }
}
