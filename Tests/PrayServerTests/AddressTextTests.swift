// The server is libmicrohttpd, a Linux dependency of PrayServer (Package.swift).
#if canImport(CMicroHTTPD)
    import CMicroHTTPD
    import Testing

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The client's address as the server writes it for every request (`praykit_mhd_address_text`):
    /// an IPv4 address, plain or IPv4-mapped, spelt exactly as `inet_ntop` spells it.
    @Suite struct AddressTextTests {
        /// The server's text of an IPv4 address, in a buffer of `capacity` bytes, or `nil` when refused.
        static func text(ipv4 bytes: [UInt8], mapped: Bool, capacity: Int = 64) -> String? {
            var buffer = [CChar](repeating: 0x7F, count: capacity)
            let result: Int32
            if mapped {
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                withUnsafeMutableBytes(of: &address.sin6_addr) { raw in
                    raw[10] = 0xFF
                    raw[11] = 0xFF
                    for index in 0..<4 { raw[12 + index] = bytes[index] }
                }
                result = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        praykit_mhd_address_text($0, &buffer, capacity)
                    }
                }
            } else {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                withUnsafeMutableBytes(of: &address.sin_addr) { raw in
                    for index in 0..<4 { raw[index] = bytes[index] }
                }
                result = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        praykit_mhd_address_text($0, &buffer, capacity)
                    }
                }
            }
            guard result == 0 else {
                #expect(buffer[0] == 0, "a refused address leaves an empty text")
                return nil
            }
            return Self.text(of: buffer)
        }

        /// The text of a C string in `buffer`, up to its terminator.
        static func text(of buffer: [CChar]) -> String {
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// `inet_ntop`'s text of the same address.
        static func reference(_ bytes: [UInt8]) -> String {
            var address = in_addr()
            withUnsafeMutableBytes(of: &address) { raw in
                for index in 0..<4 { raw[index] = bytes[index] }
            }
            var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            _ = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
            return text(of: buffer)
        }

        @Test func everyOctetValueInEveryPlaceIsWrittenAsInetNtopWritesIt() {
            var generator = SystemRandomNumberGenerator()
            var checked = 0
            for place in 0..<4 {
                for value in 0...255 {
                    var bytes = (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) }
                    bytes[place] = UInt8(value)
                    let expected = Self.reference(bytes)
                    #expect(Self.text(ipv4: bytes, mapped: false) == expected, "\(bytes)")
                    #expect(Self.text(ipv4: bytes, mapped: true) == expected, "\(bytes) as IPv4-mapped")
                    checked += 1
                }
            }
            for bytes: [UInt8] in [[0, 0, 0, 0], [255, 255, 255, 255], [127, 0, 0, 1], [10, 0, 100, 9]] {
                #expect(Self.text(ipv4: bytes, mapped: false) == Self.reference(bytes))
                checked += 1
            }
            #expect(checked == 1_028)
        }

        @Test func aBufferTooSmallForTheTextIsRefusedNotCut() {
            let bytes: [UInt8] = [255, 255, 255, 255]
            // "255.255.255.255" is 15 bytes and its terminator one more.
            #expect(Self.text(ipv4: bytes, mapped: false, capacity: 16) == "255.255.255.255")
            #expect(Self.text(ipv4: bytes, mapped: false, capacity: 15) == nil)
            #expect(Self.text(ipv4: [1, 2, 3, 4], mapped: true, capacity: 8) == "1.2.3.4")
            #expect(Self.text(ipv4: [1, 2, 3, 4], mapped: true, capacity: 7) == nil)
        }
    }
#endif
