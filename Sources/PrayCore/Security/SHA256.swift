/// SHA-256 (FIPS 180-4, §6.2) in plain Swift, for what sync keeps instead of secrets: the hash of a
/// device token or a pairing code, and of a mutation's payload. Linux has no CryptoKit; this is the
/// textbook algorithm, checked against the NIST examples in the tests.
///
/// In PrayCore (`package`), not with the server's token hashing in PrayServer, because it is a plain
/// algorithm that more than the server needs: PrayServices' tests check the WMM coefficients with it.
///
/// ```swift
/// let digest = SHA256.hash(Array("abc".utf8))
/// print(SHA256.hex(digest))   // ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
/// ```
package enum SHA256 {
    /// The length of a digest, bytes.
    package static let digestBytes = 32

    /// The digest of `message`.
    package static func hash(_ message: some Sequence<UInt8>) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(Array(message))
        return hasher.finalize()
    }

    /// The digest of the UTF-8 bytes of `text`.
    package static func hash(_ text: String) -> [UInt8] {
        hash(text.utf8)
    }

    /// The digest of the UTF-8 bytes of `text`, as 64 lowercase hexadecimal digits.
    package static func hexHash(_ text: String) -> String {
        hex(hash(text))
    }

    /// Bytes as lowercase hexadecimal digits.
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// An incremental hash: feed bytes with ``update(_:)``, then take the digest once.
    package struct Hasher {
        /// H(0), FIPS 180-4 §5.3.3: the first 32 bits of the fractional parts of the square roots of
        /// the first eight primes.
        private var state: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        private var buffer: [UInt8] = []
        private var length: UInt64 = 0

        /// Creates a hasher for a new message.
        package init() {
            buffer.reserveCapacity(64)
        }

        /// Adds bytes to the message.
        package mutating func update(_ bytes: [UInt8]) {
            length &+= UInt64(bytes.count)
            var start = 0
            if !buffer.isEmpty {
                let take = min(64 - buffer.count, bytes.count)
                buffer.append(contentsOf: bytes[0..<take])
                start = take
                if buffer.count == 64 {
                    buffer.withUnsafeBufferPointer { Self.compress(&state, $0) }
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            bytes.withUnsafeBufferPointer { all in
                while start + 64 <= all.count {
                    Self.compress(&state, UnsafeBufferPointer(rebasing: all[start..<start + 64]))
                    start += 64
                }
            }
            if start < bytes.count { buffer.append(contentsOf: bytes[start...]) }
        }

        /// The digest: the message padded (§5.1.1) with a 1 bit, zeros and its length in bits.
        package mutating func finalize() -> [UInt8] {
            let bits = length &* 8
            var padding: [UInt8] = [0x80]
            let used = (buffer.count + 1) % 64
            padding.append(contentsOf: [UInt8](repeating: 0, count: (used <= 56 ? 56 - used : 120 - used)))
            for shift in stride(from: 56, through: 0, by: -8) {
                padding.append(UInt8(truncatingIfNeeded: bits >> shift))
            }
            let saved = length
            update(padding)
            length = saved
            var digest = [UInt8]()
            digest.reserveCapacity(32)
            for word in state {
                for shift in stride(from: 24, through: 0, by: -8) {
                    digest.append(UInt8(truncatingIfNeeded: word >> shift))
                }
            }
            return digest
        }

        /// K, FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the
        /// first 64 primes.
        private static let constants: [UInt32] = [
            0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
            0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
            0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
            0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
            0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
            0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
            0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
            0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
        ]

        /// One block of 64 bytes through the compression function, FIPS 180-4 §6.2.2.
        private static func compress(_ state: inout [UInt32], _ block: UnsafeBufferPointer<UInt8>) {
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                for index in 0..<16 {
                    let offset = index * 4
                    schedule[index] =
                        UInt32(block[offset]) << 24 | UInt32(block[offset + 1]) << 16 | UInt32(block[offset + 2]) << 8
                        | UInt32(block[offset + 3])
                }
                for index in 16..<64 {
                    let early = schedule[index - 15]
                    let late = schedule[index - 2]
                    let sigma0 = early.rotatedRight(7) ^ early.rotatedRight(18) ^ (early >> 3)
                    let sigma1 = late.rotatedRight(17) ^ late.rotatedRight(19) ^ (late >> 10)
                    schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
                }
                var (a, b, c, d) = (state[0], state[1], state[2], state[3])
                var (e, f, g, h) = (state[4], state[5], state[6], state[7])
                for index in 0..<64 {
                    let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                    let choice = (e & f) ^ (~e & g)
                    let temporary1 = h &+ sum1 &+ choice &+ constants[index] &+ schedule[index]
                    let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let temporary2 = sum0 &+ majority
                    (h, g, f, e) = (g, f, e, d &+ temporary1)
                    (d, c, b, a) = (c, b, a, temporary1 &+ temporary2)
                }
                state[0] &+= a
                state[1] &+= b
                state[2] &+= c
                state[3] &+= d
                state[4] &+= e
                state[5] &+= f
                state[6] &+= g
                state[7] &+= h
            }
        }
    }
}

extension UInt32 {
    /// ROTR, FIPS 180-4 §3.2.
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
