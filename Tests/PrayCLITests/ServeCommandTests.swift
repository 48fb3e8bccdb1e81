import Foundation
import PrayCore
import PrayMocks
import PrayServer
import PrayServices
import Testing

@testable import PrayCLI

/// `praykit serve`: its options in-process on a mock server, and the real binary on a loopback port,
/// stopped by SIGTERM.
@Suite struct ServeCommandTests {
    /// A dependency whose server service records the start and returns a server that has stopped.
    func dependency(port: Int = 40123, error: (any Error)? = nil) -> (PrayDependencyMock, ServerServiceMock) {
        var dependency = CLI.dependency()
        let servers = ServerServiceMock()
        servers.onStart { configuration, _ in
            if let error { throw error }
            return RunningServerFake(host: configuration.host, port: port, isStopped: true)
        }
        dependency.server = servers
        return (dependency, servers)
    }

    @Test func startsWithTheOptionsGivenAndPrintsWhereItListens() async throws {
        // Given
        let (dependency, servers) = dependency(port: 40123)
        // When
        let result = await CLI.run(
            [
                "serve", "--host", "0.0.0.0", "--port", "0", "--threads", "3", "--timeout", "20",
                "--max-connections-per-address", "7", "--max-head", "4096", "--max-body", "0",
            ], dependency: dependency)
        // Then
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Listening on http://0.0.0.0:40123\n")
        let call = try #require(servers.startCalls.first)
        #expect(call.configuration.host == "0.0.0.0" && call.configuration.port == 0)
        #expect(call.configuration.threads == 3 && call.configuration.requestTimeout == 20)
        #expect(call.configuration.connectionLimitPerAddress == 7)
        #expect(call.configuration.maximumRequestHeadBytes == 4096 && call.configuration.maximumRequestBodyBytes == 0)
        // The handler is the AlAdhan API on the dependency's services
        let response = call.handler(
            ServerAPI.Request(target: "/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&method=4"))
        #expect(response.status == 200)
    }

    @Test func defaultsAreLoopbackPort8080AndOneThreadPerCore() async throws {
        let (dependency, servers) = dependency()
        let result = await CLI.run(["serve"], dependency: dependency)
        #expect(result.status == 0, "\(result.stderr)")
        let configuration = try #require(servers.startCalls.first?.configuration)
        #expect(configuration.host == "127.0.0.1" && configuration.port == 8080)
        #expect(configuration.threads == ProcessInfo.processInfo.activeProcessorCount)
        #expect(configuration.connectionLimitPerAddress == 256 && configuration.maximumRequestBodyBytes == 8192)
    }

    @Test func badOptionsAreUsageErrorsAndAPortInUseIsARuntimeError() async throws {
        for arguments in [
            ["--threads", "0"], ["--port", "70000"], ["--timeout", "0"], ["--port", "x"],
            ["--max-connections-per-address", "-1"], ["--max-head", "100"], ["--max-body", "5000000"],
        ] {
            let (dependency, servers) = dependency()
            let result = await CLI.run(["serve"] + arguments, dependency: dependency)
            #expect(result.status == 64 && result.stderr.hasPrefix("Error: "), "\(arguments): \(result.stderr)")
            #expect(servers.startCalls.isEmpty)
        }
        let (notAnAddress, _) = dependency(error: ServerError(.invalidAddress, message: "'x' is not an IP address"))
        #expect(await CLI.run(["serve", "--host", "x"], dependency: notAnAddress).status == 64)
        let (inUse, _) = dependency(error: ServerError(.startFailed, message: "the port is in use"))
        let result = await CLI.run(["serve"], dependency: inUse)
        #expect(result.status == 1 && result.stderr.contains("the port is in use"))
    }

    // The real server (libmicrohttpd) and the curl client: Linux only.
    #if canImport(CCurl)
        @Test(.tags(.process, .binary, .server), .needsMicroHTTPD)
        func theRealServerAnswersAndStopsOnSIGTERM() async throws {
            // Given: `praykit serve --port 0`
            let process = try PraykitProcess.Running(["serve", "--port", "0", "--threads", "2"], environment: [:])
            defer { process.kill() }
            let line = try await process.firstLine()
            let match = try #require(
                line.firstMatch(of: /^Listening on (http:\/\/127\.0\.0\.1:([0-9]+))\n$/), "\(line)")
            // When: a client asks, then SIGTERM
            let url = try #require(URL(string: String(match.output.1) + "/v1/qibla/21.4225/39.8262"))
            let response = try await NetworkServiceCurl(log: .silent).send(HTTPRequest(url: url))
            kill(process.process.processIdentifier, SIGTERM)
            let result = try await process.wait(deadline: 120)
            // Then: answered, and a clean exit rather than death by the signal
            #expect(response.status == 200)
            #expect(!process.wasKilled && result.status == 0, "\(result.stderr)")
        }

        /// A community's server: `--hijri-starts` moves the Hijri dates of every answer.
        @Test(.tags(.process, .binary, .server), .needsMicroHTTPD)
        func announcedMonthStartsMoveTheHijriDatesOfEveryAnswer() async throws {
            // Given: Ramadan 1448 announced a day before Umm al-Qura's 2027-02-08
            let folder = try TestFolder("serve-starts")
            let file = folder.path("starts.txt")
            try Data("# The council\n1448-09 2027-02-07 Announced\n".utf8).write(to: URL(fileURLWithPath: file))
            let process = try PraykitProcess.Running(
                ["serve", "--port", "0", "--threads", "2", "--hijri-starts", file], environment: [:])
            defer { process.kill() }
            let line = try await process.firstLine()
            let base = try #require(line.firstMatch(of: /^Listening on (http:\/\/127\.0\.0\.1:[0-9]+)\n$/), "\(line)")
            func hijri(_ path: String) async throws -> String {
                let url = try #require(URL(string: String(base.output.1) + path))
                let response = try await NetworkServiceCurl(log: .silent).send(HTTPRequest(url: url))
                let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
                let data = json?["data"] as? [String: Any]
                let date = (data?["date"] as? [String: Any]) ?? data
                return (date?["hijri"] as? [String: Any])?["date"] as? String ?? "\(json ?? [:])"
            }
            // Then: 2027-02-07 is 1 Ramadan in the conversion and in a day's timings
            #expect(try await hijri("/v1/gToH/07-02-2027") == "01-09-1448")
            #expect(try await hijri("/v1/timings/07-02-2027?latitude=21.4225&longitude=39.8262") == "01-09-1448")
            kill(process.process.processIdentifier, SIGTERM)
            _ = try await process.wait(deadline: 120)
        }
    #endif

    @Test func aStartsFileThatDoesNotFitIsAUsageErrorNamingTheLine() async throws {
        let folder = try TestFolder("serve-starts-bad")
        let file = folder.path("starts.txt")
        try Data("1448-09 2027-02-07\n1448-10 2027-04-20\n".utf8).write(to: URL(fileURLWithPath: file))
        let (dependency, servers) = dependency()
        for (arguments, message) in [
            (["--hijri-starts", file], "line 2: 2027-04-20 cannot be the first day of Shawwal 1448"),
            (["--hijri-starts", folder.path("missing.txt")], "cannot read"),
        ] {
            let result = await CLI.run(["serve"] + arguments, dependency: dependency)
            #expect(result.status == 64 && result.stderr.contains(message), "\(result.stderr)")
        }
        #expect(servers.startCalls.isEmpty)
    }
}
