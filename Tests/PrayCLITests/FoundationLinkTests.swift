import Foundation
import PrayMocks
import Testing

// The libraries the binary needs: Linux only, where Foundation comes in three libraries.
#if os(Linux)
    /// `praykit` links FoundationEssentials and nothing of full Foundation: no `libFoundation.so`,
    /// FoundationInternationalization or ICU is loaded at its start (docs/performance.md, "Zones,
    /// Foundation and ICU"). One source file importing Foundation brings them all back.
    @Suite(.tags(.process, .binary)) struct FoundationLinkTests {
        @Test func theBinaryNeedsFoundationEssentialsAndNoFullFoundation() async throws {
            // Given / When: the shared libraries the dynamic loader would load for praykit
            let listed = try await Shell.run("/usr/bin/ldd", [PraykitProcess.executable.path])
            try #require(listed.status == 0, "ldd failed: \(listed.stderr)")
            let libraries = listed.stdout.split(separator: "\n").compactMap {
                $0.split(separator: " ").first.map { String($0).trimmingCharacters(in: .whitespaces) }
            }
            // Then: FoundationEssentials, and none of full Foundation (an incremental build may keep an
            // object compiled before a module stopped importing Foundation: build from clean to check)
            #expect(libraries.contains("libFoundationEssentials.so"))
            let full = libraries.filter {
                ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"].contains($0)
            }
            #expect(
                full.isEmpty,
                """
                praykit needs \(full): a source file of its modules imports Foundation, or this build keeps objects \
                compiled before the modules moved to FoundationEssentials (rm -rf .build, and build again)
                """)
        }
    }
#endif
