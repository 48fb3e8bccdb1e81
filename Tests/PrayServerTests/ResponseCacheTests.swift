import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayServer

/// The cache of answers for their day (``ResponseCache``), alone and behind the AlAdhan calendars:
/// computed once, the same bytes and tag afterwards, a 304 for a client that has them, gone when its
/// day ends or room is needed, and a request that differs in any way is another entry.
@Suite struct ResponseCacheTests {
    static let start = Date(timeIntervalSince1970: 1_796_042_096)

    /// A 200 with a body and a tag, counting how often it was made.
    final class Answers {
        var made = 0

        func make(_ text: String, expires: Date, status: Int = 200) -> (ServerAPI.Response, Date) {
            made += 1
            let response = ServerAPI.Response(
                status: status, headers: ["ETag": "\"\(text.count)\"", "Content-Type": "application/json"],
                body: Data(text.utf8))
            return (response, expires)
        }
    }

    @Test func aSecondRequestIsAnsweredFromTheCache() {
        // Given
        let cache = ResponseCache(maximumBytes: 1 << 20)
        let answers = Answers()
        let request = ServerAPI.Request(target: "/v1/calendar/2027/3?latitude=21.4225")
        let expires = Self.start.addingTimeInterval(60)
        // When
        let first = cache.response(for: request, key: "a", now: Self.start) { answers.make("month", expires: expires) }
        let second = cache.response(for: request, key: "a", now: Self.start.addingTimeInterval(59)) {
            answers.make("other", expires: expires)
        }
        // Then: computed once, the same bytes twice
        #expect(answers.made == 1)
        #expect(first.body == Data("month".utf8))
        #expect(second == first)
        #expect(cache.counts == ResponseCache.Counts(hits: 1, misses: 1))
        #expect(cache.counts.hitRate == 0.5)
    }

    @Test func aClientThatHasTheAnswerGetsA304() {
        let cache = ResponseCache(maximumBytes: 1 << 20)
        let answers = Answers()
        let expires = Self.start.addingTimeInterval(60)
        let plain = ServerAPI.Request(target: "/m")
        _ = cache.response(for: plain, key: "m", now: Self.start) { answers.make("month", expires: expires) }
        // When: the client names the tag (weakly, among others)
        let conditional = ServerAPI.Request(target: "/m", headers: ["If-None-Match": "\"x\", W/\"5\""])
        let response = cache.response(for: conditional, key: "m", now: Self.start) {
            answers.make("month", expires: expires)
        }
        // Then: no body and no type, the same tag
        #expect(response.status == 304)
        #expect(response.body.isEmpty)
        #expect(response.headers["ETag"] == "\"5\"")
        #expect(response.headers["Content-Type"] == nil)
        #expect(answers.made == 1)
    }

    @Test func aClientThatHasTheAnswerGetsA304EvenWhenItIsMadeAfresh() {
        // Given a cache that has nothing (a server just restarted) and a screen that holds the tag
        let cache = ResponseCache(maximumBytes: 1 << 20)
        let answers = Answers()
        let conditional = ServerAPI.Request(target: "/m", headers: ["If-None-Match": "\"5\""])
        // When the answer is made for it, kept or not (one that expires at once is not kept)
        let kept = cache.response(for: conditional, key: "m", now: Self.start) {
            answers.make("month", expires: Self.start.addingTimeInterval(60))
        }
        let unkept = cache.response(for: conditional, key: "n", now: Self.start) {
            answers.make("month", expires: Self.start)
        }
        // Then both are a 304, and what is kept is the 200
        #expect(kept.status == 304 && kept.body.isEmpty && unkept.status == 304)
        #expect(answers.made == 2 && cache.count == 1)
        let plain = cache.response(for: ServerAPI.Request(target: "/m"), key: "m", now: Self.start) {
            answers.make("other", expires: Self.start)
        }
        #expect(plain.status == 200 && plain.body == Data("month".utf8))
    }

    @Test func anAnswerEndsWithItsDay() {
        let cache = ResponseCache(maximumBytes: 1 << 20)
        let answers = Answers()
        let request = ServerAPI.Request(target: "/m")
        let midnight = Self.start.addingTimeInterval(3600)
        _ = cache.response(for: request, key: "m", now: Self.start) { answers.make("day one", expires: midnight) }
        // When: asked at midnight
        let next = cache.response(for: request, key: "m", now: midnight) {
            answers.make("day two", expires: midnight.addingTimeInterval(86_400))
        }
        // Then: made again
        #expect(next.body == Data("day two".utf8))
        #expect(answers.made == 2)
    }

    @Test func onlyTwoHundredsWithATagAreKept() {
        let cache = ResponseCache(maximumBytes: 1 << 20)
        let answers = Answers()
        let request = ServerAPI.Request(target: "/m")
        let expires = Self.start.addingTimeInterval(60)
        for _ in 0..<2 {
            _ = cache.response(for: request, key: "bad", now: Self.start) {
                answers.make("refused", expires: expires, status: 400)
            }
            _ = cache.response(for: request, key: "now", now: Self.start) { answers.make("now", expires: Self.start) }
        }
        #expect(answers.made == 4)
        #expect(cache.count == 0)
    }

