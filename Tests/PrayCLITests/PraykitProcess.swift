import Foundation
import PrayMocks

/// Runs the built `praykit` binary with a deadline, capturing its output in files (pipes can fill
/// up and block a child that writes a lot).
enum PraykitProcess {
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

    /// How long a child may run before it is killed: a guard against a hang only, so it is far above
    /// what any command takes even on a machine whose cores are busy with other work.
    static let defaultDeadline: TimeInterval = 300

    /// Runs `praykit` to completion (killing it after `deadline` seconds).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], deadline: TimeInterval = defaultDeadline
    ) async throws -> Result {
        try await Running(arguments, environment: environment).wait(deadline: deadline)
    }

    /// A started process whose output goes to files, to be waited for or killed. (Used by one test
    /// at a time; waiting happens on a thread of its own.)
    final class Running: @unchecked Sendable {
        let process = Process()
        let folder: URL
        private let out: FileHandle
        private let err: FileHandle

        init(_ arguments: [String], environment: [String: String], executable: URL = PraykitProcess.executable) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-cli-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("out").path, contents: nil)
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("err").path, contents: nil)
            out = try FileHandle(forWritingTo: folder.appendingPathComponent("out"))
            err = try FileHandle(forWritingTo: folder.appendingPathComponent("err"))
            process.executableURL = executable
            process.arguments = arguments
            var env = ProcessInfo.processInfo.environment
            env["TZ"] = nil
            // Never the developer's own database.
            if env["PRAYKIT_DATABASE"] == nil || environment["PRAYKIT_DATABASE"] == nil {
                env["PRAYKIT_DATABASE"] = folder.appendingPathComponent("praykit.sqlite").path
            }
            for (key, value) in environment { env[key] = value }
            process.environment = env
            process.standardOutput = out
            process.standardError = err
            try process.run()
        }

        deinit {
            try? FileManager.default.removeItem(at: folder)
        }

        /// Kills the process with SIGKILL if it is still running, and its process group when it leads
        /// one, as Foundation's `Process` makes it: a wrapper runs praykit as its own child, which the
        /// wrapper's death alone would leave running. (`terminate()` can be ignored by a child started
        /// from a concurrency thread, which inherits blocked signals.) What libfaketime kept for the
        /// killed processes is removed (``FakeTime/removeLeftovers(of:)``).
        func kill() {
            guard process.isRunning else { return }
            let pid = process.processIdentifier
            let killed = [pid] + ChildProcesses.children(of: pid)
            Foundation.kill(getpgid(pid) == pid ? -pid : pid, SIGKILL)
            for pid in killed { FakeTime.removeLeftovers(of: pid) }
        }

        /// The first line of standard output with its newline, once it is complete, or what there is
        /// when the process ends or `deadline` seconds pass (a server's "Listening on …"). Only the
        /// first: a busy machine can read the file after the process wrote more (a watch in its last
        /// minute writes a line a second).
        func firstLine(deadline seconds: Int = 120) async throws -> String {
            let output = folder.appendingPathComponent("out")
            var text = ""
            let deadline = ContinuousClock.now + .seconds(seconds)
            while !text.contains("\n"), ContinuousClock.now < deadline, process.isRunning {
                text = (try? TestFile.text(of: output)) ?? ""
                try await Task.sleep(for: .milliseconds(10))
            }
            guard let end = text.firstIndex(of: "\n") else { return text }
            return String(text[...end])
        }

        /// Waits up to `deadline` seconds (then kills), and returns what it did. The wait blocks a
        /// thread of its own, not one of the few that run the tests.
        func wait(deadline: TimeInterval = PraykitProcess.defaultDeadline) async throws -> Result {
            try await TestThread.run { try self.waitBlocking(deadline: deadline) }
        }

        /// Waits on the calling thread (for work already on a thread of its own).
        func waitBlocking(deadline: TimeInterval = PraykitProcess.defaultDeadline) throws -> Result {
            _ = try ChildProcesses.wait(for: process, deadline: deadline, pollMicroseconds: 1000)
            try out.close()
            try err.close()
            return Result(
                status: process.terminationStatus,
                stdout: String(decoding: try contents(of: "out"), as: UTF8.self),
                stderr: String(decoding: try contents(of: "err"), as: UTF8.self)
            )
        }

        /// What the process wrote to standard output so far.
        func output() throws -> String {
            String(decoding: try contents(of: "out"), as: UTF8.self)
        }

        /// A capture file's bytes.
        private func contents(of name: String) throws -> Data {
            try TestFile.contents(of: folder.appendingPathComponent(name))
        }

        /// Whether the process ended by a signal rather than by exiting.
        var wasKilled: Bool { process.terminationReason == .uncaughtSignal }
    }
}
