import Foundation
import PrayMocks

/// Runs a system program (bash, man) to completion on a thread of its own, output in files, killed
/// after a deadline.
enum Shell {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], deadline: TimeInterval = 120
    ) async throws -> Result {
        try await TestThread.run {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-shell-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let out = folder.appendingPathComponent("out")
            let err = folder.appendingPathComponent("err")
            _ = FileManager.default.createFile(atPath: out.path, contents: nil)
            _ = FileManager.default.createFile(atPath: err.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = try FileHandle(forWritingTo: err)
            process.standardInput = FileHandle.nullDevice
            try process.run()
            _ = try ChildProcesses.wait(for: process, deadline: deadline)
            return Result(
                status: process.terminationStatus,
                stdout: try TestFile.text(of: out), stderr: try TestFile.text(of: err))
        }
    }
}
