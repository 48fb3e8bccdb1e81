import Foundation
import Testing

@testable import PrayCore

/// A name given twice in one JSON object is found wherever it is, and only then.
@Suite struct JSONRepeatedKeysTests {
    func first(_ text: String) -> String? {
        JSONRepeatedKeys.first(in: Data(text.utf8))
    }

    @Test func aNameTwiceInOneObjectIsFoundAtAnyDepth() {
        #expect(first(#"{"a":1,"b":2,"a":3}"#) == "a")
        #expect(first(#"{"x":{"y":[{"z":1},{"z":2,"q":0,"z":3}]}}"#) == "z")
        #expect(first(#"[1,{"list":[],"list":[1]}]"#) == "list")
        // The same name written with an escape is the same name (RFC 8259 §8.3).
        #expect(first(#"{"a":1,"\u0061":2}"#) == "a")
        #expect(first(#"{"😀":1,"\ud83d\ude00":2}"#) == "😀")
        #expect(first(#"{"a\"b":1,"a\u0022b":2}"#) == #"a"b"#)
    }

    @Test func namesOfOtherObjectsAndStringValuesAreNotNames() {
        #expect(first(#"{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}"#) == nil)
        // Values that look like names, with quotes, braces and commas inside them.
        #expect(first(#"{"a":"a","b":"\",\"a\":{","c":["a","a"]}"#) == nil)
        #expect(first(#"{"a":"}","b":"]","c":"{\"a\":1,\"a\":2}"}"#) == nil)
        #expect(first(#"[{"a":1},{"a":2}]"#) == nil)
        #expect(first(#""a""#) == nil)
        #expect(first("{}") == nil)
        #expect(first(#"{"a":[],"A":{}}"#) == nil)
    }
}
