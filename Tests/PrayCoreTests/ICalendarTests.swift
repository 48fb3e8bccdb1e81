import Foundation
import PrayCore
import Testing

/// PrayKit's one iCalendar writer (RFC 5545), as `praykit calendar` and the feeds of `praykit serve`
/// use it: folding, escaping, UTC times and the lines of an event.
@Suite struct ICalendarTests {
    @Test func linesFoldAt75OctetsNeverInsideACharacter() {
        // Given: a line of 2-byte letters that crosses 75 octets
        let line = "SUMMARY:" + String(repeating: "é", count: 60)
        // When
        let folded = ICalendar.fold(line)
        // Then: every physical line has at most 75 octets, continuation lines start with a space, and
        // unfolding gives the line back
        let physical = folded.components(separatedBy: "\r\n").dropLast()
        #expect(physical.count == 2 && physical.allSatisfy { $0.utf8.count <= 75 })
        #expect(physical.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(physical.map { $0.hasPrefix(" ") ? String($0.dropFirst()) : $0 }.joined() == line)
        #expect(ICalendar.fold("END:VCALENDAR") == "END:VCALENDAR\r\n")
    }

    @Test func textIsEscapedAndControlCharactersReplaced() {
        #expect(ICalendar.text("a,b;c\\d") == "a\\,b\\;c\\\\d")
        #expect(ICalendar.text("one\r\ntwo\nthree\rfour") == "one\\ntwo\\nthree\\nfour")
        // A bell and a right-to-left override (which could make a calendar show the text reversed) alike.
        #expect(ICalendar.text("tab\there\u{7}\u{202E}") == "tab\there\u{FFFD}\u{FFFD}")
    }

    @Test func timesAreUTCToTheSecond() {
        #expect(ICalendar.utc(Date(timeIntervalSince1970: 1_795_953_600.4)) == "20261129T120000Z")
        #expect(ICalendar.utc(Date(timeIntervalSince1970: -1)) == "19691231T235959Z")
    }

    @Test func anEventHasItsSequenceAndLastModifiedWhenGiven() throws {
        // Given
        let start = Date(timeIntervalSince1970: 1_814_425_800)
        var event = ICalendar.Event(
            uid: "20270701-fajr-0123456789abcdef@praykit", stamp: start, start: start,
            end: start.addingTimeInterval(1200), summary: "Fajr", description: "Fajr, then iqama",
            location: "East London Mosque", coordinates: try Coordinates(latitude: 51.5177, longitude: -0.0653),
            alarms: [.init(minutesBefore: 10, description: "Fajr in 10 minutes")])
        // When
        let plain = ICalendar.lines(of: event)
        event.sequence = 7
        event.lastModified = start
        let feed = ICalendar.lines(of: event)
        // Then
        #expect(!plain.contains { $0.hasPrefix("SEQUENCE") || $0.hasPrefix("LAST-MODIFIED") })
        #expect(
            feed == [
                "BEGIN:VEVENT", "UID:20270701-fajr-0123456789abcdef@praykit", "DTSTAMP:20270701T071000Z",
                "SEQUENCE:7", "LAST-MODIFIED:20270701T071000Z", "DTSTART:20270701T071000Z",
                "DTEND:20270701T073000Z", "SUMMARY:Fajr", "DESCRIPTION:Fajr\\, then iqama", "CATEGORIES:Prayer",
                "TRANSP:TRANSPARENT", "LOCATION:East London Mosque", "GEO:51.5177;-0.0653", "BEGIN:VALARM",
                "ACTION:DISPLAY", "DESCRIPTION:Fajr in 10 minutes", "TRIGGER:-PT10M", "END:VALARM", "END:VEVENT",
            ])
        #expect(
            ICalendar.header(name: "A, B", zone: "Europe/London", refresh: "PT3H", feed: true).suffix(4) == [
                "NAME:A\\, B", "X-WR-TIMEZONE:Europe/London", "REFRESH-INTERVAL;VALUE=DURATION:PT3H",
                "X-PUBLISHED-TTL:PT3H",
            ])
    }
}
