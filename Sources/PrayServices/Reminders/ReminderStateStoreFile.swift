import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``ReminderStateStore`` in two small files beside the database: `<name>.<daemon>-record`, a line
/// `<unix seconds> <event id>` per event handled in the last three days, and `<name>.<daemon>-pid`, the
/// running daemon's process id — `notify` for the reminder daemon, `mqtt` for the MQTT publisher, so
/// that each keeps its own.
///
/// The record is rewritten whole at each event into a temporary file that then replaces it
/// (`rename`, atomic), so a daemon killed at any moment leaves the old record or the new one, never
/// half of one. It holds a few dozen lines at most. Both files are the user's alone (0600).
///
/// ```swift
/// let state = ReminderStateStoreFile(databasePath: "/home/amina/.local/share/praykit/praykit.sqlite")
/// // → praykit.notify-record and praykit.notify-pid in the same folder
/// let published = ReminderStateStoreFile(databasePath: path, daemon: "mqtt")   // praykit.mqtt-record, -pid
/// ```
public final class ReminderStateStoreFile: ReminderStateStore {
    /// The record of events handled.
    public let recordPath: String
    /// The file naming the running daemon's process.
    public let pidPath: String
    /// How long an event is remembered, seconds: three days, more than the daemon's horizon.
    public let memory: TimeInterval = 3 * 86_400
    /// The daemon's command word: `notify`, `mqtt`.
    public let daemon: String
    private let lock = Mutex(())

    /// Creates the store for the database at `databasePath` (nothing is read or written yet).
    /// - Parameters:
    ///   - databasePath: The database the files are beside.
    ///   - daemon: The daemon's command word, in the files' names; `notify` by default.
    public init(databasePath: String, daemon: String = "notify") {
        let base = URL(fileURLWithPath: databasePath).deletingPathExtension().path
        self.daemon = daemon
        recordPath = base + ".\(daemon)-record"
        pidPath = base + ".\(daemon)-pid"
    }
}

public extension ReminderStateStoreFile {
    /// The events recorded at or after `since`; none when there is no record yet.
    /// - Throws: ``StorageError`` when the record exists but cannot be read.
    func handled(since: Date) throws -> [String: Date] {
        try lock.withLock { _ in try read() }.filter { $0.value >= since }
    }

    /// Adds `event` to the record, dropping events older than ``memory``.
    /// - Throws: ``StorageError`` when the record cannot be written.
    func record(_ event: ReminderEvent) throws {
        try lock.withLock { _ in
            var entries = try read().filter { $0.value >= event.at.addingTimeInterval(-memory) }
            entries[event.id] = event.at
            let text = entries.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
                .map { "\(Int($0.value.timeIntervalSince1970)) \($0.key)\n" }.joined()
            try write(text, to: recordPath)
        }
    }

    /// Writes `pid` to the pid file.
    /// - Throws: ``StorageError`` when it cannot be written.
    func registerDaemon(pid: Int32) throws {
        try write("\(pid)\n", to: pidPath)
    }

    /// Removes the pid file if it names `pid`.
    func unregisterDaemon(pid: Int32) {
        guard readPID() == pid else { return }
        try? FileManager.default.removeItem(atPath: pidPath)
    }

    /// The pid in the pid file, if that process still runs.
    func runningDaemon() -> Int32? {
        guard let pid = readPID(), pid > 0 else { return nil }
        // Signal 0 checks that the process exists (EPERM: it does, but is another user's).
        guard kill(pid, 0) == 0 else { return nil }
        // A daemon that was killed leaves its pid file; the number may since have gone to another
        // program, which SIGUSR1 would end. Where /proc tells, the process must be the daemon's command.
        guard let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return pid }
        return command.split(separator: 0).contains { Array($0) == Array(daemon.utf8) } ? pid : nil
    }
}

// MARK: - Helpers

extension ReminderStateStoreFile {
    private func read() throws -> [String: Date] {
        guard FileManager.default.fileExists(atPath: recordPath) else { return [:] }
        guard let data = FileManager.default.contents(atPath: recordPath) else {
            throw StorageError(kind: .cannotOpen, message: "cannot read the reminder record", path: recordPath)
        }
        var entries: [String: Date] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let seconds = Int(parts[0]) else { continue }
            entries[String(parts[1])] = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        return entries
    }

    private func readPID() -> Int32? {
        FileManager.default.contents(atPath: pidPath).flatMap {
            Int32(String(decoding: $0, as: UTF8.self).trimmingWhitespaceAndNewlines())
        }
    }

    /// Writes `text` to a temporary file in the folder (created 0700 if missing), then renames it over `path`.
    private func write(_ text: String, to path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            // For the user alone, as the database beside it.
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        } catch {
            throw StorageError(
                kind: .cannotOpen, message: "cannot write \(path): \(FileErrorReason.of(error))", path: path)
        }
    }
}
