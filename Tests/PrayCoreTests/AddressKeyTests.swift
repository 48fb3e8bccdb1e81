import Foundation
import PrayCore
import Testing

/// One spelling of a client's address, and one key per client (an IPv4 address, an IPv6 /64), for
/// everything the server counts by address.
@Suite struct AddressKeyTests {
    typealias Configuration = ServerAPI.Configuration

    @Test func everySpellingOfAnAddressIsOne() {
        // IPv4, IPv4-mapped IPv6 in its forms, brackets and case
        for spelling in [
            "203.0.113.1", "::ffff:203.0.113.1", "[::ffff:203.0.113.1]", "0:0:0:0:0:ffff:cb00:7101", "::FFFF:CB00:7101",
        ] {
            #expect(Configuration.canonicalAddress(spelling) == "203.0.113.1", "\(spelling)")
            #expect(Configuration.addressKey(spelling) == "203.0.113.1", "\(spelling)")
        }
        // IPv6 as inet_ntop writes it
        for spelling in ["2001:DB8::7", "2001:0db8:0000:0000:0000:0000:0000:0007", "[2001:db8::7]", "2001:db8:0::7"] {
            #expect(Configuration.canonicalAddress(spelling) == "2001:db8::7", "\(spelling)")
        }
        // Not addresses: names, shortened or octal IPv4, zone indexes, garbage
        for text in [
            "example.com", "127.1", "0127.0.0.1", "1.2.3.4.5", "fe80::1%eth0", "", "::ffff:1.2.3", "1:2:3:4:5:6:7:8:9",
        ] {
            #expect(Configuration.canonicalAddress(text) == nil, "\(text)")
        }
    }

    @Test func anIPv4AddressIsItsOwnSpellingAsInetNtopWritesIt() {
        // Given: dotted quads from a fixed seed (each checked against the same address written as an
        // IPv4-mapped IPv6 address, which is parsed and written by inet_pton and inet_ntop), and forms
        // that only look like one
        var generator = SplitMix64(seed: 40)
        for _ in 0..<2_000 {
            let address = (0..<4).map { _ in String(UInt8.random(in: 0...255, using: &generator)) }.joined(
                separator: ".")
            #expect(Configuration.canonicalAddress(address) == address)
            #expect(Configuration.canonicalAddress("::ffff:" + address) == address)
            #expect(Configuration.addressKey(address) == address)
        }
        for text in [
            "256.1.1.1", "1.2.3", "1.2.3.4.", ".1.2.3.4", "01.2.3.4", "1.2.3.04", "1..3.4", "1.2.3.4 ", "1.2.3.a",
        ] {
            #expect(Configuration.canonicalAddress(text) == nil, "\(text)")
        }
        #expect(Configuration.canonicalAddress("0.0.0.0") == "0.0.0.0")
        #expect(Configuration.canonicalAddress("255.255.255.255") == "255.255.255.255")
    }

    @Test func anIPv6AddressIsCountedByItsSlash64() {
        #expect(Configuration.addressKey("2001:db8:1:2::1") == "2001:db8:1:2::/64")
        #expect(Configuration.addressKey("2001:DB8:1:2:aaaa:bbbb:cccc:dddd") == "2001:db8:1:2::/64")
        #expect(Configuration.addressKey("2001:db8:1:3::1") == "2001:db8:1:3::/64")
        #expect(Configuration.addressKey("::1") == "::/64")
        // Text that is not an address is its own key, at most 100 bytes
        #expect(Configuration.addressKey("unknown") == "unknown")
        #expect(Configuration.addressKey(String(repeating: "x", count: 500)).utf8.count == 100)
    }

    @Test func aForwardedAddressComesInItsOneSpelling() {
        var configuration = Configuration()
        configuration.trustedProxies = ["127.0.0.1"]
        #expect(configuration.clientAddress(peer: "127.0.0.1", forwardedFor: "::FFFF:203.0.113.9") == "203.0.113.9")
        #expect(configuration.clientAddress(peer: "::ffff:127.0.0.1", forwardedFor: "2001:DB8::0:7") == "2001:db8::7")
        #expect(configuration.clientAddress(peer: "198.51.100.1", forwardedFor: "203.0.113.9") == "198.51.100.1")
    }
}
