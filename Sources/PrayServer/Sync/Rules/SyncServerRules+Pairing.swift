import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - Pairing codes

extension SyncServerRules {
    /// The key in the `store` table of the secret that pairing codes are hashed with.
    package static let pairingKeyName = "pairing-key"
    /// Random bytes in that secret: 256 bits.
    package static let pairingKeyBytes = 32
    /// What begins the stored hash of a code made with the store's secret. A hash without it is the
    /// plain SHA-256 of a code made before the store had a secret (PrayKit before the secret): such a
    /// code works until it expires, within ``SyncStoreLimits/pairingCodeLifetime`` of the upgrade.
    package static let pairingHashScheme = "hmac-sha256:"

    /// A new secret for a store's pairing codes, in hex.
    package static func newPairingKey<G: RandomNumberGenerator>(using generator: inout G) -> String {
        SHA256.hex(randomBytes(pairingKeyBytes, using: &generator))
    }

    /// The stored hash of a normalised code under the store's secret: `hmac-sha256:` and the
    /// HMAC-SHA256 of the code in hex.
    package static func pairingCodeHash(_ code: String, key: [UInt8]) -> String {
        pairingHashScheme + SHA256.hex(HMACSHA256.authenticationCode(for: Array(code.utf8), key: key))
    }

    /// Whether a stored hash is that of `code`: an HMAC under `key` (when the store has one), or a
    /// plain SHA-256 (a code made before it had one). Compared in constant time.
    package static func pairingHash(_ stored: String, matches code: String, key: [UInt8]?) -> Bool {
        if stored.hasPrefix(pairingHashScheme) {
            guard let key else { return false }
            return ConstantTime.equals(stored, pairingCodeHash(code, key: key))
        }
        return ConstantTime.equals(stored, SHA256.hexHash(code))
    }

    /// The bytes of a secret kept in hex, or `nil` for text that is not 64 hex digits.
    package static func pairingKey(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == pairingKeyBytes * 2 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pairingKeyBytes)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// `rate_limited` for attempts at a pairing code that had ``SyncStoreLimits/maximumAttemptsPerCode``
    /// wrong ones within ``SyncStoreLimits/pairingCodeFailureWindow`` (counted apart from the address's
    /// failures): the code stays valid, and works again when the window ends.
    package static func codeRateLimited(windowStart start: Int64, window: TimeInterval, now: Date) -> SyncServerError {
        let seconds = retryAfter(windowStart: start, window: window, now: now)
        return SyncServerError(
            .rateLimited, message: "too many wrong pairing codes were tried: try again in \(seconds) seconds",
            retryAfter: seconds)
    }
}
