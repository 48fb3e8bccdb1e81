import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files a command writes itself (`--output`): written whole beside the target under a temporary
/// name, then renamed over it, so that the path holds the old file or the new one, never half of one
/// (a killed process or a full disk leaves at most the temporary file, which a failure removes).
enum FileOutput {
    /// Replaces the file at `path` with `data` (created with mode 0666 less the umask, as `>` does).
    /// - Throws: ``CLIError`` (runtime) naming the path and the reason.
    static func replace(_ path: String, with data: Data) throws {
        let target = URL(fileURLWithPath: path)
        let folder = target.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).praykit-\(UUID().uuidString)")
        do {
            try data.write(to: temporary, options: .withoutOverwriting)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CLIError.runtime("cannot write \(path): \(reason(error))")
        }
        guard rename(temporary.path, target.path) == 0 else {
            let message = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CLIError.runtime("cannot write \(path): \(message)")
        }
    }

    /// The POSIX reason of a Foundation file error, else its description.
    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(code)))
        }
        return CLIError.describe(error)
    }
}
