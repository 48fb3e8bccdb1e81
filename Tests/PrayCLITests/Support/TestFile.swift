import Foundation

/// Reads files the tests' child processes write.
enum TestFile {
    /// A file's bytes. (Not `Data(contentsOf:)` or `String(contentsOf:)`: in Swift 6.3 on Linux they
    /// leak 4 KiB for an empty file, which fails the address-sanitizer run.)
    static func contents(of url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.readToEnd() ?? Data()
    }

    /// A file's text, as UTF-8.
    static func text(of url: URL) throws -> String {
        String(decoding: try contents(of: url), as: UTF8.self)
    }
}
