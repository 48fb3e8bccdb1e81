import Foundation
import PrayCore
import PrayServer
import PrayServices

/// The cost of `praykit serve`'s answers without the HTTP around them (no sockets): `/v1/timings` for a
/// random place, day, method and zone, and `/v1/calendar/{year}/{month}` for a random place, month,
/// method and zone, each answer computed and written (the JSON body, its headers and its tag).
struct RouteTimes {
    /// One `/v1/timings` answer, best of the rounds: microseconds.
    var timings: Double
    /// One `/v1/calendar` month, best of the rounds: microseconds.
    var calendar: Double
    /// One `/v1/calendar` month answered from the cache of calendars (a month asked before): microseconds.
    var calendarCached: Double

    /// The requests of a timings round and of a calendar round.
    static let timingsCount = 2000
    static let calendarCount = 200

    var json: String {
        #""timingsRouteMicroseconds":\#(String(format: "%.2f", timings)),"#
            + #""calendarRouteMicroseconds":\#(String(format: "%.2f", calendar)),"#
            + #""calendarCachedMicroseconds":\#(String(format: "%.2f", calendarCached))"#
    }

    var text: String {
        """
        praykit serve (in process, no sockets):
          /v1/timings for a random place, day, method and zone: \(String(format: "%.2f", timings)) µs
          /v1/calendar, a month for a random place, method and zone: \(String(format: "%.1f", calendar)) µs
          the same month again, from the cache of calendars: \(String(format: "%.2f", calendarCached)) µs

        """
    }
}

extension Benchmark {
    /// Measures both routes: a warm-up pass over each list of requests (the sun's positions of their
    /// days and their zones come into the caches, as on a server that has run a while), then `rounds`
    /// passes; the fastest pass counts. `nil` when an answer was not a 200.
    func measureRoutes(rounds: Int = 5) -> RouteTimes? {
        let hijri = HijriServiceUmmAlQura(prayerService: PrayerServiceAstronomical(log: .silent), log: .silent)
        // Without the cache of calendars: each pass computes every answer.
        let routes = AlAdhanRoutes(
            calculator: PrayerServiceAstronomical(log: .silent), hijri: hijri,
            qibla: QiblaServiceGeodesic(log: .silent),
            clock: PrayClockSystem(), log: .silent, calendarCacheBytes: 0)
        let zones = ["UTC", "Europe/London", "Asia/Riyadh", "America/New_York", "Asia/Karachi", "Australia/Sydney"]
        let methods = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]
        var random = SplitMix64(seed: 2027)  // the same requests on every run
        func place() -> String {
            "latitude=\(Double.random(in: -60...60, using: &random))"
                + "&longitude=\(Double.random(in: -180...180, using: &random))"
                + "&method=\(methods.randomElement(using: &random) ?? 3)"
                + "&timezonestring=\(zones.randomElement(using: &random) ?? "UTC")"
        }
        let timings = (0..<RouteTimes.timingsCount).map { _ in
            let target =
                "/v1/timings/\(Int.random(in: 1...28, using: &random))-\(Int.random(in: 1...12, using: &random))-"
                + "\(Int.random(in: 2000...2049, using: &random))?" + place()
            return ServerAPI.Request(target: target)
        }
        let calendars = (0..<RouteTimes.calendarCount).map { _ in
            let target =
                "/v1/calendar/\(Int.random(in: 2000...2049, using: &random))/\(Int.random(in: 1...12, using: &random))?"
                + place()
            return ServerAPI.Request(target: target)
        }
        func best(
            _ requests: [ServerAPI.Request], routes: AlAdhanRoutes, pass: ([ServerAPI.Request], AlAdhanRoutes) -> Int
        ) -> Double? {
            guard Self.warmUpPass(requests, routes: routes) == 0 else { return nil }
            var best = Double.infinity
            for _ in 0..<rounds {
                let started = DispatchTime.now().uptimeNanoseconds
                guard pass(requests, routes) == 0 else { return nil }
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - started) / Double(requests.count) / 1e3)
            }
            return best
        }
        guard let timingsTime = best(timings, routes: routes, pass: Self.timingsPass),
            let calendarTime = best(calendars, routes: routes, pass: Self.calendarPass)
        else { return nil }
        // The routes as `praykit serve` has them, with the cache: its warm-up pass computes and keeps
        // every month, the timed passes find them.
        let cached = AlAdhanRoutes(
            calculator: PrayerServiceAstronomical(log: .silent), hijri: hijri,
            qibla: QiblaServiceGeodesic(log: .silent), clock: PrayClockSystem(), log: .silent)
        guard let cachedTime = best(calendars, routes: cached, pass: { Self.warmUpPass($0, routes: $1) }) else {
            return nil
        }
        return RouteTimes(timings: timingsTime, calendar: calendarTime, calendarCached: cachedTime)
    }

    // Each pass is its own function, never inlined: a profiler's handle on the warm passes of one route
    // (`valgrind --tool=callgrind --toggle-collect='*timingsPass*'`, Scripts/callgrind-routes.sh). Their
    // loops differ on purpose: the compiler folds functions of the same body into one symbol.

    /// Answers every request once; the number that did not get a 200.
    @inline(never)
    static func warmUpPass(_ requests: [ServerAPI.Request], routes: AlAdhanRoutes) -> Int {
        var failures = 0
        for request in requests where routes.respond(to: request).status != 200 { failures += 1 }
        return failures
    }

    /// A timed pass of `/v1/timings` requests.
    @inline(never)
    static func timingsPass(_ requests: [ServerAPI.Request], routes: AlAdhanRoutes) -> Int {
        var answered = 0
        for index in requests.indices { answered += routes.respond(to: requests[index]).status == 200 ? 1 : 0 }
        return requests.count - answered
    }

    /// A timed pass of `/v1/calendar` requests.
    @inline(never)
    static func calendarPass(_ requests: [ServerAPI.Request], routes: AlAdhanRoutes) -> Int {
        requests.reduce(0) { failures, request in failures + (routes.respond(to: request).status == 200 ? 0 : 1) }
    }
}
