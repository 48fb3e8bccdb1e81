import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``PDFService`` that runs a converter installed on the machine, found at each call in the
/// absolute folders of `PATH` (an empty or relative entry, which names the current folder, is skipped):
/// WeasyPrint (`weasyprint`, Debian package `weasyprint`), which follows the page's print CSS
/// (`@page` size and margins), else wkhtmltopdf (`wkhtmltopdf`, Debian package `wkhtmltopdf`).
///
/// The page is written to a private temporary folder, converted there (the converter in a process
/// group of its own, ended whole at the deadline), and the PDF read back; the folder is removed
/// whatever happens. The converter's standard error, trimmed, is in the error when it fails.
///
/// ```swift
/// let pdfs = PDFServiceConverter(log: log)
/// let pdf = try await pdfs.pdf(for: PDFAPI.Request(html: page, paper: .letter))
/// ```
public struct PDFServiceConverter: PDFService {
    /// A converter this service knows how to run.
    public enum Tool: String, CaseIterable, Sendable {
        /// WeasyPrint: CSS paged media, the best print layout; preferred.
        case weasyprint
        /// wkhtmltopdf (Qt WebKit).
        case wkhtmltopdf

        /// The Debian package that installs it (the same name as the program).
        public var debianPackage: String { rawValue }
    }

    private let path: String?
    private let deadline: TimeInterval
    private let log: LogManager

    /// How long a conversion may run, seconds.
    public static let defaultDeadline: TimeInterval = 120

    /// Creates the service.
    /// - Parameters:
    ///   - path: The folders searched for a converter, as `PATH` (absolute ones only); this process's
    ///     `PATH` by default.
    ///   - deadline: Seconds after which the converter is stopped; ``defaultDeadline`` by default.
    ///   - log: The logger.
    public init(
        path: String? = ProcessInfo.processInfo.environment["PATH"], deadline: TimeInterval = Self.defaultDeadline,
        log: LogManager
    ) {
        self.path = path
        self.deadline = deadline
        self.log = log
    }

    /// The converter a conversion would run now, and its path: WeasyPrint, else wkhtmltopdf; `nil`
    /// when neither is on the path.
    public var tool: (tool: Tool, executable: String)? {
        for tool in Tool.allCases {
            if let executable = ChildProcess.find(tool.rawValue, path: path) { return (tool, executable) }
        }
        return nil
    }

    /// Converts the page with the first converter found.
    /// - Throws: ``PDFError``: `toolMissing` naming the Debian packages, `failed` with the converter's
    ///   message, `timedOut`.
    public func pdf(for request: PDFAPI.Request) async throws -> Data {
        guard let (tool, executable) = tool else {
            throw PDFError(
                .toolMissing,
                message: "a PDF needs WeasyPrint or wkhtmltopdf and neither is installed: install one "
                    + "(Debian: apt-get install weasyprint), or write HTML (--format html) and print it from a browser")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-pdf-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw PDFError(
                .failed, message: "cannot make a temporary folder for the PDF: \(FileErrorReason.of(error))")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("page.html")
        let output = folder.appendingPathComponent("page.pdf")
        do {
            try Data(request.html.utf8).write(to: page)
        } catch {
            throw PDFError(
                .failed, message: "cannot write the page for \(tool.rawValue): \(FileErrorReason.of(error))")
        }
        log.debug("Converting HTML to PDF", metadata: ["pdf.tool": executable, "pdf.paper": request.paper.rawValue])
        let outcome: ChildProcess.Outcome
        do {
            outcome = try await ChildProcess.run(
                executable, Self.arguments(tool, paper: request.paper, input: page.path, output: output.path),
                deadline: deadline)
        } catch let error as NotificationError {
            throw PDFError(.failed, message: error.message)
        }
        guard !outcome.timedOut else {
            throw PDFError(
                .timedOut, message: "\(tool.rawValue) was still running after \(Int(deadline)) s and was stopped")
        }
        let pdf = try? Data(contentsOf: output)
        guard outcome.status == 0, let pdf, pdf.starts(with: Array("%PDF-".utf8)) else {
            let message = Self.summary(of: outcome.standardError)
            throw PDFError(
                .failed,
                message: "\(tool.rawValue) exited with \(outcome.status) without a PDF"
                    + (message.isEmpty ? "" : ": \(message)"))
        }
        return pdf
    }
}

// MARK: - Helpers

extension PDFServiceConverter {
    /// The command line of `tool` converting `input` to `output`.
    static func arguments(_ tool: Tool, paper: PDFAPI.Paper, input: String, output: String) -> [String] {
        switch tool {
        case .weasyprint:
            // The page's @page rule sets the size and margins.
            return ["--encoding", "utf-8", input, output]
        case .wkhtmltopdf:
            return [
                "--quiet", "--encoding", "utf-8", "--print-media-type", "--page-size",
                paper == .a4 ? "A4" : "Letter", "--margin-top", "10mm", "--margin-bottom", "10mm", "--margin-left",
                "10mm", "--margin-right", "10mm", input, output,
            ]
        }
    }

    /// The last lines of a converter's standard error, on one line, at most 300 characters, control
    /// characters replaced.
    static func summary(of standardError: String) -> String {
        let lines = standardError.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }
        let text = lines.filter { !$0.isEmpty }.suffix(3).joined(separator: " | ")
        return String(text.prefix(300)).replacingControlCharacters
    }
}
