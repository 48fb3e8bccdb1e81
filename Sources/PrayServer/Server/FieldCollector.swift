import PrayCore

/// A request's values of one kind as libmicrohttpd hands them over, each name kept once: a header
/// field's repeats joined by `, ` (RFC 9110 §5.3), a query argument's repeat noted (the request is
/// refused). Names are found by comparison while there are few, through a table past
/// ``linearLimit`` — a head of a megabyte may hold tens of thousands of fields.
struct FieldCollector {
    /// The values, each name once, in the order first given.
    private(set) var fields: ServerAPI.Fields
    /// The first query argument given twice.
    private(set) var repeated: String?
    private let joinsRepeats: Bool
    /// Each name's position in ``fields``, past ``linearLimit`` values.
    private var positions: [String: Int]?

    /// The number of values up to which a repeat is found by comparing names.
    static let linearLimit = 16

    init(capacity: Int, joinsRepeats: Bool) {
        fields = ServerAPI.Fields(minimumCapacity: capacity)
        self.joinsRepeats = joinsRepeats
        if capacity > Self.linearLimit { positions = Dictionary(minimumCapacity: capacity) }
    }

    /// Takes one value.
    mutating func add(_ name: String, _ value: String) {
        let earlier: Int?
        if positions != nil {
            earlier = positions?[name]
            if earlier == nil { positions?[name] = fields.count }
        } else {
            earlier = fields.position(of: name)
        }
        guard let earlier else {
            fields.appendNew(name, value)
            return
        }
        if joinsRepeats {
            fields[position: earlier] += ", " + value
        } else {
            fields[position: earlier] = value
            if repeated == nil, !name.isEmpty { repeated = name }
        }
    }
}
