import Foundation
import Testing

@testable import PrayServer

/// The AlAdhan answers' entity tags: a short quoted token that changes with any byte of the body.
@Suite struct EntityTagTests {
    @Test func aTagIsElevenCharactersOfBase64URLInQuotes() {
        let tag = AlAdhanRoutes.entityTag(Data(#"{"code":200,"status":"OK","data":{}}"#.utf8))
        #expect(tag.utf8.count == 13 && tag.hasPrefix("\"") && tag.hasSuffix("\""))
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        #expect(tag.utf8.dropFirst().dropLast().allSatisfy { alphabet.contains($0) })
        #expect(AlAdhanRoutes.entityTag(Data(#"{"code":200,"status":"OK","data":{}}"#.utf8)) == tag)
    }

    @Test func anyChangedByteOrLengthChangesTheTag() {
        // Given: bodies of every length to 200 bytes (whole 64-byte steps, 8-byte words and the last
        // bytes), each byte changed in turn, and the same bytes one longer with a zero
        var tags: Set<String> = []
        var bodies: Set<[UInt8]> = []
        for length in 0...200 {
            let body = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            var variants = [body, body + [0]]
            for index in body.indices {
                var changed = body
                changed[index] ^= 0x20
                variants.append(changed)
            }
            for variant in variants {
                // When
                tags.insert(AlAdhanRoutes.entityTag(Data(variant)))
                bodies.insert(variant)
            }
        }
        // Then: no two different bodies share a tag
        #expect(tags.count == bodies.count)
    }
}
