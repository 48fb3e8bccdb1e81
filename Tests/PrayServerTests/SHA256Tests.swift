import Foundation
import PrayCore
import PrayServer
import Testing

/// SHA-256 against the examples of NIST (FIPS 180-4's "abc", the empty message, the 448- and 896-bit
/// messages, a million "a"), padding at every block boundary against Python's hashlib, and the
/// comparison and base64url that carry tokens.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                + "mnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func nistExamples(message: String, digest: String) {
        #expect(SHA256.hexHash(message) == digest)
    }

    @Test func aMillionAs() {
        // Given: fed in uneven pieces, so that buffering across blocks is exercised too
        var hasher = SHA256.Hasher()
        var left = 1_000_000
        var piece = 1
        while left > 0 {
            let count = min(piece, left)
            hasher.update([UInt8](repeating: UInt8(ascii: "a"), count: count))
            left -= count
            piece = piece * 3 % 9_973 + 1
        }
        // Then
        #expect(SHA256.hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(
            SHA256.hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the padding's edges (55 bytes fit one block, 56 need two), from hashlib.
    @Test(arguments: [
        (55, "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59"),
        (56, "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562"),
        (63, "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488"),
        (64, "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108"),
        (65, "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781"),
        (119, "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6"),
        (120, "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c"),
        (128, "471fb943aa23c511f6f72f8d1652d9c880cfa392ad80503120547703e56a2be5"),
    ])
    func blockBoundaries(length: Int, digest: String) {
        let message = (0..<length).map { UInt8($0 % 251) }
        #expect(SHA256.hex(SHA256.hash(message)) == digest)
        // Byte by byte gives the same digest
        var hasher = SHA256.Hasher()
        for byte in message { hasher.update([byte]) }
        #expect(SHA256.hex(hasher.finalize()) == digest)
    }

    @Test func constantTimeComparison() {
        #expect(ConstantTime.equals("pkd_abc", "pkd_abc"))
        #expect(!ConstantTime.equals("pkd_abc", "pkd_abd"))
        #expect(!ConstantTime.equals("pkd_abc", "pkd_ab"))
        #expect(!ConstantTime.equals("", "a"))
        #expect(ConstantTime.equals("", ""))
        // Lengths that differ by a multiple of 256 are still different
        #expect(!ConstantTime.equals([UInt8](repeating: 0, count: 256), []))
    }

    /// RFC 4648 §10's examples in the URL alphabet, without padding.
    @Test func base64URL() {
        let examples = [
            "": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy",
        ]
        for (plain, encoded) in examples {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xfb, 0xff, 0xbf])
        // Not canonical, padded, impossible length, outside the alphabet
        for bad in ["Zh", "Zg==", "Z", "Zm9v+", "Zm9v/", "Zm 9"] { #expect(Base64URL.decode(bad) == nil, "\(bad)") }
        // Every length round-trips
        for count in 0...70 {
            let bytes = (0..<count).map { UInt8(($0 * 37 + 11) % 256) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }
}
