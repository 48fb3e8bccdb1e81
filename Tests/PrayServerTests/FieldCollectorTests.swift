import PrayCore
import Testing

@testable import PrayServer

/// How the server keeps a request's values (`FieldCollector`): each name once, a header field's repeats
/// joined, a query argument's first repeat noted — the same whether the names are compared one by one
/// (up to `linearLimit`) or found through a table.
@Suite struct FieldCollectorTests {
    /// The values `names` collected as header fields or as a query, for a collector made for `capacity`.
    func collect(_ names: [String], capacity: Int, header: Bool) -> FieldCollector {
        var collector = FieldCollector(capacity: capacity, joinsRepeats: header)
        for (index, name) in names.enumerated() { collector.add(name, "\(index)") }
        return collector
    }

    @Test func repeatsAreJoinedOrNotedAlikeWithFewAndManyNames() {
        // Given: a few names with repeats, and forty more than the linear limit
        let few = ["accept", "x-test", "host", "x-test", "x-test"]
        let many = few + (0..<(FieldCollector.linearLimit + 40)).map { "x-\($0)" } + ["host"]
        for names in [few, many] {
            // When
            let headers = collect(names, capacity: names.count, header: true)
            let query = collect(names, capacity: names.count, header: false)
            // Then: every name once in its first order, header repeats joined in order
            let unique = names.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            #expect(headers.fields.keys == unique && query.fields.keys == unique)
            #expect(headers.fields["x-test"] == "1, 3, 4" && headers.repeated == nil)
            #expect(headers.fields["host"] == (names.count > 5 ? "2, \(names.count - 1)" : "2"))
            // A query keeps the last value and names the first name it saw twice
            #expect(query.fields["x-test"] == "4" && query.repeated == "x-test")
        }
    }

    @Test func anEmptyNameGivenTwiceIsNotNamedAsTheRepeat() {
        let query = collect(["", "", "a"], capacity: 3, header: false)
        #expect(query.repeated == nil && query.fields.keys == ["", "a"])
    }
}
