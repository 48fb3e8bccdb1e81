import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// The PDF converter and the sound players are found in the absolute folders of `PATH` only: an
/// empty or relative entry names the folder `praykit` was started in, where anyone who can write
/// there (a download, a shared folder) could plant a program of that name.
@Suite struct ExecutableSearchTests {
    /// `folder` as a path relative to this process's current folder (`../../tmp/…`).
    static func relative(_ folder: URL) -> String {
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        return String(repeating: "../", count: depth) + folder.path.drop { $0 == "/" }
    }

    @Test func aConverterInARelativeFolderOfThePathIsNotRun() throws {
        // Given: a stand-in `weasyprint` in a folder reachable by a relative path
        let folder = try PDFServiceConverterTests.converter("weasyprint", "exit 0")
        let relative = Self.relative(folder.url)
        #expect(FileManager.default.isExecutableFile(atPath: relative + "/weasyprint"))
        // Then: the relative entry, alone or between empty ones, is skipped; the absolute one is used
        for path in [relative, ":\(relative):", "\(relative)::/nonexistent"] {
            #expect(PDFServiceConverter(path: path, log: .silent).tool == nil, "\(path)")
        }
        #expect(
            PDFServiceConverter(path: "\(relative):\(folder.url.path)", log: .silent).tool?.executable
                == folder.path("weasyprint"))
    }

    @Test func aSoundPlayerInARelativeFolderOfThePathIsNotRun() throws {
        // Given: a stand-in `pw-play` in a folder reachable by a relative path
        let folder = try PDFServiceConverterTests.converter("pw-play", "exit 0")
        let relative = Self.relative(folder.url)
        // Then: not found through the relative entry; found through the absolute one
        for path in [relative, "\(relative):", ".:\(relative)"] {
            #expect(throws: SoundError.self, "\(path)") {
                _ = try SoundServiceProgram(environment: ["PATH": path], log: .silent).player()
            }
        }
        let found = try SoundServiceProgram(environment: ["PATH": "\(relative):\(folder.url.path)"], log: .silent)
            .player()
        #expect(found.path == folder.path("pw-play") && found.kind == .pwPlay)
    }
}
