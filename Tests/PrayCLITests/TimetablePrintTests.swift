import Foundation
import PrayCore
import PrayMocks
import Testing

/// The printed timetable through the real `praykit` binary and real tools: WeasyPrint makes the PDF,
/// poppler counts its pages (one, on A4 and on Letter, in English and Arabic, with and without iqama
/// columns, five Fridays with three Jumu'ah times included), and headless Chromium lays the HTML out
/// at the paper's width to find anything wider than its box — over a year of pages, so that every
/// Hijri month's name is measured. Skipped, saying what to install, where the tools are missing,
/// unless `PRAYKIT_REQUIRE_PRINT=1`.
@Suite(.tags(.process, .binary)) struct TimetablePrintTests {
    /// One printed page: its paper, language and whether it has iqama columns (the widest table).
    struct Layout: Sendable, CustomTestStringConvertible {
        let paper: String
        let language: String
        let iqama: Bool

        var testDescription: String { "\(paper) \(language)\(iqama ? " with iqama" : "")" }

        /// London in July 2027: its notes (a high-latitude method's marks) make the longest footer, and
        /// the month has 31 days and five Fridays, each with three Jumu'ah times when iqama is on.
        var arguments: [String] { arguments(month: "2027-07") }

        /// The page of `month` at `place` (London's coordinates and zone by default).
        func arguments(
            month: String, place: [String] = ["--lat", "51.5074", "--lon", "-0.1278", "--tz", "Europe/London"]
        ) -> [String] {
            var words = ["timetable"] + place + ["--month", month, "--paper", paper, "--lang", language]
            if iqama {
                words += [
                    "--iqama", "fajr=+20,dhuhr=13:30,asr=+15,maghrib=+5,isha=+15", "--jumuah", "13:15,14:00,14:45",
                ]
            }
            return words
        }

        /// The pages measured together: every month of 2027 in London, whose Hijri months run from
        /// Rajab 1448 to Sha'ban 1449 (every month's name appears, on a first row or a 1st), London's
        /// July on a 12-hour clock (am and pm), and Tromsø's June on both clocks (times after midnight
        /// and from another latitude: the widest cells) and unresolved (columns of dashes); the Arabic
        /// ones in both kinds of digits.
        var measuredPages: [[String]] {
            let tromso = ["--lat", "69.6492", "--lon", "18.9553", "--tz", "Europe/Oslo"]
            var pages = (1...12).map { arguments(month: "2027-\($0 < 10 ? "0" : "")\($0)") }
            pages.append(arguments + ["--clock", "12h"])
            pages.append(arguments(month: "2027-06", place: tromso))
            pages.append(arguments(month: "2027-06", place: tromso) + ["--clock", "12h"])
            pages.append(arguments(month: "2027-06", place: tromso) + ["--polar-resolution", "unresolved"])
            if language == "ar" {
                pages.append(arguments + ["--digits", "arabic"])
                pages.append(arguments(month: "2027-06", place: tromso) + ["--clock", "12h", "--digits", "arabic"])
            }
            return pages
        }

        /// The paper's width in CSS pixels (96 per inch).
        var widthPixels: Int { paper == "a4" ? 794 : 816 }
        var heightPixels: Int { paper == "a4" ? 1123 : 1056 }
    }

    static let layouts = ["a4", "letter"].flatMap { paper in
        ["en", "ar"].flatMap { language in [false, true].map { Layout(paper: paper, language: language, iqama: $0) } }
    }

    @Test(.tags(.print), .needsPrintTools, arguments: layouts)
    func aMonthIsOnePage(_ layout: Layout) async throws {
        let folder = try TestFolder("timetable-pdf")
        let pdf = folder.path("month.pdf")
        let result = try await PraykitProcess.run(
            layout.arguments + ["--format", "pdf", "--output", pdf], deadline: 300)
        #expect(result.status == 0, "\(result.stderr)")
        let info = try await Shell.run(try tool("pdfinfo"), [pdf])
        #expect(info.stdout.contains("Pages:           1\n"), "\(info.stdout)")
        #expect(info.stdout.contains(layout.paper == "a4" ? "(A4)" : "(letter)"), "\(info.stdout)")
        let render = try await Shell.run(try tool("pdftoppm"), ["-r", "20", "-png", pdf, folder.path("page")])
        #expect(render.status == 0, "\(render.stderr)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".png") }
        #expect(pages.count == 1, "\(pages)")
    }

    @Test(.tags(.print), .needsPrintTools, arguments: ["a4", "letter"])
    func fiveFridaysWithThreeJumuahTimesFitOnePage(_ paper: String) async throws {
        // Given London's July 2027 (31 days, five Fridays) with three Friday prayers, on a 12-hour clock
        let layout = Layout(paper: paper, language: "en", iqama: true)
        let folder = try TestFolder("timetable-pdf")
        let pdf = folder.path("july.pdf")
        // When
        let result = try await PraykitProcess.run(
            layout.arguments + ["--clock", "12h", "--format", "pdf", "--output", pdf], deadline: 300)
        // Then the month is one page
        #expect(result.status == 0, "\(result.stderr)")
        let info = try await Shell.run(try tool("pdfinfo"), [pdf])
        #expect(info.stdout.contains("Pages:           1\n"), "\(info.stdout)")
        // and every Friday shows its three times.
        let html = try await PraykitProcess.run(layout.arguments)
        #expect(html.stdout.components(separatedBy: "13:15<br>14:00<br>14:45").count - 1 == 5)
    }

    @Test(.tags(.print), .needsPrintTools) func aPDFToAFileOrAPipeButNotATerminal() async throws {
        let piped = try await PraykitProcess.run(Self.layouts[0].arguments + ["--format", "pdf"], deadline: 300)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.hasPrefix("%PDF-"))
        // `script` gives the command a terminal for its standard output.
        guard let script = TestRequirement.executable("script") else { return }
        let command = ([PraykitProcess.executable.path] + Self.layouts[0].arguments + ["--format", "pdf"]).joined(
            separator: " ")
        let terminal = try await Shell.run(script, ["-qec", command, "/dev/null"])
        #expect(terminal.status == 64)
        #expect(terminal.stdout.contains("standard output is a terminal: give --output"))
        #expect(!terminal.stdout.contains("%PDF"))
    }

    @Test func aMissingConverterIsNamedAndLeavesNoFile() async throws {
        let folder = try TestFolder("timetable-pdf")
        let pdf = folder.path("month.pdf")
        let result = try await PraykitProcess.run(
            Self.layouts[0].arguments + ["--format", "pdf", "--output", pdf], environment: ["PATH": folder.path("bin")],
            deadline: 300)
        #expect(result.status == 1)
        #expect(result.stderr.contains("apt-get install weasyprint"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test(.tags(.browser), .needsChromium, arguments: layouts)
    func nothingOverflowsAtThePapersWidth(_ layout: Layout) async throws {
        let folder = try TestFolder("timetable-layout")
        let html = folder.path("year.html")
        // Given the layout's pages in one document: the same style, one table after another
        var document = ""
        for arguments in layout.measuredPages {
            // The limit only stops a hung child; eight layouts run at once beside the rest of the suite.
            let result = try await PraykitProcess.run(arguments, deadline: 300)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            if document.isEmpty {
                document = result.stdout
            } else if let start = result.stdout.range(of: "<header>"), let end = result.stdout.range(of: "</body>") {
                let body = result.stdout[start.lowerBound..<end.lowerBound]
                document = document.replacingOccurrences(of: "</body>", with: body + "</body>")
            }
        }
        // that name every Hijri month,
        for month in HijriMonth.allCases {
            let name = (layout.language == "ar" ? month.arabicName : month.name)
                .replacingOccurrences(of: "-", with: "\u{2011}").replacingOccurrences(of: "'", with: "&#39;")
            #expect(document.contains(" \(name)</b>"), "\(month)")
        }
        // and the longest Jumu'ah list on every Friday.
        if layout.iqama { #expect(document.components(separatedBy: "13:15<br>14:00<br>14:45").count > 5) }
        try document.replacingOccurrences(of: "</body>", with: Self.probe + "</body>").write(
            toFile: html, atomically: true, encoding: .utf8)
        // When Chromium lays it out at the paper's width
        let chromium = try await Shell.run(
            try tool("chromium"),
            [
                "--headless", "--disable-gpu", "--no-sandbox", "--user-data-dir=\(folder.path("profile"))",
                "--window-size=\(layout.widthPixels),\(layout.heightPixels)", "--virtual-time-budget=5000",
                "--dump-dom", URL(fileURLWithPath: html).absoluteString,
            ], deadline: 300)
        // Then nothing is wider than its box.
        let report = try #require(Self.report(in: chromium.stdout), "\(chromium.stderr.suffix(500))")
        #expect(report.isEmpty, "\(report)")
    }

    /// A script that writes into the page what is wider than the window or than its own box:
    /// `<pre id="praykit-overflow">OVERFLOW[…]</pre>`, empty brackets when nothing is.
    static let probe = """
        <script>
        (function () {
          var found = [];
          var root = document.documentElement;
          if (root.scrollWidth > window.innerWidth) { found.push("page " + root.scrollWidth + ">" + window.innerWidth); }
          var all = document.querySelectorAll("body *");
          for (var i = 0; i < all.length && found.length < 20; i++) {
            var e = all[i], box = e.getBoundingClientRect();
            if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) {
              found.push(e.tagName + " '" + e.textContent.slice(0, 24) + "' " + e.scrollWidth + ">" + e.clientWidth);
            }
            if (box.right > window.innerWidth + 0.5 || box.left < -0.5) { found.push("outside " + e.tagName); }
          }
          var out = document.createElement("pre");
          out.id = "praykit-overflow";
          out.textContent = "OVERFLOW[" + found.join(" | ") + "]";
          document.body.appendChild(out);
        })();
        </script>
        """

    /// What the probe found, or `nil` when the page has no report (the browser did not run it).
    static func report(in dom: String) -> String? {
        guard let start = dom.range(of: "<pre id=\"praykit-overflow\">OVERFLOW[") else { return nil }
        let rest = dom[start.upperBound...]
        return rest.range(of: "]</pre>").map { String(rest[..<$0.lowerBound]) }
    }

    private func tool(_ name: String) throws -> String {
        try #require(TestRequirement.executable(name), "\(name) is required (PRAYKIT_REQUIRE_PRINT=1)")
    }
}
