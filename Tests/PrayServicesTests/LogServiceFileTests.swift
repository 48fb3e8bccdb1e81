import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

@Suite(.tags(.concurrency)) final class LogServiceFileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    // Each test has its own instance: its folder goes with it (a struct left one in /tmp a test).
    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func lines(_ path: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }

    static func event(_ index: Int, writer: Int = 0) -> LogEvent {
        LogEvent(
            level: .info, message: "Event", metadata: ["test.index": "\(index)", "test.writer": "\(writer)"],
            file: "T.swift", line: 1, timestamp: Date(timeIntervalSince1970: 0)
        )
    }

    @Test func appendsOneLinePerEventAndKeepsWhatWasThere() throws {
        // Given a file with a line from an earlier run
        let path = folder.appendingPathComponent("praykit.log").path
        try "earlier\n".write(toFile: path, atomically: false, encoding: .utf8)
        // When
        let file = try LogServiceFile(path: path)
        let log = LogManager(services: [file], minLevel: .info)
        log.info("Database created", metadata: ["storage.path": "/tmp/x"])
        log.debug("not recorded")
        // Then
        let written = lines(path)
        #expect(written.count == 2)
        #expect(written[0] == "earlier")
        #expect(written[1].hasSuffix(" info Database created storage.path=/tmp/x"))
    }

    @Test func aNewFileIsTheUsersOnly() throws {
        let path = folder.appendingPathComponent("new.log").path
        _ = try LogServiceFile(path: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func rotatesAtTheSizeAndKeepsTheBackups() throws {
        let path = folder.appendingPathComponent("praykit.log").path
        let file = try LogServiceFile(path: path, maximumBytes: 1024, backups: 2)
        for index in 0..<200 { file.write(Self.event(index)) }
        // Every file is within the size; only two backups are kept.
        for suffix in ["", ".1", ".2"] {
            let size = try FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int ?? 0
            #expect(size > 0 && size <= 1024)
        }
        #expect(!FileManager.default.fileExists(atPath: path + ".3"))
        // The newest lines are in the file, the ones before them in .1 then .2, in order.
        let kept = lines(path + ".2") + lines(path + ".1") + lines(path)
        let indices = kept.compactMap { $0.split(separator: " ").first { $0.hasPrefix("test.index=") } }
            .compactMap { Int($0.dropFirst("test.index=".count)) }
        #expect(indices.count == kept.count)
        #expect(indices == Array((200 - indices.count)..<200))
    }

    @Test func concurrentWritersNeverLoseOrSplitALine() async throws {
        // Given enough backups to keep everything, and a small size so it rotates often
        let path = folder.appendingPathComponent("busy.log").path
        let file = try LogServiceFile(path: path, maximumBytes: 4096, backups: 1000)
        let writers = 8
        let perWriter = 500
        // When
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for index in 0..<perWriter { file.write(Self.event(index, writer: writer)) }
                }
            }
        }
        // Then every line is whole and present exactly once
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("busy.log") }
        #expect(names.count > 10)
        var seen = Set<String>()
        for name in names {
            for line in lines(folder.appendingPathComponent(name).path) {
                #expect(line.hasPrefix("1970-01-01T00:00:00.000Z info Event test.index="))
                seen.insert(String(line.split(separator: " ").dropFirst(3).joined(separator: " ")))
            }
        }
        #expect(seen.count == writers * perWriter)
    }

    @Test func followsARotationMadeByAnotherProcess() throws {
        let path = folder.appendingPathComponent("moved.log").path
        let file = try LogServiceFile(path: path)
        file.write(Self.event(1))
        // logrotate (or another praykit) moves the file away
        try FileManager.default.moveItem(atPath: path, toPath: path + ".old")
        file.write(Self.event(2))
        #expect(lines(path + ".old").count == 1)
        #expect(lines(path).count == 1)
        #expect(lines(path).first?.contains("test.index=2") == true)
    }

    @Test func aFileThatCannotBeOpenedIsAClearError() {
        let path = folder.appendingPathComponent("missing/folder/praykit.log").path
        #expect {
            _ = try LogServiceFile(path: path)
        } throws: { error in
            (error as? ValidationError)?.message.hasPrefix("cannot open the log file \(path): No such file") == true
        }
    }
}
