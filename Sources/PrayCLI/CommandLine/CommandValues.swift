import Foundation
import PrayCore

/// Reading typed values from parsed arguments, with the command's usage errors.
enum CommandValues {
    /// A finite number, or `nil` when the option is absent.
    static func number(_ arguments: ParsedArguments, _ name: String, command: String) throws(CLIError) -> Double? {
        guard let text = arguments[name] else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw .usage("--\(name) must be a number, got '\(text)'", command: command)
        }
        return value
    }

    /// A whole number, or `nil` when the option is absent.
    static func integer(_ arguments: ParsedArguments, _ name: String, command: String) throws(CLIError) -> Int? {
        guard let text = arguments[name] else { return nil }
        guard let value = Int(text) else {
            throw .usage("--\(name) must be a whole number, got '\(text)'", command: command)
        }
        return value
    }

    /// `--lat`, `--lon` and `--elevation` as checked coordinates; both of `--lat` and `--lon` are required.
    static func coordinates(_ arguments: ParsedArguments, command: String) throws(CLIError) -> Coordinates {
        guard let latitude = try number(arguments, "lat", command: command) else {
            throw .usage("Missing expected argument '--lat <deg>'", command: command)
        }
        guard let longitude = try number(arguments, "lon", command: command) else {
            throw .usage("Missing expected argument '--lon <deg>'", command: command)
        }
        let elevation = try number(arguments, "elevation", command: command) ?? 0
        do {
            return try Coordinates(latitude: latitude, longitude: longitude, elevation: elevation)
        } catch {
            throw .usage(error.message, command: command)
        }
    }

    /// A `YYYY-MM-DD` civil date, or `nil` when the option is absent.
    static func date(_ arguments: ParsedArguments, _ name: String, command: String) throws(CLIError) -> CivilDate? {
        guard let text = arguments[name] else { return nil }
        do { return try CivilDate(parsing: text) } catch { throw .usage(error.message, command: command) }
    }

    /// One of a string enumeration, or `nil` when the option is absent.
    static func choice<T: RawRepresentable & CaseIterable>(
        _ arguments: ParsedArguments, _ name: String, _: T.Type, command: String
    ) throws(CLIError) -> T? where T.RawValue == String {
        guard let text = arguments[name] else { return nil }
        guard let value = T(rawValue: text.lowercased()) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw .usage("--\(name) must be one of \(names), got '\(text)'", command: command)
        }
        return value
    }

    /// A validation message in terms of the option: `fajr-angle must be …` becomes
    /// `--fajr-angle must be …`; a message that does not start with its field's name is kept.
    static func optionMessage(_ error: ValidationError) -> String {
        error.message.hasPrefix(error.field + " ") ? "--" + error.message : error.message
    }

    /// Where the zone came from, as printed with the output.
    enum ZoneSource: String {
        case option = "--tz"
        case preferences = "config"
        case environment = "$TZ"
        case system = "system"
    }

    /// The zone from `--tz`, else `$TZ`, else the system's.
    static func zone(
        _ option: String?, environment: [String: String], command: String
    ) throws(CLIError) -> (TimeZone, ZoneSource) {
        if let option {
            guard let zone = TimeZone(identifier: option) else {
                throw .usage("Unknown time zone '\(option)'; use an IANA name such as Europe/London", command: command)
            }
            return (zone, .option)
        }
        if let variable = environment["TZ"], !variable.isEmpty {
            // POSIX allows a leading colon: TZ=:Europe/London.
            let identifier = variable.hasPrefix(":") ? String(variable.dropFirst()) : variable
            if let zone = TimeZone(identifier: identifier) { return (zone, .environment) }
        }
        return (TimeZone.current, .system)
    }

    /// The `--format` value, checked against `allowed` (the first is the default).
    static func format(_ text: String?, allowed: [String], command: String) throws(CLIError) -> String {
        let format = text?.lowercased() ?? allowed[0]
        guard allowed.contains(format) else {
            throw .usage(
                "--format must be one of \(allowed.joined(separator: ", ")), got '\(text ?? "")'", command: command)
        }
        return format
    }
}
