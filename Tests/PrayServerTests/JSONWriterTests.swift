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
}
