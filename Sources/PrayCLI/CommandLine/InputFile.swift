import Foundation

/// A file a command reads (a backup, a timetable, a list of month starts): its path, or `-` for
/// standard input.
enum InputFile {
    /// The first `limit` bytes of the file at `path`, or of standard input for `-`.
    /// - Throws: ``CLIError`` (runtime) saying why the file cannot be read.
    static func read(_ path: String, limit: Int, context: CommandContext) throws -> Data {
        if path == "-" { return context.readStandardInput(limit) }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        guard exists, !isFolder.boolValue, let handle = FileHandle(forReadingAtPath: path) else {
            throw CLIError.runtime(
                "cannot read \(path): "
                    + (!exists ? "no such file" : isFolder.boolValue ? "it is a folder" : "permission denied"))
        }
        defer { try? handle.close() }
        do {
            return try handle.read(upToCount: limit) ?? Data()
        } catch {
            throw CLIError.runtime("cannot read \(path): \(error.localizedDescription)")
        }
    }
}
