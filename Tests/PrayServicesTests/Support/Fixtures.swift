import Foundation

/// Loads files from the test target's `Resources` folder.
enum Fixtures {
    /// The copied `Resources` folder sits at the bundle's top level on Linux and under
    /// `Contents/Resources` on Apple platforms; look in both.
    static func url(_ path: String) throws -> URL {
        let candidates = [
            Bundle.module.bundleURL.appendingPathComponent("Resources"),
            Bundle.module.resourceURL?.appendingPathComponent("Resources"),
        ].compactMap { $0?.appendingPathComponent(path) }
        guard let url = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw FixtureError.missing(path)
        }
        return url
    }

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: url(path))
    }

    static func files(in folder: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: url(folder), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    enum FixtureError: Error {
        case missing(String)
    }
}
