import PrayCore
import Testing

/// `ServerAPI.Fields`: read and set by name as a `[String: String]` is, kept in the order first set,
/// and equal to the same pairs in any order.
@Suite struct ServerFieldsTests {
    @Test func namesAreSetReplacedAndRemovedInTheirFirstOrder() {
        // Given
        var fields: ServerAPI.Fields = ["Content-Type": "text/plain", "ETag": "\"a\""]
        // When: one replaced, one added, one removed, one absent removed
        fields["Content-Type"] = "application/json"
        fields["Cache-Control"] = "no-store"
        fields["ETag"] = nil
        fields["Missing"] = nil
        // Then
        #expect(fields.keys == ["Content-Type", "Cache-Control"])
        #expect(fields["Content-Type"] == "application/json" && fields["content-type"] == nil)
        #expect(fields.count == 2 && !fields.isEmpty && fields.dictionary.count == 2)
        #expect(Array(fields).map(\.value) == ["application/json", "no-store"])
        #expect(fields.removeValue(forKey: "Cache-Control") == "no-store" && fields.count == 1)
        #expect(fields.removeValue(forKey: "Cache-Control") == nil)
    }

    @Test func aLiteralNameGivenTwiceKeepsItsLastValue() {
        let fields: ServerAPI.Fields = ["a": "1", "b": "2", "a": "3"]
        #expect(fields.keys == ["a", "b"] && fields["a"] == "3")
        #expect(ServerAPI.Fields().isEmpty && ServerAPI.Fields().description == "[:]")
    }

    @Test func theSamePairsInAnotherOrderAreEqualAndHashAlike() {
        // Given
        let one: ServerAPI.Fields = ["a": "1", "b": "2", "c": "3"]
        let other: ServerAPI.Fields = ["c": "3", "a": "1", "b": "2"]
        let changed: ServerAPI.Fields = ["a": "1", "b": "2", "c": "4"]
        let fewer: ServerAPI.Fields = ["a": "1", "b": "2"]
        // Then
        #expect(one == other && one.hashValue == other.hashValue)
        #expect(one != changed && one != fewer && fewer != one)
        // A value's text moved to the name is another pair: the hash is not of names and values apart
        #expect(ServerAPI.Fields(["ab": "c"]) != ServerAPI.Fields(["a": "bc"]))
        #expect(Set([one, other, changed]).count == 2)
    }

    @Test func aDictionaryAndAMergeGiveTheSamePairs() {
        // Given
        let dictionary = ["Allow": "GET", "Cache-Control": "no-store"]
        // When
        let fields = ServerAPI.Fields(dictionary)
        let merged = fields.merging(["Allow": "GET, HEAD", "Vary": "Origin"]) { $1 }
        let kept = fields.merging(["Allow": "POST"]) { first, _ in first }
        // Then
        #expect(fields.dictionary == dictionary)
        #expect(merged.dictionary == ["Allow": "GET, HEAD", "Cache-Control": "no-store", "Vary": "Origin"])
        #expect(kept["Allow"] == "GET")
        #expect(merged.description.contains(#""Vary": "Origin""#))
    }

    @Test func aRequestLowersItsHeaderNamesAndReadsTheQueryOnce() {
        // When
        let request = ServerAPI.Request(
            target: "/v1/timings?latitude=21.4&method=4&latitude=51.5&note=a+b%21",
            headers: ["If-None-Match": "\"x\"", "X-Test": "1"])
        // Then: lower-case names, found in any case; a repeated query parameter keeps its last value
        #expect(request.headers.keys == ["if-none-match", "x-test"])
        #expect(request.header("IF-NONE-MATCH") == "\"x\"" && request.headers["If-None-Match"] == nil)
        #expect(request.query.keys == ["latitude", "method", "note"])
        #expect(request.query["latitude"] == "51.5" && request.query["note"] == "a b!")
    }
}
