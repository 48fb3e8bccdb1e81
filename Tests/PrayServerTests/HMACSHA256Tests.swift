import Foundation
import PrayCore
import Testing

@testable import PrayServer

/// HMAC-SHA256 against RFC 4231's test cases, and the pairing-code hashes built on it.
@Suite struct HMACSHA256Tests {
    @Test(arguments: [
        // Test case 1: a 20-byte key
        (
            [UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        // Test case 2: a key shorter than the block
        (
            Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        // Test case 3: 50 bytes of 0xdd
        (
            [UInt8](repeating: 0xAA, count: 20), [UInt8](repeating: 0xDD, count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        // Test case 6: a key longer than the block, hashed first
        (
            [UInt8](repeating: 0xAA, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
    ])
    func rfc4231(_ key: [UInt8], _ message: [UInt8], _ expected: String) {
        #expect(SHA256.hex(HMACSHA256.authenticationCode(for: message, key: key)) == expected)
    }

    @Test func pairingHashesNeedTheStoresSecret() throws {
        let key = try #require(SyncServerRules.pairingKey(hex: String(repeating: "ab", count: 32)))
        let hash = SyncServerRules.pairingCodeHash("ABCDEFGHJK", key: key)
        #expect(hash.hasPrefix("hmac-sha256:") && hash != SHA256.hexHash("ABCDEFGHJK"))
        #expect(SyncServerRules.pairingHash(hash, matches: "ABCDEFGHJK", key: key))
        #expect(!SyncServerRules.pairingHash(hash, matches: "ABCDEFGHJM", key: key))
        #expect(!SyncServerRules.pairingHash(hash, matches: "ABCDEFGHJK", key: [UInt8](repeating: 1, count: 32)))
        #expect(!SyncServerRules.pairingHash(hash, matches: "ABCDEFGHJK", key: nil))
        // A code an older PrayKit kept as a plain SHA-256
        #expect(SyncServerRules.pairingHash(SHA256.hexHash("ABCDEFGHJK"), matches: "ABCDEFGHJK", key: key))
        // A secret is 64 hex digits
        #expect(
            SyncServerRules.pairingKey(hex: "abc") == nil
                && SyncServerRules.pairingKey(hex: String(repeating: "zz", count: 32)) == nil)
    }
}
