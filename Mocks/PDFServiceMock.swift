import Foundation
import PrayCore

/// A ``PDFService`` whose answer the test sets with ``onPDF(_:)``, recording every request. A call
/// without an answer records a test issue and throws ``MockError``.
///
/// ```swift
/// let pdfs = PDFServiceMock()
/// pdfs.onPDF { _ in Data("%PDF-1.7\n".utf8) }
/// … run `praykit timetable --format pdf` …
/// #expect(pdfs.pdfCalls.map(\.paper) == [.a4])
/// ```
public final class PDFServiceMock: PDFService {
    private let pdfFunction = MockFunction<PDFAPI.Request, Data, any Error>("PDFServiceMock.pdf(for:)")

    /// Creates a mock with nothing set.
    public init() {}

    /// Sets the answer of ``pdf(for:)``: return the document, or throw to play a failure.
    public func onPDF(_ answer: @escaping @Sendable (PDFAPI.Request) throws -> Data) {
        pdfFunction.on { try answer($0) }
    }

    /// The requests of each call of ``pdf(for:)``, oldest first.
    public var pdfCalls: [PDFAPI.Request] { pdfFunction.calls }

    /// Records the request and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func pdf(for request: PDFAPI.Request) async throws -> Data {
        try pdfFunction(request)
    }
}
