import Foundation

/// A new folder under the temporary directory for one test, removed with everything in it when
/// released.
final class TestFolder {
    let url: URL

    /// Creates `praykit-<name>-<UUID>`.
    init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the folder.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
