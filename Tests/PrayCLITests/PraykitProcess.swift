import Foundation

/// Runs the built `praykit` binary with a deadline, capturing its output in files (pipes can fill
/// up and block a child that writes a lot).
struct PraykitProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The `praykit` executable beside the test bundle in the build folder.
    static let executable: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("praykit")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/praykit")
    }()

    static func run(_ arguments: [String], environment: [String: String] = [:], deadline: TimeInterval = 60) throws
        -> Result
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out")
        let errURL = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let start = Date()
        while process.isRunning {
            if Date().timeIntervalSince(start) > deadline {
                // terminate() can be ignored by a child started from a concurrency thread: SIGKILL.
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(2000)
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        )
    }
}
