import PrayCore
import PrayKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The `praykit` command line: finds the command, parses its options, configures the container once,
/// runs the command, and maps failures to exit codes (64 for usage, 1 for runtime) with `Error: …`
/// on standard error.
enum PrayCommandLine {
    static let abstract = "Prayer times, qibla and Hijri dates, calculated from the sun's position."

    /// How a run gets its services, given the configuration the command line asks for: the tool
    /// configures `PrayDependency` (its one configuration call); tests return a mock.
    typealias DependencyProvider = (PrayDependency.Configuration) throws -> any PrayKitDependency

    /// Runs the process's command line and returns its exit status.
    static func main() async -> Int32 {
        await run(
            Array(CommandLine.arguments.dropFirst()), environment: processEnvironment(),
            output: .standardOutput(), diagnostics: .standardError(),
            readStandardInput: { limit in (try? FileBytes.read(descriptor: STDIN_FILENO, limit: limit)) ?? Data() },
            dependency: { configuration in
                try PrayDependency.configure(configuration)
                return PrayDependency()
            }
        )
    }

    /// The process's environment, as `ProcessInfo.environment` gives it (for a name set twice, the last
    /// value), read from `environ` directly where the C library has it: Foundation decodes each entry
    /// by characters, a tenth of a one-day command's start-up.
    static func processEnvironment() -> [String: String] {
        #if canImport(Glibc)
            var environment: [String: String] = [:]
            var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
            while let current = entry, let pointer = current.pointee {
                let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
                if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                    let name = String(decoding: bytes[..<equals], as: UTF8.self)
                    environment[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
                }
                entry = current + 1
            }
            return environment
        #else
            return ProcessInfo.processInfo.environment
        #endif
    }

    /// Runs one command line, writing the result to `output` and errors to `diagnostics`.
    /// - Returns: The exit status: 0, 1 (runtime failure) or 64 (usage).
    static func run(
        _ commandLine: [String], environment: [String: String], output: OutputSink, diagnostics: OutputSink,
        readStandardInput: @escaping @Sendable (Int) -> Data = { _ in Data() }, dependency: DependencyProvider
    ) async -> Int32 {
        var path: [any CommandNode.Type] = []
        do {
            let (global, arguments) = try GlobalOptions.extract(from: commandLine, environment: environment)
            for warning in global.warnings { try? diagnostics.write("Warning: \(warning)\n") }
            try? diagnostics.flush()
            try await dispatch(
                arguments, global: global, environment: environment, output: output, diagnostics: diagnostics,
                readStandardInput: readStandardInput, dependency: dependency, path: &path)
            try output.flush()
            // A warning a command wrote without flushing (import's about a hook it kept) still goes out.
            try? diagnostics.flush()
            return 0
        } catch {
            // What was computed before the failure still goes out; a second failure is not reported.
            try? output.flush()
            try? diagnostics.flush()
            return report(CLIError(error, path: path), path: path, diagnostics: diagnostics)
        }
    }

    /// Writes `Error: …` and, for a usage error, the usage line; returns the exit status.
    private static func report(_ error: CLIError, path: [any CommandNode.Type], diagnostics: OutputSink) -> Int32 {
        guard error.kind != .closedOutput else { return error.exitCode }
        var message = "Error: \(error.message)\n"
        if error.kind == .usage {
            let command = CommandList.words(path)
            message += "Usage: \(HelpText.usage(path))\n"
            message += "  See 'praykit \(command.isEmpty ? "" : command + " ")--help' for more information.\n"
        }
        try? diagnostics.write(message)
        try? diagnostics.flush()
        return error.exitCode
    }

    private static func dispatch(
        _ arguments: [String], global: GlobalOptions, environment: [String: String], output: OutputSink,
        diagnostics: OutputSink, readStandardInput: @escaping @Sendable (Int) -> Data, dependency: DependencyProvider,
        path: inout [any CommandNode.Type]
    ) async throws {
        guard let first = arguments.first else { return try output.write(HelpText.root()) }
        switch first {
        case "-h", "--help":
            return try output.write(HelpText.root())
        case "--version", "-v", "-V":
            let rest = arguments.dropFirst()
            guard rest.allSatisfy({ $0 == "--verbose" }) else {
                throw CLIError.usage("Unexpected argument '\(rest.first { $0 != "--verbose" } ?? "")'")
            }
            return try output.write(rest.isEmpty ? "praykit \(PrayKitInfo.version)\n" : Licences.text)
        default:
            break
        }
        let resolved = try CommandList.resolve(arguments, path: &path)
        let rest = Array(arguments.dropFirst(resolved.consumed))
        guard let command = resolved.command else {
            // A group without a default verb: its help, or the verbs it needs.
            if rest.contains(where: { $0 == "-h" || $0 == "--help" }) { return try output.write(HelpText.render(path)) }
            if let option = rest.first(where: ParsedArguments.isOption) {
                throw CLIError.usage("Unknown option '\(option)'")
            }
            let verbs = path.last?.asGroup?.subcommands.map { $0.name } ?? []
            let name = CommandList.words(path)
            throw CLIError.usage("Missing subcommand of '\(name)': \(verbs.joined(separator: ", "))")
        }
        let parsed = try ParsedArguments(rest, for: command)
        if parsed.wantsHelp { return try output.write(HelpText.render(resolved.helpPath)) }
        var configuration = global.configuration(environment: environment)
        try command.configure(&configuration, parsed, environment: environment)
        let services = try dependency(configuration)
        let context = CommandContext(
            dependency: services, environment: environment, now: services.clock().now(), output: output,
            diagnostics: diagnostics, readStandardInput: readStandardInput, global: global,
            commandPath: CommandList.words(path))
        try await command.run(parsed, context: context)
        // A change a store wrote to sync's outbox goes to the server at once when it is reachable; never
        // an error. What the command printed is out first: the write is done whatever the sync does.
        if services.syncService().needsSyncAfterWrite {
            try output.flush()
            await SyncCommand.afterWrite(context)
        }
    }
}

/// The notices of the data the tool carries (`praykit --version --verbose`).
enum Licences {
    static let text = """
        praykit \(PrayKitInfo.version) — MIT licence (see LICENSE).

        Data carried in this program:
        - NREL SPA Earth periodic terms and nutation tables (Reda & Andreas, Solar Energy 76, 2004),
          from VSOP87 (Bretagnon & Francou) and the IAU 1980 nutation theory.
        - The Umm al-Qura calendar table 1343–1500 AH, from the hijridate package (Mohammed Alshehri,
          MIT licence, DOI 10.5281/zenodo.11200950).
        - Time zones: the ICU/IANA tz database carried by Foundation (public domain).

        \(PrayDependency.dataNotices.joined(separator: "\n\n"))

        """
}
