import Foundation
import PrayCore
import PrayServices

/// `praykit-bench`: how fast the astronomical service computes prayer days.
///
/// Usage: `praykit-bench [--json] [--days N] [--rounds N]`
struct Benchmark {
    var days = 3660
    var rounds = 20
    var json = false

    static func main() throws {
        var benchmark = Benchmark()
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--json": benchmark.json = true
            case "--days": benchmark.days = Int(arguments.next() ?? "") ?? benchmark.days
            case "--rounds": benchmark.rounds = Int(arguments.next() ?? "") ?? benchmark.rounds
            case "-h", "--help":
                print("""
                    OVERVIEW: Measures the prayer-time engine on one core.

                    USAGE: praykit-bench [--json] [--days <n>] [--rounds <n>]

                    OPTIONS:
                      --json          Print one JSON object on one line.
                      --days <n>      Consecutive days per round (default: 3660).
                      --rounds <n>    Rounds; the fastest is reported (default: 20).
                      -h, --help      Show help information.
                    """)
                return
            default:
                FileHandle.standardError.write(Data("Error: unknown option '\(argument)'\n".utf8))
                exit(64)
            }
        }
        try benchmark.run()
    }

    func run() throws {
        let service = PrayerServiceAstronomical(log: .silent)
        let zone = TimeZone(identifier: "Europe/London")!
        let place = try Coordinates(latitude: 51.5074, longitude: -0.1278)
        let start = try CivilDate(parsing: "2026-01-01")
        let parameters = CalculationParameters(method: .muslimWorldLeague)
        // First day: the first request in a fresh process, static tables included.
        let first = try measure {
            try service.schedules(for: PrayerAPI.Request(coordinates: place, timeZone: zone, date: start, parameters: parameters))
        }
        var best = Double.infinity
        var checksum = 0.0
        for _ in 0..<rounds {
            let request = PrayerAPI.Request(coordinates: place, timeZone: zone, date: start, days: days, parameters: parameters)
            let start = DispatchTime.now().uptimeNanoseconds
            let schedules = try service.schedules(for: request)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            checksum += schedules.last?[.isha]?.date.timeIntervalSince1970 ?? 0
            best = min(best, seconds)
        }
        let single = try measure {
            for offset in 0..<200 {
                _ = try service.schedules(
                    for: PrayerAPI.Request(coordinates: place, timeZone: zone, date: start.adding(days: offset), parameters: parameters))
            }
        } / 200
        let nsPerDay = best / Double(days) * 1e9
        if json {
            print(
                "{\"nsPerPrayerDay\":\(Int(nsPerDay.rounded())),\"prayerDaysPerSecond\":\(Int((1e9 / nsPerDay).rounded())),"
                    + "\"firstDayMicroseconds\":\(Int((first * 1e6).rounded())),\"singleDayMicroseconds\":\(Int((single * 1e6).rounded())),"
                    + "\"days\":\(days),\"rounds\":\(rounds)}")
        } else {
            print("praykit-bench: \(days) consecutive days, London, Muslim World League, best of \(rounds) rounds")
            print("  \(Int(nsPerDay.rounded())) ns per prayer-day (\(Int((1e9 / nsPerDay).rounded())) days/s)")
            print("  first day in a fresh process: \(Int((first * 1e6).rounded())) µs")
            print("  one-day request, warm: \(Int((single * 1e6).rounded())) µs")
        }
        if checksum == 0 { print("(no times)") }
    }

    func measure(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

try Benchmark.main()
