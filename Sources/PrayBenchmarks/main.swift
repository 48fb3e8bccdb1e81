import Foundation
import PrayCore
import PrayPlaces
import PrayServer
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
    /// A Foundation hello-world that reads a zone, built the same way, for the start-up ratio.
    var hello: String?
    /// The `praykit` binary whose start-up is measured; the one beside this benchmark by default.
    var praykit: String?
    /// Whether to measure only start-up (`--startup`).
    var startupOnly = false
    /// Measures only the `/v1/timings` and `/v1/calendar` answers of `praykit serve` (for profiling them).
    var routesOnly = false
    /// Measures only the engine's consecutive days and warm one-day requests (`--engine`, for profiling).
    var engineOnly = false
    /// Measures only the World Magnetic Model (`--magnetic`).
    var magneticOnly = false
    /// Measures only sync: the server's store and routes, and the client (issue 21).
    var syncOnly = false
    /// The options of `--sync-pair` and `--sync-load`.
    var load = SyncLoadOptions()
    /// With `--sync`: the URL of an empty PostgreSQL database, whose `SyncStorePostgres` is measured
    /// the same way after SQLite (`--sync-postgres`, else `PRAYKIT_BENCH_POSTGRES_URL`).
    var syncPostgresURL = ProcessInfo.processInfo.environment["PRAYKIT_BENCH_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    static let help = """
        OVERVIEW: Measures the prayer-time engine on one core.

        USAGE: praykit-bench [--json] [--days <n>] [--rounds <n>] [--hello <path>] [--praykit <path>]
               praykit-bench --startup [--hello <path>] [--praykit <path>] [--json]
               praykit-bench --engine [--json] [--days <n>] [--rounds <n>]
               praykit-bench --routes [--json] [--rounds <n>]
               praykit-bench --magnetic [--json] [--rounds <n>]
               praykit-bench --sync [--sync-postgres <url>] [--json]
               praykit-bench --sync-pair <url> --store <location> --users <n> --devices <n> --tokens <file>
               praykit-bench --sync-load <url> --tokens <file> [--seconds <n>] [--warm-up <n>]
                             [--connections <n>] [--json]

        OPTIONS:
          --json                  Print one JSON object on one line.
          --hello <path>          A Foundation hello-world that reads a time zone, built the same way
                                  as praykit (Scripts/startup.sh builds one): 'praykit times' start-up
                                  is reported as a ratio to it (median of 21 runs each).
          --praykit <path>        The praykit binary whose start-up is measured (default: the one
                                  beside praykit-bench).
          --first-day-child       (Internal) Print the first day of this fresh process, in µs: the
                                  benchmark's first-day figure is the median of 21 of these.
          --startup               Measure only 'praykit times' start-up and peak memory against
                                  --hello (Scripts/startup.sh runs it for each build).
          --engine                Measure only the engine: consecutive days (--days, --rounds) and
                                  one-day requests, warm.
          --routes                Measure only praykit serve's /v1/timings and /v1/calendar answers,
                                  in process.
          --magnetic              Measure only one World Magnetic Model evaluation (the compass
                                  bearing of 'praykit qibla').
          --sync                  Measure only sync, in a temporary folder: pushes and a pull against
                                  the SQLite server store, directly and through the sync routes, and
                                  the sync client catching up after a year (medians of a few runs).
          --sync-postgres <url>   With --sync: the same figures on a PostgreSQL store too, side by
                                  side; the database must be empty (Scripts/bench-sync-postgres.sh
                                  makes one). Default: $PRAYKIT_BENCH_POSTGRES_URL.
          --sync-pair <url>       Adds --users users to the sync store at --store (sqlite:PATH or
                                  postgresql://…), pairs --devices devices a user through the server
                                  at <url> (POST /sync/v1/devices) and writes their tokens and client
                                  IDs to --tokens (for --sync-load).
          --sync-load <url>       Pushes one mutation a request to the server at <url> (http://host:port,
                                  e.g. HAProxy in front of several praykit serve) from the devices of
                                  --tokens, one request in flight per device, over --connections
                                  keep-alive connections, for --seconds (default 15) after a warm-up
                                  of --warm-up seconds (default 2): pushes/s and latency. A device
                                  sends at most 115 pushes a run, under praykit serve's 120 requests
                                  a minute (Scripts/bench-sync-servers.sh runs it).
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
            case "--routes": benchmark.routesOnly = true
            case "--engine": benchmark.engineOnly = true
            case "--magnetic": benchmark.magneticOnly = true
            case "--startup": benchmark.startupOnly = true
            case "--first-day-child":
                // Internal: one first day in this fresh process, in microseconds (see FirstDay).
                do {
                    print(Int(try FirstDay.measureHere().rounded()))
                    return 0
                } catch {
                    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
                    return 1
                }
            case "--praykit": benchmark.praykit = arguments.next()
            case "--sync": benchmark.syncOnly = true
            case "--sync-postgres":
                guard let url = arguments.next(), !url.isEmpty else {
                    FileHandle.standardError.write(Data("Error: --sync-postgres needs a postgresql:// URL\n".utf8))
                    return 64
                }
                benchmark.syncPostgresURL = url
            case "--sync-pair", "--sync-load", "--store", "--users", "--devices", "--tokens", "--seconds",
                "--connections", "--warm-up":
                guard let value = arguments.next() else {
                    FileHandle.standardError.write(Data("Error: \(argument) needs a value\n".utf8))
                    return 64
                }
                benchmark.load.values[argument] = value
            case "--hello": benchmark.hello = arguments.next()
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
                        ("Error: Unknown option '\(argument)'\n"
                            + "Usage: praykit-bench [--json] [--days <n>] [--rounds <n>] [--engine | --routes | --magnetic | --sync | --sync-load <url>]\n")
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
        if load.mode != nil {
            try runSyncLoad()
            return
        }
        if syncOnly {
            let times = try measureSync()
            guard let syncPostgresURL else {
                print(json ? times.json : times.text, terminator: json ? "\n" : "")
                return
            }
            let postgres = try measureSync(postgresURL: syncPostgresURL)
            if json {
                print("{" + (times.members() + postgres.members(prefix: "syncPostgres")).joined(separator: ",") + "}")
            } else {
                print(times.text + postgres.text + SyncTimes.comparison(sqlite: times, postgres: postgres))
            }
            return
        }
        if startupOnly {
            let startup = Startup.measure(praykit: praykit, hello: hello)
            print(json ? "{" + startup.json + "}" : startup.text, terminator: json ? "\n" : "")
            return
        }
        if magneticOnly {
            try runMagnetic()
            return
        }
        if engineOnly {
            let engine = try measureEngine()
            print(
                json
                    ? "{" + engine.json + #","days":\#(days),"rounds":\#(rounds)}"#
                    : engine.text(days: days, rounds: rounds),
                terminator: json ? "\n" : "")
            return
        }
        if routesOnly {
            guard let routes = measureRoutes(rounds: rounds) else {
                throw PrayError(.unavailable, message: "a /v1/timings or /v1/calendar request failed")
            }
            print(json ? "{" + routes.json + "}" : "best of \(rounds) rounds\n" + routes.text, terminator: "")
            return
        }
        // First, while this process is small: a child's peak memory as wait4 reports it is at least its
        // parent's at the spawn (posix_spawn shares the parent's memory until the exec, whose high-water
        // mark the child inherits), so measured later it would be this benchmark's, not praykit's.
        let startup = Startup.measure(praykit: praykit, hello: hello)
        // The first request of a fresh process: static tables, zone data and caches cold. Measured in
        // children of this benchmark (median of 21), not here, where start-up's children ran first.
        guard let firstDay = FirstDay.medianOfFreshProcesses() else {
            throw PrayError(.unavailable, message: "the first-day children did not run")
        }
        let engine = try measureEngine()
        let storage = try measureStorage()
        let places = try measurePlaces()
        guard let route = measureRoutes() else {
            throw PrayError(.unavailable, message: "a /v1/timings or /v1/calendar request failed")
        }
        let magnetic = measureMagneticField()
        guard magnetic.isFinite else { throw PrayError(.unavailable, message: "a magnetic field evaluation failed") }
        if json {
            print(
                "{" + engine.json + ","
                    + #""firstDayMicroseconds":\#(Int(firstDay.rounded())),"#
                    + #""days":\#(days),"rounds":\#(rounds),"place":"London","method":"muslim-world-league","#
                    + #""logRowsPerSecond":\#(Int(storage.rowsPerSecond.rounded())),"#
                    + #""logYearReadMicroseconds":\#(Int(storage.yearRead.rounded())),"#
                    + places.json + "," + startup.json + ","
                    + route.json + ","
                    + #""magneticFieldNanoseconds":\#(Int(magnetic.rounded()))}"#
            )
        } else {
            print(engine.text(days: days, rounds: rounds, firstDay: firstDay), terminator: "")
            print("prayer log (SQLite, WAL, synchronous=FULL):")
            print("  recording in one transaction: \(Int(storage.rowsPerSecond.rounded())) rows/s")
            print("  reading a year (1825 entries): \(Int(storage.yearRead.rounded())) µs")
            print(places.text, terminator: "")
            print(startup.text, terminator: "")
            print(route.text, terminator: "")
            print("World Magnetic Model (WMM2025, degree 12):")
            print("  one field evaluation at a random place, height and date: \(Int(magnetic.rounded())) ns")
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

// MARK: - Places

extension Benchmark {
    /// Times of the offline zone boundaries and gazetteer.
    struct PlaceTimes {
        /// Decoding the zone boundaries in this process, first use.
        var zoneLoadMilliseconds = 0.0
        /// One zone lookup, warm: the mean over random points and over every city, best of the rounds.
        var zoneLookupNanoseconds = 0.0
        var cityZoneLookupNanoseconds = 0.0
        /// Parsing and indexing the gazetteer in this process, first use.
        var placeLoadMilliseconds = 0.0
        /// One search, warm: the mean and the slowest of the query list (best of the rounds each).
        var searchMicroseconds = 0.0
        var slowestSearchMicroseconds = 0.0
        var slowestSearch = ""
        /// The same for names of countries and regions, country names after the comma and swapped
        /// letters (``placeNameQueries``).
        var nameSearchMicroseconds = 0.0
        var slowestNameSearchMicroseconds = 0.0
        var slowestNameSearch = ""
        /// One nearest-city lookup, warm.
        var nearestMicroseconds = 0.0

        var json: String {
            #""zoneLoadMilliseconds":\#(rounded(zoneLoadMilliseconds)),"#
                + #""zoneLookupNanoseconds":\#(Int(zoneLookupNanoseconds.rounded())),"#
                + #""cityZoneLookupNanoseconds":\#(Int(cityZoneLookupNanoseconds.rounded())),"#
                + #""placeLoadMilliseconds":\#(rounded(placeLoadMilliseconds)),"#
                + #""placeSearchMicroseconds":\#(Int(searchMicroseconds.rounded())),"#
                + #""placeSearchSlowestMicroseconds":\#(Int(slowestSearchMicroseconds.rounded())),"#
                + #""placeNameSearchMicroseconds":\#(Int(nameSearchMicroseconds.rounded())),"#
                + #""placeNameSearchSlowestMicroseconds":\#(Int(slowestNameSearchMicroseconds.rounded())),"#
                + #""placeNearestMicroseconds":\#(Int(nearestMicroseconds.rounded()))"#
        }

        var text: String {
            """
            places (offline zone boundaries and gazetteer):
              zone boundaries, first use: \(rounded(zoneLoadMilliseconds)) ms
              zone lookup, warm: \(Int(zoneLookupNanoseconds.rounded())) ns (random points), \
            \(Int(cityZoneLookupNanoseconds.rounded())) ns (cities)
              gazetteer, first use: \(rounded(placeLoadMilliseconds)) ms
              search, warm: \(Int(searchMicroseconds.rounded())) µs mean, \
            \(Int(slowestSearchMicroseconds.rounded())) µs slowest ('\(slowestSearch)')
              search of countries, regions, country qualifiers, swaps, warm: \
            \(Int(nameSearchMicroseconds.rounded())) µs mean, \
            \(Int(slowestNameSearchMicroseconds.rounded())) µs slowest ('\(slowestNameSearch)')
              nearest city, warm: \(Int(nearestMicroseconds.rounded())) µs

            """
        }

        private func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
    }

    /// Queries of every kind: own and alternate names, Arabic, qualifiers, prefixes and typos.
    static let placeQueries = [
        "Mecca", "Makkah", "مكة", "Medina", "Köln", "Cologne", "Bombay", "Sao Paulo", "Londn", "London, Canada",
        "Springfield, Illinois", "Springfield", "Birmingham, AL", "Sao Pa", "Jedah", "Karachee", "Washington, D.C.",
        "المدينة المنورة", "Kuala Lumpur", "Dubaii",
    ]

    /// Countries and regions where a city is expected, country names after the comma, swapped letters
    /// and names of two large places (issue 20).
    static let placeNameQueries = [
        "Egypt", "مصر", "Georgia", "Qatar", "Texas", "USA", "Tehran, Iran", "القاهرة، مصر",
        "La Paz, Bolivia, Plurinational State of", "Cario", "Riyahd", "Hyderabad",
    ]

    func measurePlaces() throws -> PlaceTimes {
        var times = PlaceTimes()
        let zones = TimeZoneServiceBoundaries(log: .silent)
        var started = DispatchTime.now().uptimeNanoseconds
        try zones.preload()
        times.zoneLoadMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        let places = PlaceServiceGazetteer(log: .silent)
        started = DispatchTime.now().uptimeNanoseconds
        try places.preload()
        times.placeLoadMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        // Random points (a fixed linear congruential sequence), uniform on the sphere.
        var state: UInt64 = 11
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let points = try (0..<20_000).map { _ in
            try Coordinates(latitude: asin(2 * random() - 1) * 180 / .pi, longitude: 360 * random() - 180)
        }
        let cities = try places.nearest(to: Coordinates(latitude: 48.85, longitude: 2.35), limit: 5000)
            .map(\.place.coordinates)
        var found = 0
        func timeLookups(_ points: [Coordinates]) throws -> Double {
            var best = Double.infinity
            for _ in 0..<rounds {
                let started = DispatchTime.now().uptimeNanoseconds
                for point in points { found &+= try zones.timeZone(at: point).identifier.utf8.count }
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - started) / Double(points.count))
            }
            return best
        }
        times.zoneLookupNanoseconds = try timeLookups(points)
        times.cityZoneLookupNanoseconds = try timeLookups(cities)
        /// The mean and the slowest search of a list, warm (best of the rounds each).
        func timeSearches(_ queries: [String]) throws -> (mean: Double, slowest: Double, query: String) {
            var (total, slowest, slowestQuery) = (0.0, 0.0, "")
            for query in queries {
                var best = Double.infinity
                for _ in 0..<max(3, rounds / 4) {
                    let started = DispatchTime.now().uptimeNanoseconds
                    found &+= try places.search(query).matches.count
                    best = min(best, Double(DispatchTime.now().uptimeNanoseconds - started) / 1e3)
                }
                total += best
                if best > slowest { (slowest, slowestQuery) = (best, query) }
            }
            return (total / Double(queries.count), slowest, slowestQuery)
        }
        (times.searchMicroseconds, times.slowestSearchMicroseconds, times.slowestSearch) = try timeSearches(
            Self.placeQueries)
        (times.nameSearchMicroseconds, times.slowestNameSearchMicroseconds, times.slowestNameSearch) =
            try timeSearches(Self.placeNameQueries)
        started = DispatchTime.now().uptimeNanoseconds
        for point in points.prefix(1000) { found &+= try places.nearest(to: point, limit: 1).count }
        times.nearestMicroseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1000 / 1e3
        guard found > 0 else { throw PrayError(.unavailable, message: "no place was found") }
        return times
    }
}

/// The first day in a fresh process: one London day (Muslim World League) computed by a child of this
/// benchmark (`--first-day-child`) with every table, cache and zone cold — the zone made before the
/// clock starts, as an app has it before it asks — median of 21 children.
enum FirstDay {
    /// Computes the first day in this process; microseconds.
    static func measureHere() throws -> Double {
        let service = PrayerServiceAstronomical(log: .silent)
        let zone = TimeZone(identifier: "Europe/London")!
        let request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 51.5074, longitude: -0.1278), timeZone: zone,
            date: try CivilDate(parsing: "2026-01-01"), days: 1,
            parameters: CalculationParameters(method: .muslimWorldLeague))
        let started = DispatchTime.now().uptimeNanoseconds
        let schedules = try service.schedules(for: request)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e3
        guard schedules.first?[.isha] != nil else { throw PrayError(.unavailable, message: "no times were computed") }
        return elapsed
    }

    /// The median of 21 children's first days, or `nil` when they could not run.
    static func medianOfFreshProcesses() -> Double? {
        let values = (0..<21).compactMap { _ in child() }
        return values.isEmpty ? nil : values.sorted()[values.count / 2]
    }

    /// One child's first day: this executable run with `--first-day-child`, its one line read.
    ///
    /// Spawned with `posix_spawn` and waited for with blocking calls, as ``Startup`` runs its programs:
    /// through Foundation's `Process` the child's first day measured 182–198 µs (medians of 21) against
    /// 126–129 µs through `posix_spawn`, the same binary in the same minute — as far as we can tell,
    /// the parent's threads that watch for the child's exit take a core from the child now and then
    /// on a machine of two.
    private static func child() -> Double? {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { return nil }
        // Neither end stays open in the child but as its standard output.
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let path = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let pid = Spawn.start([path, "--first-day-child"], output: descriptors[1])
        close(descriptors[1])
        defer { close(descriptors[0]) }
        guard let pid else { return nil }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        while true {
            let count = read(descriptors[0], &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += chunk[0..<count]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        // Exited (the low seven bits zero) with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else { return nil }
        return Double(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Starts the benchmark's child programs with `posix_spawn`, no thread of this process at work while
/// they run (see ``FirstDay``).
enum Spawn {
    /// Starts `arguments` (the program's path first) with standard output on the descriptor `output`
    /// and the environment `environment` (this process's when `nil`); its process id, or `nil` when it
    /// could not start.
    static func start(_ arguments: [String], environment: [String]? = nil, output: Int32) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer { (argv + (envp ?? [])).forEach { free($0) } }
        var pid: pid_t = 0
        let result =
            if let envp { posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) } else {
                posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
            }
        return result == 0 ? pid : nil
    }
}

/// Start-up of the real `praykit` binary beside this one: wall time of `praykit times` for one day
/// (median of 21 runs) against a hello-world, and its peak memory.
struct Startup {
    var praykitMilliseconds: Double?
    var helloMilliseconds: Double?
    var peakRSSKilobytes: Int?
    /// This benchmark's own peak when it spawned them: the floor of ``peakRSSKilobytes`` (see `run()`).
    var benchmarkRSSKilobytes: Int?

    var ratio: Double? {
        guard let praykit = praykitMilliseconds, let hello = helloMilliseconds, hello > 0 else { return nil }
        return praykit / hello
    }

    static func measure(praykit given: String?, hello: String?) -> Startup {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let praykit = given ?? folder.appendingPathComponent("praykit").path
        guard FileManager.default.isExecutableFile(atPath: praykit) else { return Startup() }
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(getpid()).sqlite").path
        let arguments = [praykit, "times", "--lat", "21.4225", "--lon", "39.8262"]
        var result = Startup()
        var own = rusage()
        if getrusage(RUSAGE_SELF.rawValue, &own) == 0 { result.benchmarkRSSKilobytes = Int(own.ru_maxrss) }
        let runs = (0..<21).compactMap { _ in run(arguments, database: database) }
        result.praykitMilliseconds = median(runs.map(\.milliseconds))
        result.peakRSSKilobytes = runs.map(\.maxRSS).max()
        if let hello, FileManager.default.isExecutableFile(atPath: hello) {
            result.helloMilliseconds = median(
                (0..<21).compactMap { _ in run([hello], database: database)?.milliseconds })
        }
        return result
    }

    /// Runs a program to completion with output discarded: wall time and peak resident memory.
    private static func run(_ arguments: [String], database: String) -> (milliseconds: Double, maxRSS: Int)? {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else { return nil }
        defer { close(null) }
        let started = DispatchTime.now().uptimeNanoseconds
        guard
            let pid = Spawn.start(
                arguments, environment: ["PRAYKIT_DATABASE=\(database)", "PATH=/usr/bin:/bin"], output: null)
        else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid else { return nil }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        return (elapsed, Int(usage.ru_maxrss))
    }

    private static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return values.sorted()[values.count / 2]
    }

    var json: String {
        func number(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "null" }
        return #""startupRatio":\#(number(ratio)),"startupMilliseconds":\#(number(praykitMilliseconds)),"#
            + #""helloMilliseconds":\#(number(helloMilliseconds)),"peakRSSOneDay":\#(peakRSSKilobytes.map { "\($0)" } ?? "null")"#
    }

    var text: String {
        guard let milliseconds = praykitMilliseconds else {
            return "start-up: no praykit binary (beside praykit-bench, or --praykit)\n"
        }
        var text = "praykit times, one day, a fresh process (median of 21): \(String(format: "%.1f", milliseconds)) ms"
        if let ratio, let hello = helloMilliseconds {
            text += ", \(String(format: "%.2f", ratio))× a hello-world (\(String(format: "%.1f", hello)) ms)"
        }
        if let rss = peakRSSKilobytes {
            text += "; peak RSS \(String(format: "%.1f", Double(rss) / 1024)) MB"
            if let floor = benchmarkRSSKilobytes, floor >= rss {
                text += " (no more than praykit-bench's own \(floor / 1024) MB: not praykit's)"
            }
        }
        return text + "\n"
    }
}

exit(Benchmark.main())
