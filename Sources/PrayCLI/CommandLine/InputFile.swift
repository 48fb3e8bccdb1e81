#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A file a command reads (a backup, a timetable, a list of month starts): its path, or `-` for
/// standard input.
enum InputFile {
    /// The first `limit` bytes of the file at `path`, or of standard input for `-`.
    /// - Throws: ``CLIError`` (runtime) saying why the file cannot be read.
    static func read(_ path: String, limit: Int, context: CommandContext) throws -> Data {
        if path == "-" { return context.readStandardInput(limit) }
        switch FileBytes.isFolder(path) {
        case nil: throw CLIError.runtime("cannot read \(path): no such file")
        case true?: throw CLIError.runtime("cannot read \(path): it is a folder")
        case false?: break
        }
        do {
            return try FileBytes.read(path: path, limit: limit)
        } catch let failure where failure.isPermissionDenied {
            throw CLIError.runtime("cannot read \(path): permission denied")
        } catch {
            throw CLIError.runtime("cannot read \(path): \(error.reason)")
        }
    }
}
