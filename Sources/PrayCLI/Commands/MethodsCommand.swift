import PrayCore

/// `praykit methods`: every calculation method with its parameters.
struct MethodsCommand {
    static let name = "methods"
    static let overview = "List the calculation methods and their parameters."
    static let usage = "praykit methods [--format <format>]"
    static let options: [OptionSpec] = [
        .format(["table", "json"])
    ]

    static var help: String {
        HelpText.render(overview: overview, usage: usage, options: options)
    }

    let format: String

    init(_ arguments: ParsedArguments) throws(CLIError) {
        format = try CommandValues.format(arguments["format"], allowed: ["table", "json"], command: Self.name)
    }

    func run() -> String {
        format == "json" ? json() : table()
    }

    private func json() -> String {
        let methods = CalculationMethod.allCases.map { method in
            JSON.object([
                ("name", .string(method.rawValue)),
                ("displayName", .string(method.displayName)),
                ("aliases", .array(method.aliases.map { .string($0) })),
                ("parameters", TimesOutput.parameters(method.parameters)),
            ])
        }
        return JSON.array(methods).rendered() + "\n"
    }

    private func table() -> String {
        var rows = [["Method", "Aliases", "Fajr", "Isha", "Maghrib", "Adjustments (min)", "Rounding"]]
        for method in CalculationMethod.allCases {
            let parameters = method.parameters
            let isha =
                parameters.ishaInterval.map { "\($0) min" } ?? parameters.ishaAngle.map { "\($0.formattedCompactly)°" }
                ?? "-"
            let maghrib =
                parameters.maghribAngle.map { "\($0.formattedCompactly)°" }
                ?? parameters.maghribInterval.map { "+\($0) min" } ?? "sunset"
            var adjustments = parameters.methodAdjustments.description
            if parameters.seasonalTwilight != nil {
                adjustments += (adjustments.isEmpty ? "" : "; ") + "seasonal fajr/isha"
            }
            rows.append([
                method.rawValue, method.aliases.joined(separator: ", "),
                parameters.fajrAngle.map { "\($0.formattedCompactly)°" } ?? "-", isha, maghrib,
                adjustments.isEmpty ? "-" : adjustments, parameters.rounding.rawValue,
            ])
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        let lines = rows.map { row in
            row.enumerated().map { $1 + String(repeating: " ", count: widths[$0] - $1.count) }
                .joined(separator: "  ").reversed().drop { $0 == " " }.reversed()
        }
        return lines.map { String($0) }.joined(separator: "\n") + "\n"
    }
}
