import Foundation
import PrayMocks
import Testing

/// What happens when the output cannot be written: the real binary, driven by bash.
@Suite(.tags(.process, .binary)) struct OutputFailureTests {
    let praykit = PraykitProcess.executable.path

    @Test(arguments: ["methods", "export", "times --lat 21.4 --lon 39.8 --tz UTC --days 3660 --format json"])
    func aFullDiskIsAClearErrorNotATrap(command: String) async throws {
        // When: standard output is /dev/full.
        let result = try await Shell.run(
            "/bin/bash", ["-c", "PRAYKIT_DATABASE=$(mktemp -u) '\(praykit)' \(command) > /dev/full; echo \"exit $?\""])
        // Then
        #expect(result.stdout == "exit 1\n", "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: cannot write the output: No space left on device"), "\(result.stderr)")
    }

    @Test func aClosedStandardOutputIsAClearError() async throws {
        let result = try await Shell.run("/bin/bash", ["-c", "'\(praykit)' methods >&-; echo \"exit $?\""])
        #expect(result.stdout == "exit 1\n")
        #expect(result.stderr.hasPrefix("Error: cannot write the output: "), "\(result.stderr)")
    }

    @Test func aReaderThatGoesAwayEndsTheCommandQuietly() async throws {
        // Given: SIGPIPE ignored (as under some supervisors), a reader that takes one line.
        let script = """
            trap '' PIPE
            '\(praykit)' times --lat 21.4 --lon 39.8 --tz UTC --days 3660 --format csv | head -1 > /dev/null
            echo "exit ${PIPESTATUS[0]}"
            """
        // When
        let result = try await Shell.run("/bin/bash", ["-c", script])
        // Then: no trap, no message.
        #expect(result.stdout == "exit 1\n")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func aClosedStandardOutputIsSaid() async throws {
        let result = try await Shell.run(
            "/bin/sh", ["-c", "'\(PraykitProcess.executable.path)' times --lat 21.4225 --lon 39.8262 >&-"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("standard output is closed"), "\(result.stderr)")
    }
}
