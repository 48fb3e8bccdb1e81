import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit qibla`: the direction of the Kaaba from a place, true and by compass.
enum QiblaCommand: Command {
    static let name = "qibla"
    static let abstract = "Print the direction and distance of the Kaaba from a place, true and by compass."
    static let discussion = """
        The true bearing is the initial bearing of the shortest path on the WGS84 ellipsoid (the geodesic),
        in degrees clockwise from true north; the great-circle bearing on a sphere is shown beside it.
        The compass (magnetic) bearing is the true bearing minus the magnetic declination of the World
        Magnetic Model (WMM2025, NOAA NCEI and BGS) at the place, at --elevation (taken as the height above
        the WGS84 ellipsoid) and on --date. WMM2025 is valid from 2025.0 to 2030.0: outside those years no
        compass bearing is given. Near the magnetic poles, where the horizontal field is weak (under
        6000 nT, the model's caution zone; under 2000 nT, its blackout zone), a compass is unreliable and
        the output says so.
        Without --lat and --lon (or --city), the saved place is used.
        """
    static let examples = [
        "praykit qibla --lat 40.7128 --lon -74.0060",
        "praykit qibla --city London --date 2027-06-01 --format json",
    ]
    static let date = Option<Day?>(
        "date", value: "day", help: "The day of the magnetic declination: YYYY-MM-DD, today, tomorrow, +N or -N.",
        defaultText: "today in the place's zone")
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [
        PlaceOptions.latitude, PlaceOptions.longitude, PlaceOptions.city, PlaceOptions.elevation, date, format,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let saved = try context.preferences()
        let place = try await PlaceOptions.place(arguments, saved: saved, context: context)
        let coordinates = place.coordinates
        let qibla = context.dependency.qiblaService().qibla(from: coordinates)
        let today = try CivilDate(containing: context.now, in: place.zone)
        let compass = try Compass(
            qibla: qibla, at: coordinates, on: arguments[date]?.day(today: today) ?? today,
            service: context.dependency.magneticFieldService())
        let notes = Self.notes(qibla)
        if arguments[format] == .json {
            var members: [(String, JSON)] = place.name.map { [("name", .string($0))] } ?? []
            members += [
                ("latitude", .number(coordinates.latitude)),
                ("longitude", .number(coordinates.longitude)),
                ("direction", .number(qibla.direction)),
                ("sphericalDirection", .number(qibla.sphericalDirection)),
                ("distanceKilometers", .number(qibla.distanceKilometers)),
                ("compass", .string(qibla.compass.rawValue)),
            ]
            if let degeneracy = qibla.degeneracy { members.append(("degenerate", .string(degeneracy.rawValue))) }
            if !notes.isEmpty { members.append(("note", .string(notes.joined(separator: " ")))) }
            members += compass.jsonMembers
            return try context.output.write(JSON.object(members).rendered() + "\n")
        }
        let distance =
            qibla.distanceKilometers < Qibla.nearKaabaKilometers
            ? "\((qibla.distanceKilometers * 1000).fixed(1)) m"
            : "\(qibla.distanceKilometers.fixed(1)) km"
        let position = "\(coordinates.latitude.formattedCompactly), \(coordinates.longitude.formattedCompactly)"
        var lines = ["Qibla from " + (place.nameWithNote.map { "\($0) — \(position)" } ?? position)]
        if let choice = place.cityChoice, let others = MatchText.others(choice) { lines.append(others) }
        lines += [
            "True bearing: \(Self.degrees(qibla.direction)) (\(qibla.compass)) clockwise from true north, along the "
                + "geodesic"
        ]
        lines += compass.tableLines
        lines += [
            "Great circle on a sphere: \(Self.degrees(qibla.sphericalDirection)) (true)",
            "Distance: \(distance)",
        ]
        lines += notes.map { "Note: \($0)" }
        // A refusal is already said on the compass line.
        if compass.field != nil, let note = compass.note { lines.append("Note: \(note)") }
        try context.output.write(lines.joined(separator: "\n") + "\n")
    }

    /// What a person should know about the direction here: at or near the Kaaba, or its antipode.
    static func notes(_ qibla: Qibla) -> [String] {
        var notes: [String] = []
        if let degeneracy = qibla.degeneracy { notes.append("\(degeneracy).") }
        if qibla.isNearKaaba {
            notes.append(
                "this place is \((qibla.distanceKilometers * 1000).fixed(0)) m from the Kaaba: the "
                    + "direction is only meaningful beyond a few metres; face the Kaaba itself.")
        }
        if qibla.isNearAntipode {
            notes.append(
                "this place is near the Kaaba's antipode, where the directions of the shortest paths diverge: "
                    + "a short move changes the direction a lot, and every direction is nearly as short.")
        }
        return notes
    }

    static func degrees(_ value: Double) -> String {
        "\(value.fixed(2))°"
    }
}
