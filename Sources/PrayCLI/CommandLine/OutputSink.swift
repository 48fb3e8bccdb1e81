internal import CPrayStart
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

/// Where a command writes: standard output or standard error (through `write(2)`, checked), or
/// memory in tests. Text is buffered and written in blocks of 64 KiB, so long outputs stream while
/// they are computed instead of being built whole in memory.
///
/// Text reaches a terminal, so ``write(_:)`` writes every control character but newline and tab as
/// visible text (`\x1B`, `\r`, `\x7F`): a place name, an imported setting or a server's message can
/// never move the cursor, clear the screen or rewrite a line. Formats that escape their own text
/// (JSON) pass through unchanged; the few writers that mean a control character (iCalendar's CRLF,
/// the line `next --watch` redraws) use ``write(verbatim:)``.
///
/// A failed write never traps: it throws ``CLIError`` — `cannot write the output: …` (exit 1), or,
/// when the reader closed the pipe (`EPIPE` with SIGPIPE ignored), a quiet ``CLIError/Kind/closedOutput``.
final class OutputSink: Sendable {
    private enum Target {
        case descriptor(Int32)
        case memory
    }

    private struct State {
        var buffer: [UInt8] = []
        var written: [UInt8] = []
        var failed: CLIError?
        /// Set by ``discardAfterClosedReader()``: what is written goes nowhere, without an error.
        var discarding = false
    }

    private let target: Target
    private let state = Mutex(State())
    private static let blockSize = 64 * 1024

    private init(_ target: Target) {
        self.target = target
    }

    /// Standard output (a sink that fails with "standard output is closed" when it was closed before
    /// the process started: `praykit times >&-`).
    static func standardOutput() -> OutputSink {
        let sink = OutputSink(.descriptor(1))
        if StandardDescriptors.closedAtStart.contains(1) {
            sink.state.withLock { $0.failed = .runtime("cannot write the output: standard output is closed") }
        }
        return sink
    }

    /// Standard error.
    static func standardError() -> OutputSink { OutputSink(.descriptor(2)) }
    /// Memory, for tests: ``text`` holds what was written.
    static func memory() -> OutputSink { OutputSink(.memory) }

    /// Whether the output is a terminal (a person watching, not a pipe or a file).
    var isTerminal: Bool {
        if case .descriptor(let descriptor) = target { return isatty(descriptor) == 1 }
        return false
    }

    /// Everything written so far (memory sinks).
    var text: String {
        state.withLock { String(decoding: $0.written + $0.buffer, as: UTF8.self) }
    }

    /// Writes `text` with its control characters but newline and tab escaped, flushing full blocks.
    /// - Throws: ``CLIError`` when the output cannot be written.
    func write(_ text: String) throws(CLIError) {
        try write(verbatim: text.escapingControlCharacters(keeping: ["\n", "\t"]))
    }

    /// Writes `text` as it is, control characters included: for writers whose format escapes its own
    /// values (iCalendar) or that mean to move the cursor. Flushes full blocks.
    /// - Throws: ``CLIError`` when the output cannot be written.
    func write(verbatim text: String) throws(CLIError) {
        try state.withLock { state throws(CLIError) in
            if let failed = state.failed { throw failed }
            state.buffer.append(contentsOf: text.utf8)
            if state.buffer.count >= Self.blockSize { try flush(&state) }
        }
    }

    /// Writes `bytes` as they are (a PDF), flushing full blocks.
    /// - Throws: ``CLIError`` when the output cannot be written.
    func write(bytes: Data) throws(CLIError) {
        try state.withLock { state throws(CLIError) in
            if let failed = state.failed { throw failed }
            state.buffer.append(contentsOf: bytes)
            if state.buffer.count >= Self.blockSize { try flush(&state) }
        }
    }

    /// Drops what is buffered and everything written from now on, without an error, once the reader
    /// has closed the output (``CLIError/Kind/closedOutput``): for a command that ends cleanly because
    /// its reader went away (`next --watch` under a status bar that restarts).
    func discardAfterClosedReader() {
        state.withLock { state in
            guard state.failed?.kind == .closedOutput else { return }
            state.failed = nil
            state.buffer = []
            state.discarding = true
        }
    }

    /// Writes what is buffered.
    /// - Throws: ``CLIError`` when the output cannot be written.
    func flush() throws(CLIError) {
        try state.withLock { state throws(CLIError) in try flush(&state) }
    }

    private func flush(_ state: inout State) throws(CLIError) {
        if let failed = state.failed { throw failed }
        if state.discarding { state.buffer = [] }
        guard !state.buffer.isEmpty else { return }
        switch target {
        case .memory:
            state.written += state.buffer
        case .descriptor(let descriptor):
            if let error = Self.writeAll(state.buffer, to: descriptor) {
                state.failed = error
                state.buffer = []
                throw error
            }
        }
        state.buffer.removeAll(keepingCapacity: true)
    }

    /// Writes every byte, retrying after signals and short writes; the error, if any.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> CLIError? {
        bytes.withUnsafeBytes { buffer -> CLIError? in
            var offset = 0
            while offset < buffer.count {
                let count = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    let code = errno
                    if code == EINTR || code == EAGAIN { continue }
                    if code == EPIPE { return CLIError(kind: .closedOutput, message: "the reader closed the output") }
                    return .runtime("cannot write the output: \(String(cString: strerror(code)))")
                }
                offset += count
            }
            return nil
        }
    }
}

/// `write(2)`, outside the class whose own `write` would shadow it.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// The standard descriptors the process started without (found before `main` by `CPrayStart`, which
/// gave each `/dev/null`).
enum StandardDescriptors {
    /// Which of 0, 1 and 2 were closed when the process started.
    static var closedAtStart: Set<Int32> {
        let bits = praykit_closed_standard_descriptors()
        return Set([Int32(0), 1, 2].filter { bits & (1 << $0) != 0 })
    }
}
