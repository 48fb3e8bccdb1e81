import PrayCore

/// HMAC-SHA256 (RFC 2104, FIPS 198-1) over ``SHA256``: what the sync stores keep of a pairing code,
/// keyed with a secret of the store, so that a copy of the codes' table alone (a leaked backup of
/// it, a query that reads it) cannot be searched for the 40 secret bits of a live code offline, as a
/// plain SHA-256 of the code could. Checked against RFC 4231's test cases.
///
/// ```swift
/// let tag = HMACSHA256.authenticationCode(for: Array("ABCDEFGHJK".utf8), key: key)
/// print(SHA256.hex(tag))
/// ```
package enum HMACSHA256 {
    /// SHA-256's block, bytes: a longer key is hashed first, a shorter one padded with zeros.
    private static let blockBytes = 64

    /// The 32-byte authentication code of `message` under `key`.
    package static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var block = key.count > blockBytes ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: blockBytes - block.count)
        var inner = SHA256.Hasher()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256.Hasher()
        outer.update(block.map { $0 ^ 0x5C })
        outer.update(inner.finalize())
        return outer.finalize()
    }
}
