import Foundation
import PrayCore
import PrayServices

/// `praykit-bench`: how fast the astronomical service computes prayer days on one core.
///
/// It measures three things: a long run of consecutive days for one place (the cost per prayer
/// day, best of several rounds), the first day in a fresh process (tables and caches cold), and a
/// one-day request once warm.
struct Benchmark {
    var days = 3660
    var rounds = 20
    var json = false

    static let help = """
        OVERVIEW: Measures the prayer-time engine on one core.

        USAGE: praykit-bench [--json] [--days <n>] [--rounds <n>]

        OPTIONS:
          --json                  Print one JSON object on one line.
          --days <n>              Consecutive days per round (default: 3660).
          --rounds <n>            Rounds; the fastest is reported (default: 20).
          -h, --help              Show help information.

        """

    static func main() -> Int32 {
        var benchmark = Benchmark()
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--json": benchmark.json = true
            case "--days", "--rounds":
                guard let value = arguments.next().flatMap({ Int($0) }), value > 0, value <= 36_525 else {
                    FileHandle.standardError.write(
                        Data("Error: \(argument) needs a whole number from 1 to 36525\n".utf8))
                    return 64
                }
                if argument == "--days" { benchmark.days = value } else { benchmark.rounds = value }
            case "-h", "--help":
                print(help, terminator: "")
                return 0
            default:
                FileHandle.standardError.write(
                    Data(
                        "Error: Unknown option '\(argument)'\nUsage: praykit-bench [--json] [--days <n>] [--rounds <n>]\n"
                            .utf8))
                return 64
            }
        }
        do {
            try benchmark.run()
            return 0
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            return 1
        }
    }

    func run() throws {
        let service = PrayerServiceAstronomical(log: .silent)
        let zone = TimeZone(identifier: "Europe/London")!
        let place = try Coordinates(latitude: 51.5074, longitude: -0.1278)
        let start = try CivilDate(parsing: "2026-01-01")
        let parameters = CalculationParameters(method: .muslimWorldLeague)
        func request(_ date: CivilDate, days: Int = 1) -> PrayerAPI.Request {
            PrayerAPI.Request(coordinates: place, timeZone: zone, date: date, days: days, parameters: parameters)
        }
        var checksum = 0.0
        func consume(_ schedules: [PrayerSchedule]) {
            checksum += schedules.last?[.isha]?.date.timeIntervalSince1970 ?? 0
        }
        // The first request in this process: static tables, zone data and caches are cold.
        var started = DispatchTime.now().uptimeNanoseconds
        consume(try service.schedules(for: request(start)))
        let firstDay = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e3
        // Many consecutive days, best of the rounds.
        // The first round computes the sun's positions (SolarNodes); later rounds find them cached.
        var best = Double.infinity
        var firstRound = 0.0
        for round in 0..<rounds {
            started = DispatchTime.now().uptimeNanoseconds
            let schedules = try service.schedules(for: request(start, days: days))
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started)
            if round == 0 { firstRound = elapsed }
            best = min(best, elapsed)
            consume(schedules)
        }
        // One-day requests, warm.
        started = DispatchTime.now().uptimeNanoseconds
        for offset in 0..<200 { consume(try service.schedules(for: request(start.adding(days: offset)))) }
        let singleDay = Double(DispatchTime.now().uptimeNanoseconds - started) / 200 / 1e3
        let nsPerDay = best / Double(days)
        guard checksum.isFinite, checksum > 0 else { throw PrayError(.unavailable, message: "no times were computed") }
        let storage = try measureStorage()
        let route = measureRoutes()
        if json {
            print(
                #"{"nsPerPrayerDay":\#(Int(nsPerDay.rounded())),"prayerDaysPerSecond":\#(Int((1e9 / nsPerDay).rounded())),"#
                    + #""firstDayMicroseconds":\#(Int(firstDay.rounded())),"singleDayMicroseconds":\#(Int(singleDay.rounded())),"#
                    + #""days":\#(days),"rounds":\#(rounds),"place":"London","method":"muslim-world-league","#
                    + #""logRowsPerSecond":\#(Int(storage.rowsPerSecond.rounded())),"#
                    + #""logYearReadMicroseconds":\#(Int(storage.yearRead.rounded())),"#
                    + #""timingsRouteMicroseconds":\#(Int(route.rounded())),"#
                    + #""firstRoundNsPerPrayerDay":\#(Int((firstRound / Double(days)).rounded()))}"#
            )
        } else {
            print("praykit-bench: London, Muslim World League, \(days) consecutive days, best of \(rounds) rounds")
            print("  \(Int(nsPerDay.rounded())) ns per prayer-day (\(Int((1e9 / nsPerDay).rounded())) prayer-days/s)")
            let coldDay = Int((firstRound / Double(days)).rounded())
            print("  first round, the sun's positions not yet cached: \(coldDay) ns per prayer-day")
            print("  first day in a fresh process: \(Int(firstDay.rounded())) µs")
            print("  one-day request, warm: \(Int(singleDay.rounded())) µs")
            print("prayer log (SQLite, WAL, synchronous=FULL):")
            print("  recording in one transaction: \(Int(storage.rowsPerSecond.rounded())) rows/s")
            print("  reading a year (1825 entries): \(Int(storage.yearRead.rounded())) µs")
            print("praykit serve (in process, no sockets):")
            print("  /v1/timings for a random place, day, method and zone: \(String(format: "%.1f", route)) µs")
        }
    }
}

