import Foundation
import PrayCore
import PrayMocks
import PrayServer
import PrayServices
import Testing

// The code samples of PrayServer's DocC catalog, verbatim, so they keep compiling and answering what
// their comments say; `DocCSampleCoverageTests` fails when one of them is not here as written.

// MARK: - PrayServer.docc: Serving the AlAdhan API

enum PrayServerSample {
    static func inProcess() -> (routes: AlAdhanRoutes, answer: ServerAPI.Response, log: LogManager) {
        let log = LogManager.silent
        let prayers = PrayerServiceAstronomical(log: log)
        let routes = AlAdhanRoutes(
            calculator: prayers, hijri: HijriServiceUmmAlQura(prayerService: prayers, log: log),
            qibla: QiblaServiceGeodesic(log: log), clock: PrayClockSystem(), log: log)
        let request = ServerAPI.Request(
            target: "/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&method=4&timezonestring=Asia/Riyadh")
        let answer = routes.respond(to: request)
        // 200 {"code":200,"status":"OK","data":{"timings":{"Fajr":"05:26","Sunrise":"06:42",…
        return (routes, answer, log)
    }

    // The server is libmicrohttpd, a Linux dependency of PrayServer (Package.swift).
    #if canImport(CMicroHTTPD)
        static func overHTTP(_ routes: AlAdhanRoutes, _ log: LogManager) async throws -> URL {
            let server = try ServerServiceMicroHTTPD(log: log).start(
                ServerAPI.Configuration(port: 0), handler: routes.handler)
            print(server.url)  // http://127.0.0.1:40123: port 0 takes a free one
            await server.shutdown()  // stops accepting, lets the requests in progress finish, then stops
            return server.url
        }
    #endif

    static func withSync(
        _ routes: AlAdhanRoutes, _ log: LogManager, folder: String
    ) throws -> (code: SyncPairingCode, both: ServerRoutesCombined) {
        let store = SyncStoreSQLite(path: folder + "/sync.sqlite", log: log)
        let code = try store.addUser(named: "amina", now: Date())  // the first device's pairing code
        let both = ServerRoutesCombined(api: routes, sync: SyncRoutes(store: store, clock: PrayClockSystem(), log: log))
        return (code, both)
    }
}

// MARK: - The tests

@Suite struct DocCSampleTests {
    @Test func theAlAdhanRoutesAnswerInProcess() throws {
        let sample = PrayServerSample.inProcess()
        #expect(sample.answer.status == 200)
        let body = String(decoding: sample.answer.body, as: UTF8.self)
        #expect(body.hasPrefix(#"{"code":200,"status":"OK","data":{"timings":{"Fajr":"05:26","Sunrise":"06:42","#))
        #expect(sample.answer.headers["Cache-Control"] == "public, max-age=86400")
    }

    #if canImport(CMicroHTTPD)
        @Test(.needsMicroHTTPD) func theRoutesAreServedOverHTTP() async throws {
            let sample = PrayServerSample.inProcess()
            let url = try await PrayServerSample.overHTTP(sample.routes, sample.log)
            #expect(url.host == "127.0.0.1")
            #expect((url.port ?? 0) > 0)
        }
    #endif

    @Test func syncIsServedBesideTheAPI() throws {
        let sample = PrayServerSample.inProcess()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("docc-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sync = try PrayServerSample.withSync(sample.routes, sample.log, folder: folder.path)
        #expect(!sync.code.code.isEmpty)
        // A pull without a token is the sync routes' 401; a timings request is still the API's.
        let pull = sync.both.respond(to: ServerAPI.Request(method: "POST", path: "/sync/v1/pull"))
        #expect(pull.status == 401)
        let timings = sync.both.respond(
            to: ServerAPI.Request(target: "/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&method=4"))
        #expect(timings.status == 200)
    }
}

// MARK: - Every sample is here, as written

@Suite struct DocCSampleCoverageTests {
    @Test func everyCatalogSampleIsInATest() throws {
        let here = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        let catalog = here.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/PrayServer/PrayServer.docc")
        let tests = try FileManager.default.contentsOfDirectory(at: here, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
            .map { Self.lines(String(decoding: try Data(contentsOf: $0), as: UTF8.self)) }
        let articles = try FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }
        #expect(!articles.isEmpty)
        var missing: [String] = []
        for article in articles {
            for block in Self.blocks(String(decoding: try Data(contentsOf: article), as: UTF8.self)) {
                let sample = Self.lines(block).filter { !$0.hasPrefix("import ") }
                if let first = sample.first, !tests.contains(where: { Self.contains($0, sample) }) {
                    missing.append("\(article.lastPathComponent): \(first)")
                }
            }
        }
        #expect(missing.isEmpty, "samples not in Tests/PrayServerTests as written:\n\(missing.joined(separator: "\n"))")
    }

    /// The bodies of the ```swift blocks (as in Tests/PrayKitTests/DocCSampleTests.swift).
    static func blocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if let body = current, trimmed == "```" {
                blocks.append(body.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        // A block that is never closed is reported as missing rather than left out.
        if current != nil { blocks.append("unterminated ```swift block") }
        return blocks
    }

    /// The non-blank lines, without their indentation.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether `needle` is a run of consecutive lines of `haystack`.
    static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}