    @Test func theOldestGoWhenTheBodiesOutgrowTheBudget() {
        // Given: room for 100 bytes, answers of 20
        let cache = ResponseCache(maximumBytes: 100)
        let answers = Answers()
        let body = String(repeating: "x", count: 20)
        let expires = Self.start.addingTimeInterval(86_400)
        for index in 0..<6 {
            _ = cache.response(for: ServerAPI.Request(target: "/m"), key: "\(index)", now: Self.start) {
                answers.make(body, expires: expires)
            }
        }
        // Then: the newest kept, at most half the budget after the eviction
        #expect(cache.count == 2)
        _ = cache.response(for: ServerAPI.Request(target: "/m"), key: "5", now: Self.start) {
            answers.make(body, expires: expires)
        }
        #expect(answers.made == 6)
        _ = cache.response(for: ServerAPI.Request(target: "/m"), key: "0", now: Self.start) {
            answers.make(body, expires: expires)
        }
        #expect(answers.made == 7)
    }

    // MARK: - The AlAdhan calendars

    static func routes(clock: PrayClockFake) -> AlAdhanRoutes {
        let prayers = PrayerServiceAstronomical(log: .silent)
        return AlAdhanRoutes(
            calculator: prayers, hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent),
            qibla: QiblaServiceGeodesic(log: .silent), clock: clock, log: .silent)
    }

    @Test func aMonthIsComputedOncePerRequestExactly() throws {
        // Given
        let routes = Self.routes(clock: PrayClockFake(now: Self.start))
        let month = "/v1/calendar/2027/3?latitude=21.4225&longitude=39.8262&timezonestring=Asia/Riyadh"
        // When: the same month twice, then a place 0.00001° away, then another spelling of the method
        let first = routes.respond(to: ServerAPI.Request(target: month))
        let second = routes.respond(to: ServerAPI.Request(target: month))
        let nearby = routes.respond(
            to: ServerAPI.Request(
                target: "/v1/calendar/2027/3?latitude=21.42251&longitude=39.8262&timezonestring=Asia/Riyadh"))
        _ = routes.respond(to: ServerAPI.Request(target: month + "&method=4"))
        // Then: the same answer from the cache; every other request computed
        #expect(first.status == 200)
        #expect(second == first)
        #expect(nearby.body != first.body)
        #expect(routes.calendars?.counts == ResponseCache.Counts(hits: 1, misses: 3))
        // And a client that has the month gets a 304 from the cache
        let tag = try #require(first.headers["ETag"])
        let revalidated = routes.respond(to: ServerAPI.Request(target: month, headers: ["If-None-Match": tag]))
        #expect(revalidated.status == 304)
        #expect(revalidated.body.isEmpty)
        #expect(routes.calendars?.counts.hits == 2)
    }

    @Test func aCalendarThatDependsOnTodayIsNotKept() {
        let routes = Self.routes(clock: PrayClockFake(now: Self.start))
        let thisMonth = "/v1/calendar?latitude=21.4225&longitude=39.8262&timezonestring=Asia/Riyadh"
        _ = routes.respond(to: ServerAPI.Request(target: thisMonth))
        _ = routes.respond(to: ServerAPI.Request(target: thisMonth))
        #expect(routes.calendars?.counts == ResponseCache.Counts(hits: 0, misses: 2))
    }

    @Test func aScreenAskingEveryMinuteIsAnsweredFromTheCacheButOnceADay() {
        // Given: a page showing a month asks for it every minute for two days
        let clock = PrayClockFake(now: Self.start)
        let routes = Self.routes(clock: clock)
        let month = "/v1/calendar/2027/3?latitude=21.4225&longitude=39.8262&timezonestring=Asia/Riyadh"
        var bodies = Set<Data>()
        for _ in 0..<(2 * 1440) {
            bodies.insert(routes.respond(to: ServerAPI.Request(target: month)).body)
            clock.advance(by: 60)
        }
        // Then: computed once a day, always the same bytes
        #expect(routes.calendars?.counts == ResponseCache.Counts(hits: 2878, misses: 2))
        #expect(bodies.count == 1)
    }

    @Test func aPlacesFeedIsMadeOnceUntilThePlacesMidnight() throws {
        // Given: a calendar app fetching a place's feed every 3 hours for two days, from Makkah (UTC+3)
        let clock = PrayClockFake(now: Self.start)
        let routes = Self.routes(clock: clock)
        let feed = "/calendar.ics?latitude=21.4225&longitude=39.8262&timezonestring=Asia/Riyadh"
        var firstDays = [String]()
        var bodies = [Data]()
        for _ in 0..<16 {
            let answer = routes.respond(to: ServerAPI.Request(target: feed))
            #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
            if bodies.last != answer.body {
                bodies.append(answer.body)
                let text = String(decoding: answer.body, as: UTF8.self)
                let start = try #require(text.range(of: "DTSTART:"))
                firstDays.append(String(text[start.upperBound...].prefix(8)))
            }
            clock.advance(by: 3 * 3600)
        }
        // Then: made again only when Makkah's day changed, its window starting on the new day
        let counts = try #require(routes.calendars?.counts)
        #expect(counts.misses == bodies.count && counts.hits == 16 - bodies.count, "\(counts)")
        #expect(bodies.count == Set(firstDays).count && (2...3).contains(bodies.count), "\(firstDays)")
        // And another place, however near, is its own feed; a subscriber that has it gets a 304
        let nearby = routes.respond(
            to: ServerAPI.Request(target: feed.replacingOccurrences(of: "21.4225", with: "21.42251")))
        #expect(nearby.status == 200 && nearby.body != bodies.last)
        let tag = try #require(routes.respond(to: ServerAPI.Request(target: feed)).headers["ETag"])
        let revalidated = routes.respond(to: ServerAPI.Request(target: feed, headers: ["If-None-Match": tag]))
        #expect(revalidated.status == 304 && revalidated.body.isEmpty)
    }
}
