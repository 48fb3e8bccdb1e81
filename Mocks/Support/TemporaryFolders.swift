import Foundation
import Synchronization

/// The tests' temporary folders: each made fresh in the system's temporary directory and removed by
/// its owner when it is released — and every one of them removed again when the test process exits,
/// so a run leaves nothing behind even when an owner outlives its test (a `static`, a task still
/// running, a cycle) or a database re-creates its folder after the owner removed it.
///
/// ```swift
/// let folder = try TemporaryFolders.make("praykit-world")   // /tmp/praykit-world-<UUID>
/// defer { TemporaryFolders.remove(folder) }
/// ```
public enum TemporaryFolders {
    /// Makes a new empty folder `<prefix>-<UUID>` in the temporary directory, removed at the latest
    /// when the process exits.
    /// - Throws: When the folder cannot be created.
    public static func make(_ prefix: String) throws -> URL {
        let folder = URL(fileURLWithPath: path(prefix), isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The path of a folder `<prefix>-<UUID>` in the temporary directory that is not made yet (a
    /// program under test makes it), removed when the process exits.
    public static func path(_ prefix: String) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        remember(path)
        return path
    }

    /// Removes `folder` and everything in it now (it is removed again at exit if something re-creates
    /// it).
    public static func remove(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: - Helpers

    /// Every folder made, for the removal at exit.
    private static let made = Mutex<[String]>([])

    /// Removes every folder made; registered with `atexit` once.
    private static let removalAtExit: Void = {
        atexit {
            for path in TemporaryFolders.made.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
        }
    }()

    private static func remember(_ path: String) {
        _ = removalAtExit
        made.withLock { $0.append(path) }
    }
}
