import Foundation

/// A strict reader of RFC 5545 text, for the tests: CRLF line ends, lines of at most 75 octets,
/// continuation lines, balanced BEGIN/END, and the properties every VEVENT needs.
struct ICalendar {
    struct Component {
        let name: String
        var properties: [String: String] = [:]
        var components: [Component] = []
        subscript(name: String) -> String? { properties[name] }
    }

    var properties: [String: String] = [:]
    var components: [Component] = []

    enum Failure: Error { case invalid(String) }

    static func parse(_ text: String) throws -> ICalendar {
        guard text.hasSuffix("\r\n") else { throw Failure.invalid("the text does not end in CRLF") }
        // "\r\n" is one Character in Swift: drop it as one.
        let physical = text.dropLast(1).components(separatedBy: "\r\n")
        var lines: [String] = []
        for line in physical {
            guard line.utf8.count <= 75 else { throw Failure.invalid("line longer than 75 octets: \(line)") }
            guard !line.contains("\n"), !line.contains("\r") else { throw Failure.invalid("bare LF or CR") }
            if line.hasPrefix(" ") {
                guard !lines.isEmpty else { throw Failure.invalid("continuation first") }
                lines[lines.count - 1] += line.dropFirst()
            } else {
                lines.append(line)
            }
        }
        var stack: [Component] = []
        var calendar: ICalendar?
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw Failure.invalid("no colon: \(line)") }
            let name = String(line[..<colon]).split(separator: ";")[0].uppercased()
            let value = String(line[line.index(after: colon)...])
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                throw Failure.invalid("bad name \(name)")
            }
            switch name {
            case "BEGIN": stack.append(Component(name: value))
            case "END":
                guard let component = stack.popLast(), component.name == value else {
                    throw Failure.invalid("END:\(value) does not close its BEGIN")
                }
                if component.name == "VEVENT" {
                    for required in ["UID", "DTSTAMP", "DTSTART"] where component[required] == nil {
                        throw Failure.invalid("VEVENT without \(required)")
                    }
                }
                if component.name == "VALARM", component["ACTION"] == nil || component["TRIGGER"] == nil {
                    throw Failure.invalid("VALARM without ACTION or TRIGGER")
                }
                if stack.isEmpty {
                    guard component.name == "VCALENDAR" else { throw Failure.invalid("top level \(component.name)") }
                    calendar = ICalendar(properties: component.properties, components: component.components)
                } else {
                    stack[stack.count - 1].components.append(component)
                }
            default:
                guard !stack.isEmpty else { throw Failure.invalid("property outside a component") }
                stack[stack.count - 1].properties[name] = value
            }
        }
        guard stack.isEmpty, let calendar else { throw Failure.invalid("unbalanced components") }
        guard calendar.properties["VERSION"] == "2.0", calendar.properties["PRODID"] != nil else {
            throw Failure.invalid("VCALENDAR without VERSION 2.0 and PRODID")
        }
        return calendar
    }
}
