import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

// The libraries loaded at run time: Linux only, where curl and the server are linked.
#if canImport(CCurl)
    /// Libraries come from the system's folders, never from beside the binary: a copy of `praykit`
    /// with a fake libcurl or libmicrohttpd planted next to it fetches and serves with the system's.
    @Suite(.tags(.process, .binary, .server)) struct LibraryLoadingTests {
        /// A copy of `praykit` in a fresh folder, with text files planted beside it under the names of
        /// `libraries`.
        static func copyWithPlanted(_ libraries: [String]) async throws -> (folder: TestFolder, binary: URL) {
            let folder = try TestFolder("planted")
            let binary = folder.url.appendingPathComponent("praykit")
            // Copied by cp, not in this process: a file this process holds open for writing would be
            // inherited by a child another test spawns meanwhile, and running the copy would then fail
            // with ETXTBSY ("Text file busy") for as long as that child lives.
            let copied = try await Shell.run("/bin/cp", [PraykitProcess.executable.path, binary.path])
            guard copied.status == 0 else { throw TestFailure("cp failed: \(copied.stderr)") }
            for name in libraries {
                try Data("not a library: planted next to the binary\n".utf8).write(
                    to: folder.url.appendingPathComponent(name))
            }
            return (folder, binary)
        }

        @Test func aLibcurlPlantedBesideTheBinaryIsNotLoaded() async throws {
            // Given: a copy of praykit with a fake libcurl beside it, and a local AlAdhan server
            let (folder, binary) = try await Self.copyWithPlanted(["libcurl.so.4", "libcurl.so"])
            defer { withExtendedLifetime(folder) {} }
            let server = try RemoteSourceTests.makkahServer()
            defer { server.stop() }
            // When: it fetches a published timetable
            let result = try await Shell.run(
                binary.path,
                [
                    "times", "--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--date", "2026-11-10",
                    "--source", "aladhan", "--api-url", server.url().absoluteString, "--format", "json",
                ],
                environment: ["PRAYKIT_DATABASE": folder.path("db/praykit.sqlite")])
            // Then: the system's libcurl did the fetch; the planted file was never opened
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("ELF") && !result.stderr.contains("planted"), "\(result.stderr)")
            #expect(try CLI.json(result.stdout)["source"] as? String == "aladhan")
            #expect(server.requests.count == 1)
        }

        @Test(.needsMicroHTTPD) func aLibmicrohttpdPlantedBesideTheBinaryIsNotLoaded() async throws {
            // Given: a copy of praykit with a fake libmicrohttpd beside it
            let (folder, binary) = try await Self.copyWithPlanted(["libmicrohttpd.so.12", "libmicrohttpd.so"])
            defer { withExtendedLifetime(folder) {} }
            // When: it serves
            let process = try PraykitProcess.Running(
                ["serve", "--port", "0", "--threads", "1"], environment: ["PRAYKIT_DATABASE": folder.path("db.sqlite")],
                executable: binary)
            defer { process.kill() }
            let line = try await process.firstLine()
            process.kill()
            let result = try await process.wait(deadline: 120)
            // Then: the system's libmicrohttpd listens
            #expect(line.hasPrefix("Listening on http://127.0.0.1:"), "\(line) \(result.stderr)")
        }
    }
#endif
