import Foundation
import PrayCore
import PrayServer
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Options

/// The options of `--sync-pair` and `--sync-load`, as given on the command line.
struct SyncLoadOptions {
    var values: [String: String] = [:]

    /// `--sync-pair` or `--sync-load`, whichever was given.
    var mode: String? { ["--sync-pair", "--sync-load"].first { values[$0] != nil } }

    func number(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = values[name] else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw PrayError(
                .unavailable, message: "\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    func required(_ name: String) throws -> String {
        guard let value = values[name], !value.isEmpty else {
            throw PrayError(.unavailable, message: "\(mode ?? "this mode") needs \(name)")
        }
        return value
    }
}

// MARK: - Pairing and load

extension Benchmark {
    /// The most pushes a device sends in one `--sync-load` run: `praykit serve` lets a device make 120
    /// requests a minute (per server process, in a fixed window), and a run lasts under a minute, so
    /// no push is refused for its rate and no device waits for `Retry-After`.
    static let pushesPerDevice = 115

    /// `--sync-pair` or `--sync-load`.
    func runSyncLoad() throws {
        if load.mode == "--sync-pair" {
            try pairLoadDevices()
        } else {
            let report = try driveSyncLoad()
            print(json ? report.json : report.text)
        }
    }

    /// Adds the users to the store (their first pairing code, then a new code for each further
    /// device), pairs every device through the server as a phone would, and writes one line a device:
    /// its token, its new client ID and its number.
    private func pairLoadDevices() throws {
        let target = try SyncLoadTarget(try load.required("--sync-pair"))
        let users = try load.number("--users", default: 1, range: 1...100_000)
        let devices = try load.number("--devices", default: 1, range: 1...100_000)
        let tokens = try load.required("--tokens")
        // Each device's log keys are 25 days of its own from 2000-01-01 (see SyncLoadWorker.push).
        guard users * devices <= 4_000 else {
            throw PrayError(.unavailable, message: "--sync-pair pairs at most 4000 devices (--users × --devices)")
        }
        let store: any SyncStore
        switch try SyncStoreLocation(parsing: try load.required("--store")) {
        case .sqlite(let path): store = SyncStoreSQLite(path: path, log: .silent)
        case .postgreSQL(let url):
            #if canImport(CPostgres)
                store = SyncStorePostgres(url: url, connections: 1, log: .silent)
            #else
                _ = url
                throw PrayError(.unavailable, message: "PostgreSQL sync stores need Linux (libpq)")
            #endif
        }
        let connection = try SyncLoadConnection(target)
        let tag = UUID().uuidString.prefix(8).lowercased()
        var random = SystemRandomNumberGenerator()
        var lines: [String] = []
        for user in 0..<users {
            let name = "load-\(tag)-\(user)"
            for device in 0..<devices {
                let code =
                    device == 0
                    ? try store.addUser(named: name, now: Date()).code
                    : try store.newPairingCode(forUser: name, now: Date()).code
                let body = try JSONEncoder().encode(SyncAPI.PairRequest(code: code, deviceName: "load-\(device)"))
                let answer = try connection.post("/sync/v1/devices", token: nil, body: body)
                guard answer.status == 201 else {
                    throw PrayError(.unavailable, message: "pairing was answered \(answer.status)")
                }
                let paired = try JSONDecoder().decode(SyncAPI.PairResponse.self, from: Data(answer.body))
                lines.append("\(paired.token) c_\(SyncID.hex(count: 16, using: &random)) \(lines.count)")
            }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: tokens, atomically: true, encoding: .utf8)
        print("paired \(lines.count) devices of \(users) users through \(target.description)")
    }

