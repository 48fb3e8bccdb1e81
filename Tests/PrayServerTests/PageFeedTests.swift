import Foundation
import PrayCore
import PrayMocks
import PrayServer
import PrayServices
import Synchronization
import Testing

/// The calendar feeds (a published mosque's and a place's), the public event stream and the month of the
/// screen's place, as plain functions without sockets.
@Suite(.tags(.concurrency)) struct PageFeedTests {
    /// An iCalendar text as its content lines, unfolded (RFC 5545 §3.1), with the checks of its form:
    /// every line ends in CRLF and has at most 75 octets.
    struct Calendar {
        let lines: [String]
        let events: [[String: String]]

        init(_ body: Data) throws {
            let text = String(decoding: body, as: UTF8.self)
            #expect(text.hasSuffix("END:VCALENDAR\r\n"))
            let raw = text.components(separatedBy: "\r\n").dropLast()
            #expect(raw.allSatisfy { $0.utf8.count <= 75 && !$0.contains("\n") && !$0.contains("\r") })
            var lines: [String] = []
            for line in raw {
                if line.hasPrefix(" "), !lines.isEmpty {
                    lines[lines.count - 1] += line.dropFirst()
                } else {
                    lines.append(line)
                }
            }
            self.lines = lines
            var events: [[String: String]] = []
            var current: [String: String]?
            for line in lines {
                if line == "BEGIN:VEVENT" {
                    current = [:]
                } else if line == "END:VEVENT", let event = current {
                    events.append(event)
                    current = nil
                } else if current != nil, let colon = line.firstIndex(of: ":") {
                    current?[String(line[..<colon])] = String(line[line.index(after: colon)...])
                }
            }
            self.events = events
        }

        /// The event of `kind` (`fajr`, `jumuah-2`) on `day` (`20270702`).
        func event(_ day: String, _ kind: String) -> [String: String]? {
            events.first { $0["UID"]?.hasPrefix("\(day)-\(kind)-") == true }
        }
    }

    /// London's screen on the Muslim World League, from 1 July 2027.
    static func londonScreen() throws -> DisplayAPI.Screen {
        try DisplayRoutesTests.screen(from: "2027-07-01")
    }

    func get(_ routes: some ServerRoutes, _ target: String, headers: ServerAPI.Fields = [:]) -> ServerAPI.Response {
        routes.respond(to: ServerAPI.Request(target: target, headers: headers))
    }

    @Test func theMosquesFeedHasStableEventsForSixtyDays() throws {
        // Given
        let fixture = try PublishedFixture()
        defer { fixture.remove() }
        let routes = fixture.routes()
        // When
        let response = get(routes, "/m/elm.ics")
        let calendar = try Calendar(response.body)
        // Then
        #expect(response.status == 200 && response.headers["Content-Type"] == "text/calendar; charset=utf-8")
        #expect(response.headers["Cache-Control"] == "no-cache" && response.headers["ETag"] != nil)
        #expect(calendar.lines.contains("X-WR-CALNAME:Prayer times — East London Mosque"))
        #expect(calendar.lines.contains("REFRESH-INTERVAL;VALUE=DURATION:PT3H"))
        #expect(calendar.lines.contains("X-WR-TIMEZONE:Europe/London"))
        // 60 days from 1 July: five prayers a day, on nine Fridays three Jumu'ah in dhuhr's place.
        #expect(calendar.events.count == 60 * 5 - 9 + 9 * 3)
        let uids = calendar.events.compactMap { $0["UID"] }
        #expect(Set(uids).count == uids.count && uids.count == calendar.events.count)
        #expect(
            calendar.events.allSatisfy { $0["UID"]?.wholeMatch(of: /\d{8}-[a-z0-9-]+-[0-9a-f]{16}@praykit/) != nil })
        #expect(calendar.event("20270702", "dhuhr") == nil)
        #expect(calendar.event("20270702", "jumuah-3")?["DTSTART"] == "20270702T132000Z")
        #expect(calendar.event("20270702", "jumuah-1")?["SUMMARY"] == "Jumu'ah 1")
        #expect(calendar.event("20270829", "isha") != nil && calendar.event("20270830", "fajr") == nil)
        // The timetable's fajr, to its iqama; a gap's, calculated, to the rule's iqama, and said so.
        let fajr = try #require(calendar.event("20270701", "fajr"))
        #expect(fajr["DTSTART"] == "20270701T021000Z" && fajr["DTEND"] == "20270701T024500Z")
        #expect(fajr["DESCRIPTION"]?.contains("From East London Mosque's timetable.") == true)
        #expect(fajr["DESCRIPTION"]?.hasPrefix("Fajr: adhan 03:10\\, iqama 03:45 (Europe/London).") == true)
        let gap = try #require(calendar.event("20270720", "fajr"))
        #expect(gap["DESCRIPTION"]?.hasSuffix("Calculated.") == true)
        // Nothing in it depends on the moment: a second fetch is the same, and its tag gets 304.
        #expect(get(routes, "/m/elm.ics").body == response.body)
        let tag = try #require(response.headers["ETag"])
        #expect(get(routes, "/m/elm.ics", headers: ["If-None-Match": tag]).status == 304)
        // No ID of the space and no token in the feed.
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(!text.contains(fixture.space) && !text.contains("pkd_"))
    }

    @Test func anEidDayOfTheMosqueHasItsPrayers() throws {
        // Given: the feed fetched on 1 May 2027, whose 60 days hold Eid al-Adha (16 May)
        let fixture = try PublishedFixture(now: Date(timeIntervalSince1970: 1_809_165_600))
        defer { fixture.remove() }
        let calendar = try Calendar(get(fixture.routes(), "/m/elm.ics").body)
        // Then: its prayer, at 07:30 in London, beside the day's five
        let eid = try #require(calendar.event("20270516", "eid-1"))
        #expect(eid["SUMMARY"] == "Eid al-Adha prayer" && eid["DTSTART"] == "20270516T063000Z")
        #expect(eid["DTEND"] == "20270516T070000Z" && calendar.event("20270516", "fajr") != nil)
        #expect(calendar.events.count { $0["UID"]?.contains("-eid-") == true } == 1)
    }

    @Test func aChangedIqamaKeepsTheUIDsAndRaisesTheSequence() throws {
        // Given
        let fixture = try PublishedFixture()
        defer { fixture.remove() }
        let routes = fixture.routes()
        let before = try Calendar(get(routes, "/m/elm.ics").body)
        let sequence = try #require(before.event("20270720", "fajr")?["SEQUENCE"].flatMap { Int($0) })
        #expect(before.event("20270720", "fajr")?["LAST-MODIFIED"] == "20270701T100000Z")
        // When: an hour later the mosque moves its fajr iqama from 20 to 30 minutes after the adhan
        fixture.clock.advance(by: 3600)
        var settings = PublishedFixture.settings
        settings.iqama["fajr"] = "+30"
        try fixture.push([(.mosqueSettings, "settings", .mosqueSettings(settings))])
        let after = try Calendar(get(routes, "/m/elm.ics").body)
        // Then: the same events (UIDs), each with a higher SEQUENCE and the change's time
        #expect(Set(after.events.compactMap { $0["UID"] }) == Set(before.events.compactMap { $0["UID"] }))
        let changed = try #require(after.event("20270720", "fajr"))
        #expect(Int(changed["SEQUENCE"] ?? "") ?? 0 > sequence)
        #expect(changed["LAST-MODIFIED"] == "20270701T110000Z" && changed["DTSTAMP"] == "20270701T110000Z")
        let start = try #require(changed["DTSTART"])
        #expect(changed["DTEND"] != before.event("20270720", "fajr")?["DTEND"])
        #expect(changed["DESCRIPTION"]?.contains("iqama") == true && !start.isEmpty)
        // A notice changes no day's times, yet every SEQUENCE only grows.
        let notice = SyncNoticeValue(
            title: "Class", text: "", start: fixture.clock.now(), end: fixture.clock.now().addingTimeInterval(3600))
        try fixture.push([(.notice, "class", .notice(notice))])
        let third = try Calendar(get(routes, "/m/elm.ics").body)
        for event in third.events {
            let earlier = after.events.first { $0["UID"] == event["UID"] }
            #expect(Int(event["SEQUENCE"] ?? "") ?? -1 >= Int(earlier?["SEQUENCE"] ?? "") ?? 0)
        }
    }

    @Test func aFeedMadeIsKeptUntilTheVersionOrTheQuarterChanges() throws {
        // Given: the routes over a store whose reads are counted
        let fixture = try PublishedFixture()
        defer { fixture.remove() }
        let store = SyncStoreMock()
        store.onPublished { slug, rows in try fixture.store.published(slug: slug, rows: rows) }
        let prayers = PrayerServiceAstronomical(log: .silent)
        let routes = PageRoutes(
            store: store, screen: nil, calculator: prayers,
            hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent), mosques: MosqueTimetableStoreFake(),
            preferences: PreferencesStoreFake(), country: { _ in "GB" }, clock: fixture.clock, log: .silent)
        // When: the feed is fetched, again, and with its tag
        let first = get(routes, "/m/elm.ics")
        let second = get(routes, "/m/elm.ics")
        let tag = try #require(first.headers["ETag"])
        let third = get(routes, "/m/elm.ics", headers: ["If-None-Match": tag])
        // Then: the rows were read once; the same bytes, then a 304 with the same fields
        #expect(store.publishedCalls.map(\.rows) == [false, true, false, false])
        #expect(first.status == 200 && second.body == first.body && third.status == 304 && third.body.isEmpty)
        #expect(third.headers["ETag"] == tag && third.headers["Content-Type"] == nil)
        // A push (a new version) and a new quarter of an hour each make it again.
        fixture.clock.advance(by: 60)
        var settings = PublishedFixture.settings
        settings.iqama["asr"] = "+25"
        try fixture.push([(.mosqueSettings, "settings", .mosqueSettings(settings))])
        let changed = get(routes, "/m/elm.ics")
        #expect(changed.body != first.body && store.publishedCalls.suffix(2).map(\.rows) == [false, true])
        fixture.clock.advance(by: 900)
        _ = get(routes, "/m/elm.ics")
        #expect(store.publishedCalls.suffix(2).map(\.rows) == [false, true])
        // Another page or query is its own answer.
        _ = get(routes, "/m/elm/month.json?month=2027-08")
        _ = get(routes, "/m/elm/month.json?month=2027-08")
        #expect(store.publishedCalls.suffix(3).map(\.rows) == [false, true, false])
    }

    @Test func theEventStreamSaysNewVersionThenGone() async throws {
        // Given: a page following the mosque
        let fixture = try PublishedFixture()
        defer { fixture.remove() }
        let routes = fixture.routes(pollInterval: 0.02)
        let response = get(routes, "/m/elm/events")
        #expect(response.status == 200 && response.headers["Content-Type"] == "text/event-stream; charset=utf-8")
        let reader = StreamReader()
        try #require(response.stream).attach(reader)
        let first = try #require(try fixture.store.published(slug: "elm", rows: false)?.version)
        try await reader.wait { $0.contains("retry: 5000\n\nevent: version\ndata: {\"version\":\"\(first)\"}\n\n") }
        #expect(routes.openStreams == 1)
        // When: the mosque changes, then is unpublished
        fixture.clock.advance(by: 60)
        try fixture.push([(.mosqueSettings, "settings", .mosqueSettings(PublishedFixture.settings))])
        try await reader.wait { $0.contains("data: {\"version\":\"\(first + 1)\"}") }
        _ = try fixture.store.space(
            .unpublish(.init(space: fixture.space)), from: fixture.owner, address: "127.0.0.1",
            now: fixture.clock.now())
        // Then: it says so and ends; no row and nothing secret ever went through it
        try await reader.wait { $0.contains("event: gone\ndata: {}\n\n") && reader.ended }
        #expect(!reader.text.contains(fixture.space) && !reader.text.contains("settings"))
    }

    @Test func aPushThroughThisServerReachesTheStreamsWithoutWaitingForThePoll() async throws {
        // Given: the pages beside the sync endpoints on one store, looking at it only once an hour, and
        // a page and a published screen following the mosque
        let fixture = try PublishedFixture()
        defer { fixture.remove() }
        let pages = fixture.routes(pollInterval: 3600)
        let server = ServerRoutesCombined(
            api: pages, sync: SyncRoutes(store: fixture.store, clock: fixture.clock, log: .silent), pages: pages)
        let page = StreamReader()
        let screen = StreamReader()
        try #require(get(server, "/m/elm/events").stream).attach(page)
        try #require(get(server, "/m/elm/display/events").stream).attach(screen)
        let first = try #require(try fixture.store.published(slug: "elm", rows: false)?.version)
        try await page.wait { $0.contains("data: {\"version\":\"\(first)\"}") }
        try await screen.wait { $0.contains("event: model") }
        // When: an editor's app pushes an iqama through the sync endpoints
        fixture.clock.advance(by: 60)
        var settings = PublishedFixture.settings
        settings.iqama["isha"] = "+30"
        let push = try JSONEncoder().encode(
            try fixture.pushRequest([(.mosqueSettings, "settings", .mosqueSettings(settings))]))
        let pushed = server.respond(
            to: ServerAPI.Request(
                method: "POST", target: "/sync/v1/push",
                headers: ["authorization": "Bearer \(fixture.token)", "content-type": "application/json"], body: push,
                remoteAddress: "127.0.0.1"))
        #expect(pushed.status == 200, "\(String(decoding: pushed.body, as: UTF8.self))")
        // Then: both streams say so now, not in an hour: the new version, and the new model's tag
        try await page.wait { $0.contains("data: {\"version\":\"\(first + 1)\"}") }
        let tag = try #require(get(server, "/m/elm/display.json").headers["ETag"])
        let escaped = tag.replacingOccurrences(of: "\"", with: "\\\"")
        try await screen.wait { $0.contains("event: model\ndata: {\"etag\":\"\(escaped)\"}\n\n") }
        #expect(screen.text.matches(of: /event: model/).count == 2)
        // Only the routes that write a space make the pages look.
        #expect(
            !ServerRoutesCombined.changesSpaces("/sync/v1/pull") && ServerRoutesCombined.changesSpaces("/sync/v1/push"))
    }

    @Test func thePublishedScreensEventsTellTheModelsTag() async throws {
        // Given: the published screen's stream, as display.js opens it beside the page
        let fixture = try PublishedFixture()
        defer { fixture.remove() }
        let routes = fixture.routes(pollInterval: 0.02)
        let response = get(routes, "/m/elm/display/events")
        #expect(response.status == 200 && response.headers["Content-Type"] == "text/event-stream; charset=utf-8")
        let reader = StreamReader()
        try #require(response.stream).attach(reader)
        // Then: it begins with the tag of the model the page fetches
        let first = try #require(get(routes, "/m/elm/display.json").headers["ETag"])
        let escaped = first.replacingOccurrences(of: "\"", with: "\\\"")
        try await reader.wait { $0.hasPrefix("retry: 5000\n\nevent: model\ndata: {\"etag\":\"\(escaped)\"}\n\n") }
        // When: an iqama moves
        fixture.clock.advance(by: 60)
        var settings = PublishedFixture.settings
        settings.iqama["asr"] = "+20"
        try fixture.push([(.mosqueSettings, "settings", .mosqueSettings(settings))])
        // Then: the new model's tag, which the model now answers with
        let second = try #require(get(routes, "/m/elm/display.json").headers["ETag"])
        #expect(second != first)
        let newer = second.replacingOccurrences(of: "\"", with: "\\\"")
        try await reader.wait { $0.contains("event: model\ndata: {\"etag\":\"\(newer)\"}\n\n") }
        #expect(reader.text.matches(of: /event: model/).count == 2)
    }

    @Test func aPlacesFeedReadsTheAlAdhanParameters() throws {
        // Given
        let prayers = PrayerServiceAstronomical(log: .silent)
        let routes = AlAdhanRoutes(
            calculator: prayers, hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent),
            qibla: QiblaServiceGeodesic(log: .silent), clock: PrayClockFake(now: PublishedFixture.july), log: .silent)
        let query = "latitude=21.4225&longitude=39.8262&method=4&timezonestring=Asia/Riyadh"
        // When
        let response = get(routes, "/calendar.ics?\(query)")
        let calendar = try Calendar(response.body)
        // Then: 60 days of five prayers from today in Makkah, each an event
        #expect(response.status == 200 && response.headers["Content-Type"] == "text/calendar; charset=utf-8")
        #expect(calendar.events.count == 300 && calendar.lines.contains("X-WR-TIMEZONE:Asia/Riyadh"))
        #expect(calendar.events.first?["UID"]?.hasPrefix("20270701-fajr-") == true)
        #expect(calendar.events.allSatisfy { $0["SEQUENCE"] == "0" && $0["LAST-MODIFIED"] == nil })
        // The same parameters in another order: the same feed; /v1/ too.
        let reordered = "timezonestring=Asia/Riyadh&method=4&longitude=39.8262&latitude=21.4225"
        #expect(get(routes, "/v1/calendar.ics?\(reordered)").body == response.body)
        // Another method: other events, never another's UIDs.
        let other = try Calendar(get(routes, "/calendar.ics?latitude=21.4225&longitude=39.8262&method=3").body)
        #expect(Set(other.events.compactMap { $0["UID"] }).isDisjoint(with: calendar.events.compactMap { $0["UID"] }))
        // Iqama and Jumu'ah: an event lasts to its iqama; a Friday has its Jumu'ah.
        let congregation = try Calendar(
            get(routes, "/calendar.ics?\(query)&iqama=fajr%3D%2B20&jumuah=12%3A30").body)
        let fajr = try #require(congregation.event("20270701", "fajr"))
        #expect(fajr["DESCRIPTION"]?.contains("iqama") == true)
        #expect(congregation.event("20270702", "jumuah-1")?["SUMMARY"] == "Jumu'ah")
        #expect(congregation.event("20270702", "dhuhr") == nil)
        // Bad input: a plain 400 that says what is wrong.
        for bad in ["latitude=91&longitude=0", "longitude=0", "\(query)&method=6", "\(query)&iqama=fajr%3D-5"] {
            let refused = get(routes, "/calendar.ics?\(bad)")
            #expect(refused.status == 400 && refused.headers["Content-Type"] == "text/plain; charset=utf-8", "\(bad)")
            #expect(!refused.body.isEmpty)
        }
    }

    @Test func theMonthOfTheScreensPlaceHasItsIqamaAndJumuah() throws {
        // Given: London's screen with saved iqama and three Jumu'ah times
        var saved = Preferences()
        try saved.set("fajr=+20,dhuhr=13:30", for: .iqama)
        try saved.set("13:00,13:40,14:20", for: .jumuah)
        let prayers = PrayerServiceAstronomical(log: .silent)
        let routes = PageRoutes(
            store: nil, screen: try Self.londonScreen(), calculator: prayers,
            hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent), mosques: MosqueTimetableStoreFake(),
            preferences: PreferencesStoreFake(saved), country: nil, clock: PrayClockFake(now: PublishedFixture.july),
            log: .silent)
        // When
        let response = get(routes, "/month.json?month=2027-07")
        let model = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        // Then
        #expect(response.status == 200 && model["name"] as? String == "London" && model["mosque"] is NSNull)
        #expect(model["iqamaPrayers"] as? [String] == ["fajr", "dhuhr"])
        let days = try #require(model["days"] as? [[String: Any]])
        #expect(days.count == 31 && days.allSatisfy { $0["calculated"] as? Bool == true })
        #expect(((days[1]["iqama"] as? [String: [String]])?["dhuhr"])?.count == 3)
        #expect(((days[0]["iqama"] as? [String: [String]])?["dhuhr"]) == ["2027-07-01T13:30:00+01:00"])
        #expect(get(routes, "/month.json?month=0999-12").status == 400)
        // The page and its files; no published pages without a store, no month without a screen.
        #expect(get(routes, "/month").status == 200 && get(routes, "/month.css").status == 200)
        #expect(get(routes, "/m/elm/month").status == 404)
        let none = PageRoutes(
            store: nil, screen: nil, calculator: prayers,
            hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent), mosques: MosqueTimetableStoreFake(),
            preferences: PreferencesStoreFake(), country: nil, clock: PrayClockFake(), log: .silent)
        #expect(get(none, "/month").status == 404 && get(none, "/month.json").status == 404)
    }
}

/// Collects what a stream sends.
final class StreamReader: ServerStream.Writer, Sendable {
    private let state = Mutex((bytes: Data(), ended: false))

    func write(_ bytes: Data) -> Bool {
        state.withLock { $0.bytes.append(bytes) }
        return true
    }

    func end() { state.withLock { $0.ended = true } }

    var isClosed: Bool { state.withLock { $0.ended } }

    var ended: Bool { isClosed }

    var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

    /// Waits until `condition` holds of what was sent (a hang guard of 120 s, not a timing claim).
    func wait(_ condition: (String) -> Bool) async throws {
        for _ in 0..<12_000 {
            if condition(text) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the stream never said it: \(text)")
    }
}
