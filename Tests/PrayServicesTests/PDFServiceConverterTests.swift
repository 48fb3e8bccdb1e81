import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// The PDF converter runner, on stand-in converters (small shell scripts named `weasyprint` or
/// `wkhtmltopdf` in a folder given as the path): which one it picks, what it passes, and how each
/// failure reads. The real WeasyPrint is exercised by the CLI's timetable tests.
@Suite struct PDFServiceConverterTests {
    /// A folder of its own for one test, removed with what it holds.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-pdf-test-\(UUID())")

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(at: url)
        }

        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    /// A folder holding `name`, a shell script with `body`, written through a descriptor that closes
    /// on `exec`, so that a child another test starts meanwhile does not keep it open for writing
    /// (which would make running the script fail with "Text file busy").
    static func converter(_ name: String, _ body: String) throws -> Folder {
        let folder = try Folder()
        let path = folder.path(name)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        let bytes = Array(("#!/bin/sh\n" + body + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        return folder
    }

    /// Converts with `service`, again while the stand-in is "busy" (ETXTBSY): a process another test
    /// started while this script was open for writing inherits that descriptor and keeps it through its
    /// `exec` (the stand-in that sleeps, for a second). A real converter, installed long before, never
    /// meets this.
    static func convert(_ service: PDFServiceConverter) async throws -> Data {
        var attempt = 0
        while true {
            do {
                return try await service.pdf(for: request)
            } catch let error as PDFError where error.message.contains("Text file busy") && attempt < 200 {
                attempt += 1
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    static let request = PDFAPI.Request(html: "<!DOCTYPE html><p>مرحبا</p>", paper: .letter)

    @Test func noConverterNamesThePackage() async throws {
        let empty = try Folder()
        let service = PDFServiceConverter(path: empty.url.path, log: .silent)
        #expect(service.tool == nil)
        let error = await #expect(throws: PDFError.self) { try await Self.convert(service) }
        #expect(error?.kind == .toolMissing)
        #expect(error?.message.contains("apt-get install weasyprint") == true)
    }

    @Test(.tags(.process)) func weasyPrintGetsThePageAndWritesThePDF() async throws {
        // The stand-in copies its input's text into the PDF, so the test sees what it was given.
        let folder = try Self.converter("weasyprint", #"printf '%%PDF-1.7 ' > "$4"; cat "$3" >> "$4""#)
        let service = PDFServiceConverter(path: folder.url.path, log: .silent)
        #expect(service.tool?.tool == .weasyprint)
        let pdf = try await Self.convert(service)
        #expect(String(decoding: pdf, as: UTF8.self) == "%PDF-1.7 " + Self.request.html)
    }

    @Test(.tags(.process)) func wkhtmltopdfWhenWeasyPrintIsMissing() async throws {
        let folder = try Self.converter(
            "wkhtmltopdf", #"for last; do :; done; echo "$*" > "$last.args"; printf '%%PDF-1.4' > "$last""#)
        let service = PDFServiceConverter(path: folder.url.path, log: .silent)
        #expect(service.tool?.tool == .wkhtmltopdf)
        #expect(try await Self.convert(service) == Data("%PDF-1.4".utf8))
        let arguments = PDFServiceConverter.arguments(.wkhtmltopdf, paper: .letter, input: "in", output: "out")
        #expect(arguments.contains("Letter"))
        #expect(arguments.suffix(2) == ["in", "out"])
    }

    @Test(.tags(.process)) func aFailureCarriesTheConvertersMessage() async throws {
        let folder = try Self.converter(
            "weasyprint", "echo 'warning: a font' >&2; echo 'ERROR: bad\u{1B}[2J page' >&2; exit 3")
        let service = PDFServiceConverter(path: folder.url.path, log: .silent)
        let error = await #expect(throws: PDFError.self) { try await Self.convert(service) }
        #expect(error?.kind == .failed)
        #expect(
            error?.message == "weasyprint exited with 3 without a PDF: warning: a font | ERROR: bad\u{FFFD}[2J page")
    }

    @Test(.tags(.process)) func somethingThatIsNotAPDFIsAFailure() async throws {
        let folder = try Self.converter("weasyprint", #"echo '<html>' > "$4""#)
        let service = PDFServiceConverter(path: folder.url.path, log: .silent)
        let error = await #expect(throws: PDFError.self) { try await Self.convert(service) }
        #expect(error?.kind == .failed)
    }

    @Test(.tags(.process)) func aConverterPastItsDeadlineIsStopped() async throws {
        let folder = try Self.converter("weasyprint", "exec sleep 600")
        let service = PDFServiceConverter(path: folder.url.path, deadline: 1, log: .silent)
        let error = await #expect(throws: PDFError.self) { try await Self.convert(service) }
        #expect(error?.kind == .timedOut)
    }

    @Test(.tags(.process)) func theTemporaryFolderIsRemoved() async throws {
        let seen = try Folder()
        let folder = try Self.converter("weasyprint", #"echo "$3" > "# + seen.path("page") + "; exit 1")
        let service = PDFServiceConverter(path: folder.url.path, log: .silent)
        _ = try? await Self.convert(service)
        let page = String(
            decoding: try FileHandle(forReadingFrom: URL(fileURLWithPath: seen.path("page"))).readToEnd() ?? Data(),
            as: UTF8.self
        ).trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(page.hasSuffix("/page.html"))
        #expect(!FileManager.default.fileExists(atPath: URL(fileURLWithPath: page).deletingLastPathComponent().path))
    }
}