extension Benchmark {
    /// Records 100,000 log entries in one transaction into a fresh database file, then reads one
    /// year of them back (best of 50).
    func measureStorage() throws -> (rowsPerSecond: Double, yearRead: Double) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = SQLiteDatabase(path: folder.appendingPathComponent("bench.sqlite").path, log: .silent)
        let store = PrayerLogStoreSQLite(database: database, log: .silent)
        let first = try CivilDate(parsing: "1970-01-01")
        let recordedAt = Date(timeIntervalSince1970: 1_795_953_600)
        let entries = try (0..<100_000).map { index in
            try PrayerLogEntry(
                date: first.adding(days: index / 5), prayer: Prayer.obligatory[index % 5],
                status: PrayerStatus.allCases[index % 4], recordedAt: recordedAt
            )
        }
        try store.record([entries[0]])  // create and migrate the file outside the measurement
        var started = DispatchTime.now().uptimeNanoseconds
        try store.record(entries)
        let rowsPerSecond = Double(entries.count) / (Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        var yearRead = Double.infinity
        let start = try CivilDate(parsing: "2000-01-01")
        for _ in 0..<50 {
            started = DispatchTime.now().uptimeNanoseconds
            let year = try store.entries(from: start, through: start.adding(days: 364))
            yearRead = min(yearRead, Double(DispatchTime.now().uptimeNanoseconds - started) / 1e3)
            guard year.count == 1825 else { throw PrayError(.unavailable, message: "read \(year.count) entries") }
        }
        return (rowsPerSecond, yearRead)
    }
}

extension Benchmark {
    /// The cost of one `/v1/timings` answer of `praykit serve` without the HTTP around it: random
    /// places, days, methods and zones (seeded), best of five rounds of 2,000, in microseconds.
    func measureRoutes() -> Double {
        let hijri = HijriServiceUmmAlQura(prayerService: PrayerServiceAstronomical(log: .silent), log: .silent)
        let routes = AlAdhanRoutes(
            prayers: PrayerServiceAstronomical(log: .silent), hijri: hijri, qibla: QiblaServiceGeodesic(log: .silent),
            clock: PrayClockSystem(), log: .silent)
        let zones = ["UTC", "Europe/London", "Asia/Riyadh", "America/New_York", "Asia/Karachi", "Australia/Sydney"]
        let methods = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]
        var random = SplitMix(state: 2027)
        let requests = (0..<2000).map { _ in
            let target =
                "/v1/timings/\(Int.random(in: 1...28, using: &random))-\(Int.random(in: 1...12, using: &random))-"
                + "\(Int.random(in: 2000...2049, using: &random))?latitude=\(Double.random(in: -60...60, using: &random))"
                + "&longitude=\(Double.random(in: -180...180, using: &random))"
                + "&method=\(methods.randomElement(using: &random) ?? 3)"
                + "&timezonestring=\(zones.randomElement(using: &random) ?? "UTC")"
            return ServerAPI.Request(target: target)
        }
        var best = Double.infinity
        var failures = 0
        for _ in 0..<5 {
            let started = DispatchTime.now().uptimeNanoseconds
            for request in requests where routes.respond(to: request).status != 200 { failures += 1 }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - started) / Double(requests.count) / 1e3)
        }
        return failures == 0 ? best : .nan
    }
}

/// SplitMix64: a seeded generator, so that every run measures the same requests.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

exit(Benchmark.main())
