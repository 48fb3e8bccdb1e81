import PrayCore

/// `praykit methods`: every calculation method with its parameters.
enum MethodsCommand: Command {
    static let name = "methods"
    static let abstract = "List the calculation methods and their parameters."
    static let discussion = """
        A method is chosen with --method by its name, an alias, or its AlAdhan number. Below the table, each
        method's source: the authority, its published rule, and where the minute adjustments come from
        (--format json has it as 'source'). 'praykit serve' answers method=N with AlAdhan's own definition
        of N (see /v1/methods).
        """
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        if arguments[format] == .json {
            let methods = CalculationMethod.allCases.map { method in
                JSON.object([
                    ("name", .string(method.rawValue)),
                    ("displayName", .string(method.displayName)),
                    ("aliases", .array(method.aliases.map { .string($0) })),
                    ("alAdhanID", method.alAdhanID.map { .int($0) } ?? .null),
                    ("parameters", TimesOutput.parameters(method.parameters)),
                    ("source", .string(method.source)),
                ])
            }
            return try JSON.writeArray(methods, to: context.output)
        }
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
            let aliases = method.aliases + (method.alAdhanID.map { ["\($0)"] } ?? [])
            rows.append([
                method.rawValue, aliases.joined(separator: ", "),
                parameters.fajrAngle.map { "\($0.formattedCompactly)°" } ?? "-", isha, maghrib,
                adjustments.isEmpty ? "-" : adjustments, parameters.rounding.rawValue,
            ])
        }
        let sources = CalculationMethod.allCases.map { "  \($0.rawValue): \($0.source)" }
        try context.output.write(Table.render(rows) + "\nSources:\n" + sources.joined(separator: "\n") + "\n")
    }
}
