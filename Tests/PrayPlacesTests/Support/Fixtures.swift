import Foundation

/// Loads files from the test target's `Resources` folder.
enum Fixtures {
    /// The bytes of `path` in the copied `Resources` folder, at the bundle's top level on Linux and
    /// under `Contents/Resources` on Apple platforms.
    static func data(_ path: String) throws -> Data {
        let candidates = [
            Bundle.module.bundleURL.appendingPathComponent("Resources"),
            Bundle.module.resourceURL?.appendingPathComponent("Resources"),
        ].compactMap { $0?.appendingPathComponent(path) }
        guard let url = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        return try Data(contentsOf: url)
    }
}
