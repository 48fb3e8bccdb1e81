#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns a self-contained HTML page (inline CSS, no scripts, no outside resources) into a PDF
/// document: a printed timetable, for instance.
///
/// ```swift
/// let pdf = try await dependency.pdfService().pdf(for: PDFAPI.Request(html: page, paper: .a4))
/// try pdf.write(to: URL(fileURLWithPath: "timetable.pdf"))
/// ```
public protocol PDFService: Sendable {
    /// The PDF of `request`'s page.
    /// - Throws: ``PDFError``: ``PDFErrorKind/toolMissing`` when no converter is installed (the
    ///   message names the package), ``PDFErrorKind/failed`` or ``PDFErrorKind/timedOut`` when it
    ///   does not produce one.
    func pdf(for request: PDFAPI.Request) async throws -> Data
}

/// The values of ``PDFService``.
public enum PDFAPI {
    /// A page size of printed paper.
    public enum Paper: String, CaseIterable, Hashable, Sendable {
        /// ISO 216 A4, 210 × 297 mm.
        case a4
        /// US Letter, 8.5 × 11 in (215.9 × 279.4 mm).
        case letter

        /// The name of the size in CSS's `@page { size: … }`: `A4`, `letter`.
        public var cssName: String {
            switch self {
            case .a4: "A4"
            case .letter: "letter"
            }
        }

        /// The width and height in millimetres.
        public var millimetres: (width: Double, height: Double) {
            switch self {
            case .a4: (210, 297)
            case .letter: (215.9, 279.4)
            }
        }
    }

    /// One page (or pages) to convert.
    public struct Request: Hashable, Sendable {
        /// The HTML document, with its styles inline; the page size comes from its `@page` rule.
        public var html: String
        /// The paper, for converters that take it as an option rather than from `@page`.
        public var paper: Paper

        /// Creates a request.
        public init(html: String, paper: Paper) {
            self.html = html
            self.paper = paper
        }
    }
}

/// The error of a ``PDFService``.
public typealias PDFError = PrayKitError<PDFErrorKind>

/// What kind of failure a ``PDFError`` is.
public enum PDFErrorKind: String, Hashable, Sendable {
    /// No program that converts HTML to PDF is installed.
    case toolMissing
    /// The converter ran and produced no PDF.
    case failed
    /// The converter ran past its deadline and was stopped.
    case timedOut
}
