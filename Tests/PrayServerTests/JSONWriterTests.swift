import PrayCore
import Testing

@testable import PrayServer

/// The byte writer of the AlAdhan answers: its fast paths give the text the general ones would.
@Suite struct JSONWriterTests {
    @Test func clockWritesHoursAndMinutesWithOrWithoutTheZoneAbbreviation() {
        // Given
        var json = JSONWriter(capacity: 16)  // small: the longer times make it grow
        // When
        json.beginArray()
        json.clock(0)
        json.clock(5 * 3600 + 21 * 60 + 59)
        json.clock(23 * 3600 + 59 * 60, abbreviation: Array("+0530".utf8))
        json.clock(9 * 3600 + 7 * 60, abbreviation: Array("GMT".utf8))
        json.endArray()
        // Then
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"["00:00","05:21","23:59 (+0530)","09:07 (GMT)"]"#)
    }

    @Test func literalKeysAndTextKeysWriteTheSameMember() {
        // Given
        var literal = JSONWriter()
        var text = JSONWriter()
        // When
        literal.beginObject()
        literal.key("timings")
        literal.int(1)
        literal.endObject()
        text.beginObject()
        text.key(text: "timings")
        text.int(1)
        text.key(text: "say \"hi\"\n")
        text.null()
        text.endObject()
        // Then: a text key is escaped like a string
        #expect(String(decoding: literal.bytes, as: UTF8.self) == #"{"timings":1}"#)
        #expect(String(decoding: text.bytes, as: UTF8.self) == #"{"timings":1,"say \"hi\"\u000a":null}"#)
    }

    @Test func piecesOfEveryShortLengthAreCopiedWhole() {
        // Given: keys of 1 to 18 bytes (up to 16 are copied as two words that may overlap, without
        // memcpy) and runs of text of 0 to 40 bytes, each different from its neighbours
        let keys: [(StaticString, String)] = [
            ("a" as StaticString, "a"),
            ("ab" as StaticString, "ab"),
            ("abc" as StaticString, "abc"),
            ("abcd" as StaticString, "abcd"),
            ("abcde" as StaticString, "abcde"),
            ("abcdef" as StaticString, "abcdef"),
            ("abcdefg" as StaticString, "abcdefg"),
            ("abcdefgh" as StaticString, "abcdefgh"),
            ("abcdefghi" as StaticString, "abcdefghi"),
            ("abcdefghij" as StaticString, "abcdefghij"),
            ("abcdefghijk" as StaticString, "abcdefghijk"),
            ("abcdefghijkl" as StaticString, "abcdefghijkl"),
            ("abcdefghijklm" as StaticString, "abcdefghijklm"),
            ("abcdefghijklmn" as StaticString, "abcdefghijklmn"),
            ("abcdefghijklmno" as StaticString, "abcdefghijklmno"),
            ("abcdefghijklmnop" as StaticString, "abcdefghijklmnop"),
            ("abcdefghijklmnopq" as StaticString, "abcdefghijklmnopq"),
            ("abcdefghijklmnopqr" as StaticString, "abcdefghijklmnopqr"),
        ]
        var json = JSONWriter(capacity: 16)  // small: it grows on the way
        var expected = "{"
        // When
        json.beginObject()
        for (index, (key, spelling)) in keys.enumerated() {
            json.key(key)
            let run = (0..<(index * 40 / keys.count)).map { UInt8(ascii: "A") + UInt8(($0 * 7 + index) % 26) }
            json.value { $0.text(run) }
            expected += (index == 0 ? "" : ",") + "\"\(spelling)\":" + String(decoding: run, as: UTF8.self)
        }
        json.endObject()
        expected += "}"
        // Then
        #expect(String(decoding: json.bytes, as: UTF8.self) == expected)
    }

    @Test func numbersWithAFractionAreTheShortestDecimalThatReadsBack() {
        // Given: coordinates as clients send them, 17 significant digits, the extremes, and numbers
        // written with an exponent; from a fixed seed, so the same values every run
        var generator = SplitMix64(seed: 40)
        var values: [Double] = [
            0, -0.0, 51.5074, -0.1278, 21.4225, 39.8262, -33.868_820_1, 1e-5, 0.000_1, 1e16, 123_456_789_012_345_680,
            .leastNonzeroMagnitude, -.leastNormalMagnitude, .greatestFiniteMagnitude, -2.225_073_858_507_201_4e-308,
        ]
        for _ in 0..<2_000 {
            values.append(Double(bitPattern: generator.next()))
            values.append(Double.random(in: -180...180, using: &generator))
        }
        for value in values {
            // When
            var json = JSONWriter(capacity: 16)  // small: a long number makes it grow
            json.beginArray()
            json.double(value)
            json.double(value)
            json.endArray()
            // Then: `description`'s text, and `null` for what JSON cannot hold
            let text = value.isFinite ? value.description : "null"
            #expect(String(decoding: json.bytes, as: UTF8.self) == "[\(text),\(text)]")
        }
    }

    @Test func wholeNumbersAreTheirDigitsPaddedToTheWidth() {
        // Given: every number to 10,000 (the short path) and beyond it, negative ones, the extremes
        var values = Array(0...10_001) + [99_999, 123_456, 1_788_235_200, -1, -42, -10_000, .max, .min]
        values += [Int.max - 1, Int.min + 1]
        var differences: [String] = []
        for value in values {
            for width in 1...6 {
                // When
                var json = JSONWriter(capacity: 16)
                json.beginArray()
                json.intString(value, width: width)
                json.int(value)
                json.endArray()
                // Then: the digits, zero-padded to the width after any minus sign
                let digits = String(value.magnitude)
                let padded =
                    (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
                let expected = "[\"\(padded)\",\(value)]"
                let text = String(decoding: json.bytes, as: UTF8.self)
                if text != expected { differences.append("\(text) for \(value), width \(width)") }
            }
        }
        #expect(differences.isEmpty, "\(differences.prefix(5))")
    }

    @Test func aDateIsDayMonthAndYearPadded() {
        // Given: four-digit years (one check of the room) and the others, in both widths
        let cases: [(Int, Int, Int, Int, String)] = [
            (1, 3, 2027, 4, "01-03-2027"), (31, 12, 9999, 4, "31-12-9999"), (9, 9, 1000, 1, "09-09-1000"),
            (29, 2, 1448, 1, "29-02-1448"), (1, 1, 1, 4, "01-01-0001"), (15, 7, 622, 1, "15-07-622"),
            (30, 1, 999, 4, "30-01-0999"), (2, 11, 12_026, 4, "02-11-12026"),
        ]
        for (day, month, year, width, expected) in cases {
            // When
            var json = JSONWriter(capacity: 16)
            json.quoted { $0.dayMonthYear(day, month, year, yearWidth: width) }
            // Then
            #expect(String(decoding: json.bytes, as: UTF8.self) == "\"\(expected)\"")
        }
    }
}
