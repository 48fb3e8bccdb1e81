import PrayCore

/// `praykit qibla`: the direction of the Kaaba from a place.
struct QiblaCommand {
    static let name = "qibla"
    static let overview = "Print the direction and distance of the Kaaba from a place."
    static let usage = "praykit qibla --lat <deg> --lon <deg> [--format <format>]"
    static let options: [OptionSpec] = [
        .latitude,
        .longitude,
        .format(["table", "json"]),
    ]

    static var help: String {
        HelpText.render(
            overview: overview, usage: usage, options: options,
            footer: """
                The direction is the initial bearing of the shortest path on the WGS84 ellipsoid (the
                geodesic), in degrees clockwise from true north; the great-circle bearing on a sphere is
                shown beside it.

                EXAMPLE:
                  praykit qibla --lat 40.7128 --lon -74.0060
                """
        )
    }

    let coordinates: Coordinates
    let format: String

    init(_ arguments: ParsedArguments) throws(CLIError) {
        coordinates = try CommandValues.coordinates(arguments, command: Self.name)
        format = try CommandValues.format(arguments["format"], allowed: ["table", "json"], command: Self.name)
    }

    func run(service: any QiblaService) -> String {
        let qibla = service.qibla(from: coordinates)
        if format == "json" {
            var members: [(String, JSON)] = [
                ("latitude", .number(coordinates.latitude)),
                ("longitude", .number(coordinates.longitude)),
                ("direction", .number(qibla.direction)),
                ("sphericalDirection", .number(qibla.sphericalDirection)),
                ("distanceKilometers", .number(qibla.distanceKilometers)),
                ("compass", .string(qibla.compass.rawValue)),
            ]
            if let degeneracy = qibla.degeneracy {
                members.append(("degenerate", .string(degeneracy.rawValue)))
                members.append(("note", .string(degeneracy.description)))
            }
            return JSON.object(members).rendered() + "\n"
        }
        var lines = [
            "Qibla from \(coordinates.latitude.formattedCompactly), \(coordinates.longitude.formattedCompactly)",
            "Direction: \(Self.degrees(qibla.direction)) (\(qibla.compass)) clockwise from true north, along the geodesic",
            "Great circle on a sphere: \(Self.degrees(qibla.sphericalDirection))",
            "Distance: \(Self.kilometres(qibla.distanceKilometers)) km",
        ]
        if let degeneracy = qibla.degeneracy { lines.append("Note: \(degeneracy)") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func degrees(_ value: Double) -> String {
        String(format: "%.2f°", value)
    }

    static func kilometres(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
