import Foundation
import PrayCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program to completion on a thread of its own (never one of Swift's few concurrency
/// threads), with a deadline after which it is killed with SIGKILL — a child started from a
/// concurrency thread may ignore SIGTERM (see TOOLCHAIN.md).
///
/// Only Linux and macOS have `Foundation.Process`; on iOS, watchOS, tvOS and visionOS an app cannot
/// start programs, and ``run(_:_:environment:deadline:)`` throws ``NotificationError`` saying so.
enum ChildProcess {
    struct Outcome: Sendable {
        let status: Int32
        let standardError: String
        let timedOut: Bool
    }

    /// Runs `executable` with `arguments` and `environment` added to this process's.
    /// - Throws: ``NotificationError`` when it cannot be started.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], deadline: TimeInterval = 30
    ) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do {
                    continuation.resume(returning: try runBlocking(executable, arguments, environment, deadline))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.start()
        }
    }

    #if os(Linux) || os(macOS)
        private static func runBlocking(
            _ executable: String, _ arguments: [String], _ environment: [String: String], _ deadline: TimeInterval
        ) throws -> Outcome {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                throw NotificationError(
                    .cannotStart, message: "cannot start \(executable): \(error.localizedDescription)")
            }
            let start = Date()
            var timedOut = false
            while process.isRunning {
                if Date().timeIntervalSince(start) > deadline {
                    kill(process.processIdentifier, SIGKILL)
                    timedOut = true
                    break
                }
                usleep(5000)
            }
            process.waitUntilExit()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile().prefix(4096), as: UTF8.self)
            return Outcome(status: process.terminationStatus, standardError: text, timedOut: timedOut)
        }
    #else
        private static func runBlocking(
            _ executable: String, _ arguments: [String], _ environment: [String: String], _ deadline: TimeInterval
        ) throws -> Outcome {
            throw NotificationError(
                .cannotStart,
                message: "cannot start \(executable): apps on this platform cannot run programs; deliver reminders "
                    + "with a NotificationService of the app's own"
            )
        }
    #endif

    /// The first executable called `name` on `$PATH`, or `nil`.
    static func find(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        for folder in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
