import Foundation
import PrayCore
import PrayServices

#if canImport(Glibc)
    import Glibc
#endif

/// The engine's own figures: a long run of consecutive days for one place (London, Muslim World
/// League, from 2026-01-01), best of the rounds, and one-day requests once warm.
struct EngineTimes {
    /// One prayer-day (a day's schedule) of the long run, best of the rounds, the process keeping the
    /// memory it frees: nanoseconds.
    var nsPerDay: Double
    /// The same with the C library's defaults, which hand each round's memory back to the kernel, so
    /// that the next round's results land on pages mapped afresh: nanoseconds.
    var freshPagesNsPerDay: Double
    /// One prayer-day of the first round, the sun's positions not yet cached: nanoseconds.
    var firstRoundNsPerDay: Double
    /// One one-day request, warm: microseconds.
    var singleDay: Double

    /// The figures as members of a JSON object (no braces).
    var json: String {
        #""nsPerPrayerDay":\#(Int(nsPerDay.rounded())),"prayerDaysPerSecond":\#(Int((1e9 / nsPerDay).rounded())),"#
            + #""freshPagesNsPerPrayerDay":\#(Int(freshPagesNsPerDay.rounded())),"#
            + #""firstRoundNsPerPrayerDay":\#(Int(firstRoundNsPerDay.rounded())),"#
            + #""singleDayMicroseconds":\#(Int(singleDay.rounded()))"#
    }

    /// The figures as lines of text, with the first day in a fresh process when it was measured.
    func text(days: Int, rounds: Int, firstDay: Double? = nil) -> String {
        """
        praykit-bench: London, Muslim World League, \(days) consecutive days, best of \(rounds) rounds
          \(Int(nsPerDay.rounded())) ns per prayer-day (\(Int((1e9 / nsPerDay).rounded())) prayer-days/s)
          the results on memory mapped afresh each round: \(Int(freshPagesNsPerDay.rounded())) ns per prayer-day
          first round, the sun's positions not yet cached: \(Int(firstRoundNsPerDay.rounded())) ns per prayer-day

        """ + (firstDay.map { "  first day in a fresh process: \(Int($0.rounded())) µs\n" } ?? "")
            + "  one-day request, warm: \(Int(singleDay.rounded())) µs\n"
    }
}

extension Benchmark {
    /// Measures the engine: `days` consecutive days, `rounds` times (the first round computes the sun's
    /// positions, later rounds find them cached), then 200 one-day requests.
    func measureEngine() throws -> EngineTimes {
        let service = PrayerServiceAstronomical(log: .silent)
        let zone = TimeZone(identifier: "Europe/London")!
        let place = try Coordinates(latitude: 51.5074, longitude: -0.1278)
        let start = try CivilDate(parsing: "2026-01-01")
        let parameters = CalculationParameters(method: .muslimWorldLeague)
        func request(_ date: CivilDate, days: Int = 1) -> PrayerAPI.Request {
            PrayerAPI.Request(coordinates: place, timeZone: zone, date: date, days: days, parameters: parameters)
        }
        var checksum = try Self.bulkPass(service, request: request(start))
        /// The best of `rounds` runs of the consecutive days, and the first run: nanoseconds a run.
        func runs() throws -> (best: Double, first: Double) {
            var best = Double.infinity
            var first = 0.0
            for round in 0..<rounds {
                let started = DispatchTime.now().uptimeNanoseconds
                checksum += try Self.bulkPass(service, request: request(start, days: days))
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started)
                if round == 0 { first = elapsed }
                best = min(best, elapsed)
            }
            return (best, first)
        }
        // With the C library's defaults first (its first round fills the cache of the sun's positions),
        // then with the heap kept.
        let fresh = try runs()
        Self.keepHeap()
        let kept = try runs()
        let started = DispatchTime.now().uptimeNanoseconds
        for offset in 0..<200 { checksum += try Self.bulkPass(service, request: request(start.adding(days: offset))) }
        let singleDay = Double(DispatchTime.now().uptimeNanoseconds - started) / 200 / 1e3
        guard checksum.isFinite, checksum > 0 else { throw PrayError(.unavailable, message: "no times were computed") }
        return EngineTimes(
            nsPerDay: kept.best / Double(days), freshPagesNsPerDay: fresh.best / Double(days),
            firstRoundNsPerDay: fresh.first / Double(days), singleDay: singleDay)
    }

    /// Keeps the memory the process frees, rather than handing it back to the kernel: a round's 3,660
    /// days hold about 2.4 MB of schedules, which glibc returns at the end of each round (more than
    /// its trim threshold) and the kernel maps afresh, page by page, in the next — the cost of memory
    /// used for the first time (``EngineTimes/freshPagesNsPerDay``), which a long-running process
    /// that keeps its heap does not pay again. The process's later figures keep theirs too.
    private static func keepHeap() {
        #if canImport(Glibc)
            // glibc's `mallopt` (malloc.h, which Swift's Glibc module leaves out): M_TRIM_THRESHOLD is
            // -1, M_MMAP_THRESHOLD -3. Setting either turns off glibc's own adjustment of both; 64 MB
            // keeps a round's largest array (its schedules) off a fresh `mmap` as well.
            typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: MallocOption.self)
            _ = mallopt(-3, 64 << 20)
            _ = mallopt(-1, 256 << 20)
        #endif
    }

    /// The schedules of one request, consumed: the last day's isha as seconds since 1970, 0 without
    /// one. Never inlined: a profiler's handle on the engine alone (`valgrind --tool=callgrind
    /// --toggle-collect='*bulkPass*' praykit-bench --engine`).
    /// - Throws: The service's error: a failed request ends the benchmark rather than timing nothing.
    @inline(never)
    static func bulkPass(_ service: PrayerServiceAstronomical, request: PrayerAPI.Request) throws -> Double {
        try service.schedules(for: request).last?[.isha]?.date.timeIntervalSince1970 ?? 0
    }
}
