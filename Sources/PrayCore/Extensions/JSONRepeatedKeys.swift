#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Finds a name given twice in one JSON object. RFC 8259 §4 leaves such an object's meaning to the
/// reader, and readers differ: `JSONDecoder` keeps one of the values, `jq` and Python the last. A file
/// that a person checks with one tool and PrayKit reads with another must not mean two things, so
/// what PrayKit imports is refused when one of its objects repeats a name.
package enum JSONRepeatedKeys {
    /// The first name repeated within one object of `data`, with its escapes decoded (`"a"` and
    /// `"\u0061"` are the same name), or `nil` when no object repeats one. `data` is taken to be JSON a
    /// decoder has read already: on text that is not, the answer is `nil` or any name.
    package static func first(in data: Data) -> String? {
        let bytes = [UInt8](data)
        // One entry per open container: the names of an object so far (their UTF-8), `nil` for an array.
        var containers: [Set<[UInt8]>?] = []
        // Whether the next string of the innermost object is a name (after `{` or `,`).
        var expectingName = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "{"):
                containers.append([])
                expectingName = true
            case UInt8(ascii: "["):
                containers.append(nil)
                expectingName = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = containers.popLast()
                expectingName = false
            case UInt8(ascii: ","):
                expectingName = containers.last.map { $0 != nil } ?? false
            case UInt8(ascii: "\""):
                guard expectingName, let last = containers.indices.last else {
                    index = JSONStringText.end(bytes, from: index)
                    continue
                }
                guard let name = JSONStringText.read(bytes, at: &index) else { return nil }
                expectingName = false
                if containers[last]?.insert(Array(name.utf8)).inserted == false { return name }
            default:
                continue
            }
        }
        return nil
    }
}
