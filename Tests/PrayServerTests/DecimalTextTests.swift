import PrayCore
import Testing

@testable import PrayServer

/// The reader of the coordinates' text: the same `Double` as `Double(_:)` for every text.
@Suite struct DecimalTextTests {
    @Test func plainDecimalsReadAsDoubleReadsThem() {
        // Given: coordinates as clients send them (a program printing a Double sends 17 digits), the
        // decimals nearest to halfway between two Doubles, and texts of every length; fixed seeds
        var generator = SplitMix64(seed: 40)
        var texts = [
            "0", "-0", "-0.0", "0.5", "51.5074", "-0.1278", "21.4225", "39.8262", "00012.5000", "180", "-180.0",
            "9007199254740993", "0.1", "0.30000000000000004", "1.7976931348623157", "1234567890123456789",
            "0.0000000000000000001", "9999999999999999999", "0.9999999999999999999", "2.5", "45.000000000000000",
        ]
        func index(_ count: Int) -> Int { Int.random(in: 0..<count, using: &generator) }
        for _ in 0..<20_000 {
            texts.append("\(Double.random(in: -180...180, using: &generator))")
            texts.append("\(Float.random(in: -90...90, using: &generator))")
            let digits = Int.random(in: 1...19, using: &generator)
            let point = Int.random(in: 0...digits, using: &generator)
            var text = Int.random(in: 0...1, using: &generator) == 0 ? "-" : ""
            for index in 0..<digits {
                if index == point, index > 0 { text += "." }
                text += String(Int.random(in: 0...9, using: &generator))
            }
            texts.append(text)
            // Exactly halfway between two Doubles (ties go to the even one): odd integers above 2⁵³,
            // n.5 in [2⁵², 2⁵³), n.25 and n.75 below, n.125 … n.875 below that
            texts.append(String(UInt64(1) << 53 + 2 * UInt64.random(in: 0..<(1 << 52), using: &generator) + 1))
            texts.append("\(UInt64.random(in: (1 << 52)..<(1 << 53), using: &generator)).5")
            texts.append("\(UInt64.random(in: (1 << 51)..<(1 << 52), using: &generator)).\(["25", "75"][index(2)])")
            let eighths = ["125", "375", "625", "875"]
            texts.append("\(UInt64.random(in: (1 << 50)..<(1 << 51), using: &generator)).\(eighths[index(4)])")
        }
        var differences: [String] = []
        for text in texts {
            // When
            let fast = DecimalText.fast(text)
            // Then: the same bits (the sign of zero too), or left to Double(_:)
            if let fast, fast.bitPattern != Double(text)?.bitPattern { differences.append(text) }
        }
        #expect(differences.isEmpty, "\(differences.prefix(10))")
        #expect(DecimalText.fast("51.5074") == 51.5074)
        #expect(DecimalText.fast("-0")?.sign == .minus)
    }

    @Test func otherShapesAreLeftToTheStandardReader() {
        for text in [
            "", "-", ".5", "5.", "+5", "1e5", "1E-3", " 5", "5 ", "1.2.3", "--1", "1-",
            "12345678901234567890", "0.12345678901234567890", "٥",
        ] {
            #expect(DecimalText.fast(text) == nil, "\(text)")
            #expect(DecimalText.double(text)?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    @Test func textThatIsNotDecimalIsRefused() {
        // Double(_:) reads these (16, infinity, NaN): none is a number of decimal degrees.
        for text in ["0x10", "0x1p3", "inf", "-infinity", "nan", "NaN"] {
            #expect(Double(text) != nil, "\(text)")
            #expect(DecimalText.double(text) == nil, "\(text)")
        }
    }
}