    /// Pushes from every device of the tokens file over `--connections` threads, each with its own
    /// keep-alive connection and its share of the devices (taken in turn, so one request is in flight
    /// per device), for the warm-up and then `--seconds`; only the pushes answered within the
    /// measured seconds count.
    private func driveSyncLoad() throws -> SyncLoadReport {
        let target = try SyncLoadTarget(try load.required("--sync-load"))
        let seconds = try load.number("--seconds", default: 15, range: 1...55)
        let warmUp = try load.number("--warm-up", default: 2, range: 0...20)
        let text = try String(contentsOfFile: try load.required("--tokens"), encoding: .utf8)
        let devices = text.split(separator: "\n").map { line in
            let fields = line.split(separator: " ")
            return SyncLoadDevice(token: String(fields[0]), clientID: String(fields[1]), number: Int(fields[2]) ?? 0)
        }
        let threads = try load.number("--connections", default: 16, range: 1...1_000)
        guard !devices.isEmpty, threads <= devices.count else {
            throw PrayError(.unavailable, message: "--connections needs at least as many devices in --tokens")
        }
        guard seconds + warmUp < 60 else {
            throw PrayError(.unavailable, message: "a run must stay under the servers' rate window of 60 s")
        }
        let start = DispatchTime.now().uptimeNanoseconds + 50_000_000
        let window = SyncLoadWindow(
            measureFrom: start + UInt64(warmUp) * 1_000_000_000,
            end: start + UInt64(warmUp + seconds) * 1_000_000_000)
        let results = Mutex<[SyncLoadThreadResult]>([])
        let group = DispatchGroup()
        for index in 0..<threads {
            let mine = stride(from: index, to: devices.count, by: threads).map { devices[$0] }
            group.enter()
            let thread = Thread {
                let result = SyncLoadWorker(target: target, devices: mine, window: window).run()
                results.withLock { $0.append(result) }
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        // The generator's own CPU over the measured seconds: from the end of the warm-up to the end.
        let now = DispatchTime.now().uptimeNanoseconds
        if now < window.measureFrom { usleep(useconds_t((window.measureFrom - now) / 1000)) }
        let cpuBefore = Self.processCPUSeconds()
        let measuring = DispatchTime.now().uptimeNanoseconds
        group.wait()
        let cpu =
            (Self.processCPUSeconds() - cpuBefore) / (Double(DispatchTime.now().uptimeNanoseconds - measuring) / 1e9)
        return SyncLoadReport(
            results: results.withLock { $0 }, seconds: Double(seconds), devices: devices.count,
            connections: threads, generatorCores: cpu, target: target.description)
    }

    /// This process's user and system CPU time so far, seconds.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}

// MARK: - The worker threads

/// A paired device of the tokens file.
struct SyncLoadDevice: Sendable {
    let token: String
    let clientID: String
    /// Its line in the file: its log keys are days of its own, so no push of another device's
    /// replaces its rows.
    let number: Int
}

/// When the warm-up ends and when the run ends, on the monotonic clock (nanoseconds).
struct SyncLoadWindow: Sendable {
    let measureFrom: UInt64
    let end: UInt64
}

/// What one thread saw within the measured seconds: the latency of every push answered 200
/// (microseconds), the other answers by status (0: the connection failed; -1: 200, but the mutation
/// was rejected), and whether it ran out of pushes before the end.
struct SyncLoadThreadResult: Sendable {
    var latencies: [UInt32] = []
    var failures: [Int: Int] = [:]
    var exhausted = false
    /// Pushes answered 200 in the whole run, warm-up included: each is a row the store must hold.
    var answered = 0
}

/// One thread of the load: its devices in turn over one keep-alive connection, each push one new
/// log row with the device's next mutation ID (encoded with `JSONEncoder`, as the client does).
struct SyncLoadWorker {
    let target: SyncLoadTarget
    let devices: [SyncLoadDevice]
    let window: SyncLoadWindow

    func run() -> SyncLoadThreadResult {
        var result = SyncLoadThreadResult()
        result.latencies.reserveCapacity(100_000)
        var sent = [Int](repeating: 0, count: devices.count)
        var connection: SyncLoadConnection?
        let encoder = JSONEncoder()
        var turn = 0
        while DispatchTime.now().uptimeNanoseconds < window.end {
            guard sent[turn] < Benchmark.pushesPerDevice else {
                result.exhausted = true
                break
            }
            let device = devices[turn]
            var started = DispatchTime.now().uptimeNanoseconds
            var status = 0
            do {
                let body = try encoder.encode(try Self.push(device, mutationID: sent[turn] + 1))
                // The latency is the request's: from here (a new connection's set-up included).
                started = DispatchTime.now().uptimeNanoseconds
                if connection == nil { connection = try SyncLoadConnection(target) }
                let answer = try connection!.post("/sync/v1/push", token: device.token, body: body)
                // A push answered 200 may still have refused its mutation: that is no stored row.
                status = answer.status == 200 && !Self.acceptedEverything(answer.body) ? -1 : answer.status
                if connection?.isOpen == false { connection = nil }
            } catch {
                connection = nil
            }
            let finished = DispatchTime.now().uptimeNanoseconds
            if status == 200 {
                sent[turn] += 1
                result.answered += 1
            }
            if started >= window.measureFrom && finished <= window.end {
                if status == 200 {
                    result.latencies.append(UInt32(min(UInt64(UInt32.max), (finished - started) / 1000)))
                } else {
                    result.failures[status, default: 0] += 1
                }
            }
            turn = (turn + 1) % devices.count
        }
        return result
    }

    /// Whether a push's answer lists no rejected mutation (`JSONEncoder`'s compact `"rejected":[]`).
    static func acceptedEverything(_ body: [UInt8]) -> Bool {
        let needle = Array(#""rejected":[]"#.utf8)
        guard body.count >= needle.count else { return false }
        return (0...(body.count - needle.count)).contains { start in
            body[start..<start + needle.count].elementsEqual(needle)
        }
    }

    /// A push of one new log row: the device's day `number × 25 + id / 5`, prayer `id % 5`, stamped now.
    static func push(_ device: SyncLoadDevice, mutationID: Int) throws -> SyncAPI.PushRequest {
        let index = mutationID - 1
        let date = SyncBenchData.firstDay.adding(days: device.number * 25 + index / 5)
        let now = Date()
        let mutation = SyncAPI.Mutation(
            id: mutationID, collection: .log, key: SyncRules.logKey(date: date, prayer: Prayer.obligatory[index % 5]),
            op: .put,
            hlc: try HLC(
                milliseconds: Int64(now.timeIntervalSince1970 * 1000), counter: 0, clientID: device.clientID),
            value: .log(SyncLogValue(status: .prayed, recordedAt: now, note: nil)))
        return SyncAPI.PushRequest(clientID: device.clientID, mutations: [mutation])
    }
}

// MARK: - Report

/// The figures of one `--sync-load` run.
struct SyncLoadReport {
    let results: [SyncLoadThreadResult]
    let seconds: Double
    let devices: Int
    let connections: Int
    /// The generator's CPU time over the measured seconds (user and system, all threads) per second.
    let generatorCores: Double
    let target: String

    private var latencies: [UInt32] { results.flatMap(\.latencies).sorted() }

    private func percentile(_ sorted: [UInt32], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]) / 1000
    }

    private var failures: [Int: Int] {
        results.reduce(into: [:]) { total, result in total.merge(result.failures, uniquingKeysWith: +) }
    }

    var json: String {
        let sorted = latencies
        let failed = failures.sorted { $0.key < $1.key }.map { #""\#($0.key)":\#($0.value)"# }
        return #"{"syncLoadPushesPerSecond":\#(Int((Double(sorted.count) / seconds).rounded())),"#
            + #""syncLoadPushes":\#(sorted.count),"syncLoadSeconds":\#(Int(seconds)),"#
            + #""syncLoadLatencyP50Milliseconds":\#(String(format: "%.2f", percentile(sorted, 0.5))),"#
            + #""syncLoadLatencyP99Milliseconds":\#(String(format: "%.2f", percentile(sorted, 0.99))),"#
            + #""syncLoadLatencyMaxMilliseconds":\#(String(format: "%.2f", percentile(sorted, 1))),"#
            + #""syncLoadDevices":\#(devices),"syncLoadConnections":\#(connections),"#
            + #""syncLoadFailures":{\#(failed.joined(separator: ","))},"#
            + #""syncLoadPushesAnswered":\#(results.map(\.answered).reduce(0, +)),"#
            + #""syncLoadExhaustedConnections":\#(results.filter(\.exhausted).count),"#
            + #""syncLoadGeneratorCores":\#(String(format: "%.2f", generatorCores))}"#
    }

    var text: String {
        let sorted = latencies
        let failed = failures.sorted { $0.key < $1.key }.map {
            "\($0.value) × \($0.key == 0 ? "no answer" : $0.key == -1 ? "rejected" : "\($0.key)")"
        }
        return """
            praykit-bench --sync-load \(target): \(devices) devices over \(connections) connections, \
            \(Int(seconds)) s after a warm-up
              \(Int((Double(sorted.count) / seconds).rounded())) pushes/s (\(sorted.count) pushes of 1 mutation, \
            answered 200)
              latency p50 \(String(format: "%.2f", percentile(sorted, 0.5))) ms, \
            p99 \(String(format: "%.2f", percentile(sorted, 0.99))) ms, max \(String(format: "%.2f", percentile(sorted, 1))) ms
              other answers: \(failed.isEmpty ? "none" : failed.joined(separator: ", ")); connections out of pushes \
            before the end: \(results.filter(\.exhausted).count)
              the load generator used \(String(format: "%.2f", generatorCores)) cores (\
            user + system CPU over the measured seconds)
            """
    }
}

// MARK: - HTTP over a socket

/// `http://host:port` of the server: an IPv4 address and a port.
struct SyncLoadTarget: Sendable, CustomStringConvertible {
    let host: String
    let port: UInt16

    init(_ text: String) throws {
        guard let url = URL(string: text), url.scheme == "http", let host = url.host, let port = url.port,
            let port = UInt16(exactly: port)
        else {
            throw PrayError(.unavailable, message: "the server must be http://IPv4:port, got '\(text)'")
        }
        self.host = host
        self.port = port
    }

    var description: String { "http://\(host):\(port)" }
}

/// One keep-alive HTTP/1.1 connection on a blocking socket: a request, then its whole answer
/// (`Content-Length` bodies, as `praykit serve` and HAProxy send them). Not `Sendable`: one thread's.
final class SyncLoadConnection {
    private let socket: Int32
    private let host: String
    private var buffer: [UInt8] = []
    /// False once the server said it closes the connection after its answer.
    private(set) var isOpen = true

    init(_ target: SyncLoadTarget) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        host = "\(target.host):\(target.port)"
        guard socket >= 0 else { throw PrayError(.unavailable, message: "no socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = target.port.bigEndian
        inet_pton(AF_INET, target.host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw PrayError(.unavailable, message: "cannot connect to \(host): errno \(errno)")
        }
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(socket) }

    /// POSTs a JSON body, with the bearer token when given; the status and the body of the answer.
    func post(_ path: String, token: String?, body: Data) throws -> (status: Int, body: [UInt8]) {
        var head = "POST \(path) HTTP/1.1\r\nHost: \(host)\r\nContent-Type: application/json\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        try send(Array(head.utf8) + body)
        return try receive()
    }

    private func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + sent, bytes.count - sent, 0) }
            guard count > 0 else { throw PrayError(.unavailable, message: "the connection closed while sending") }
            sent += count
        }
    }

    private func receive() throws -> (status: Int, body: [UInt8]) {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            headEnd = Self.find(separator, in: buffer)
            if headEnd == nil { try fill() }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self).lowercased()
        let lines = head.split(separator: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let length =
            lines.lazy.compactMap { line -> Int? in
                guard line.hasPrefix("content-length:") else { return nil }
                return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
            }.first ?? 0
        let bodyStart = headEnd! + separator.count
        while buffer.count < bodyStart + length { try fill() }
        let body = Array(buffer[bodyStart..<bodyStart + length])
        buffer.removeFirst(bodyStart + length)
        if lines.contains("connection: close") { isOpen = false }
        return (status, body)
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress!, $0.count, 0) }
        guard count > 0 else { throw PrayError(.unavailable, message: "the connection closed while receiving") }
        buffer.append(contentsOf: chunk[..<count])
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
