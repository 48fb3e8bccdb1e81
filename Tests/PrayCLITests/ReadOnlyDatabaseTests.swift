import Foundation
import PrayCore
import PrayMocks
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A database in a folder the user cannot write is said at open — "read-only" — not found at the
/// first write and called "cannot open".
@Suite(.tags(.process, .binary)) struct ReadOnlyDatabaseTests {
    @Test func aReadOnlyFolderIsSaidAtOpen() async throws {
        // Given: a folder nobody but root may write (0555)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-readonly-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            chmod(folder.path, 0o755)
            try? FileManager.default.removeItem(at: folder)
        }
        chmod(folder.path, 0o555)
        let database = folder.appendingPathComponent("praykit.sqlite").path
        // When: the tool writes a setting there — as an unprivileged user when the test runs as root,
        // since permissions do not stop root
        let praykit = PraykitProcess.executable.path
        let command = ["config", "set", "method", "isna"]
        let result =
            geteuid() == 0
            ? try await Shell.run(
                "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", praykit] + command,
                environment: ["PRAYKIT_DATABASE": database])
            : try await Shell.run(praykit, command, environment: ["PRAYKIT_DATABASE": database])
        // Then: a runtime error that says what is wrong and where, and nothing written
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("cannot be written"), "\(result.stderr)")
        #expect(result.stderr.contains(folder.path), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: database))
    }
}
