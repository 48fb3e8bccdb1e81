import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayCLI

/// `praykit timetable`, in process on the real calculation and Hijri services: the rows, the dates,
/// Jumu'ah, iqama columns, Arabic, escaping, the PDF path (on a mock converter) and bad input.
@Suite struct TimetableCommandTests {
    static let makkah = ["--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--method", "umm-al-qura"]

    /// The rows of the page: the `<tr data-date=…>` elements, in order.
    static func rows(_ html: String) -> [Substring] {
        html.split(separator: "\n").filter { $0.hasPrefix("<tr data-date=") }
    }

    /// The value of `name="…"` in `row`.
    static func attribute(_ name: String, in row: Substring) -> String? {
        guard let start = row.range(of: "\(name)=\"") else { return nil }
        let rest = row[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// The text of the cells of `row`.
    static func cells(_ row: Substring) -> [String] {
        row.components(separatedBy: "<td").dropFirst().map { cell in
            let text = cell.drop { $0 != ">" }.dropFirst()
            return String(text.prefix { $0 != "<" })
        }
    }

    @Test func marchHasThirtyOneRowsWithFridaysMarked() async throws {
        let result = await CLI.run(["timetable", "--month", "2027-03"] + Self.makkah)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = Self.rows(result.stdout)
        #expect(rows.count == 31)
        #expect(rows.first.flatMap { Self.attribute("data-date", in: $0) } == "2027-03-01")
        #expect(rows.last.flatMap { Self.attribute("data-date", in: $0) } == "2027-03-31")
        let fridays = rows.filter { $0.contains("data-jumuah=\"true\"") }.compactMap {
            Self.attribute("data-date", in: $0)
        }
        #expect(fridays == ["2027-03-05", "2027-03-12", "2027-03-19", "2027-03-26"])
        #expect(rows.filter { $0.contains(">Jumu&#39;ah<") || $0.contains(">Jumu'ah<") }.count == 4)
        #expect(result.stdout.hasPrefix("<!DOCTYPE html>"))
        #expect(result.stdout.contains("<html lang=\"en\" dir=\"ltr\">"))
        #expect(result.stdout.contains("@page { size: A4; margin: 10mm; }"))
        #expect(!result.stdout.contains("<script"), "self-contained and inert")
        #expect(!result.stdout.contains("http://") && !result.stdout.contains("https://"), "nothing fetched")
    }

    @Test func hijriDatesAreTheHijriCommands() async throws {
        let page = await CLI.run(["timetable", "--month", "2027-03"] + Self.makkah)
        let hijri = await CLI.run(["hijri", "--date", "2027-03-01", "--days", "31", "--format", "json"])
        let days = try #require(try JSONSerialization.jsonObject(with: Data(hijri.stdout.utf8)) as? [[String: Any]])
        let expected = days.compactMap { ($0["hijri"] as? [String: Any])?["date"] as? String }
        #expect(expected.count == 31)
        #expect(Self.rows(page.stdout).compactMap { Self.attribute("data-hijri", in: $0) } == expected)
        // 1 March 2027 is 22 Ramadan 1448 (Umm al-Qura); Shawwal begins in the month.
        #expect(expected.first == "1448-09-22")
        #expect(page.stdout.contains("Ramadan – Shawwal 1448 AH"))
        let eid = try #require(expected.firstIndex(of: "1448-10-01"))
        #expect(Self.cells(Self.rows(page.stdout)[eid])[2].hasPrefix("1 Shawwal") == false)
        #expect(Self.rows(page.stdout)[eid].contains("<b>1 Shawwal</b>"))
        #expect(page.stdout.contains("Eid al-Fitr"))
    }

    @Test func theTimesAreThoseOfTimes() async throws {
        let page = await CLI.run(["timetable", "--month", "2027-03"] + Self.makkah)
        let times = await CLI.run(["times", "--date", "2027-03-15", "--format", "json"] + Self.makkah)
        let day = try #require((try CLI.json(times.stdout)["days"] as? [[String: Any]])?.first)
        let row = try #require(Self.rows(page.stdout).first { $0.contains("data-date=\"2027-03-15\"") })
        let cells = Self.cells(row)
        for (index, prayer) in ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"].enumerated() {
            let iso = try #require(day[prayer] as? String)
            // 2027-03-15T05:12:00+03:00 → 05:12
            let clock = String(iso.dropFirst(11).prefix(5))
            #expect(cells[3 + index] == clock, "\(prayer)")
        }
        #expect(
            page.stdout.contains(
                "<bdi>Umm al-Qura University, Makkah (umm-al-qura)</bdi>; <bdi>given with --method</bdi>"))
        #expect(page.stdout.contains("<bdi>Asia/Riyadh (UTC+03:00)</bdi>; <bdi>from --tz</bdi>"))
        #expect(page.stdout.contains("Calculated by <bdi>PrayKit"))
    }

    @Test func arabicIsRightToLeft() async throws {
        let result = await CLI.run(["timetable", "--month", "2027-03", "--lang", "ar"] + Self.makkah)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("<html lang=\"ar\" dir=\"rtl\">"))
        for heading in ["الفجر", "الشروق", "الظهر", "العصر", "المغرب", "العشاء", "مواقيت الصلاة · مارس 2027"] {
            #expect(result.stdout.contains(heading), "\(heading)")
        }
        #expect(result.stdout.contains("رمضان – شوال 1448 هـ"))
        #expect(!result.stdout.contains(">Fajr<"))
        #expect(Self.rows(result.stdout).count == 31)
    }

    @Test func aPlaceNameIsEscaped() async throws {
        let saved = try CLI.preferences([
            .latitude: "51.5074", .longitude: "-0.1278", .timeZone: "Europe/London",
            .placeName: "<script>alert('x')</script> & \"Co\"",
        ])
        let result = await CLI.run(["timetable", "--month", "2027-03"], dependency: CLI.dependency(preferences: saved))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("<script"))
        #expect(result.stdout.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Co&quot;"))
    }

    @Test func iqamaColumnsOnlyWhenSet() async throws {
        let plain = await CLI.run(["timetable", "--month", "2027-03"] + Self.makkah)
        #expect(!plain.stdout.contains("class=\"iqama\""))
        #expect(!plain.stdout.contains(">Iqama<"))

        let given = await CLI.run(
            ["timetable", "--month", "2027-03", "--iqama", "fajr=+20,isha=21:00", "--jumuah", "12:30,13:15"]
                + Self.makkah)
        #expect(given.status == 0, "\(given.stderr)")
        // Fajr and isha have a rule, dhuhr has the Friday prayers: three iqama columns.
        #expect(given.stdout.components(separatedBy: "<th class=\"iqama\">Iqama</th>").count - 1 == 3)
        let rows = Self.rows(given.stdout)
        // Date, day, Hijri, fajr, its iqama, sunrise, dhuhr, its iqama, asr, maghrib, isha, its iqama.
        let monday = Self.cells(rows[0])  // 2027-03-01
        #expect(monday.count == 3 + 6 + 3)
        #expect(monday[11] == "21:00")
        #expect(monday[7] == "", "no dhuhr iqama on a weekday without a rule")
        let fajr = try #require(ClockText.minutes(monday[3]))
        #expect(ClockText.minutes(monday[4]) == fajr + 20)
        // 2027-03-05: the two Friday prayers one above the other in dhuhr's iqama column.
        #expect(rows[4].contains("<td class=\"iqama\"><span class=\"jumuah-times\">12:30<br>13:15</span></td>"))

        let saved = try CLI.preferences([.iqama: "maghrib=+5"])
        let fromConfig = await CLI.run(
            ["timetable", "--month", "2027-03"] + Self.makkah, dependency: CLI.dependency(preferences: saved))
        #expect(fromConfig.stdout.components(separatedBy: "<th class=\"iqama\">Iqama</th>").count - 1 == 1)
        #expect(fromConfig.stdout.contains("maghrib=+5"))
    }

    @Test func badInputIsAUsageError() async throws {
        for month in ["2027-13", "foo", "2027-00", "27-3-1", ""] {
            let result = await CLI.run(["timetable", "--month", month] + Self.makkah)
            #expect(result.status == 64, "\(month)")
            #expect(result.stderr.hasPrefix("Error: "), "\(month)")
            #expect(result.stderr.contains("--month"), "\(month)")
        }
        for bad in [["--format", "docx"], ["--lang", "fr"], ["--paper", "a3"], ["--iqama", "fajr=20"]] {
            let result = await CLI.run(["timetable", "--month", "2027-03"] + Self.makkah + bad)
            #expect(result.status == 64, "\(bad)")
        }
        let noPlace = await CLI.run(["timetable", "--month", "2027-03"])
        #expect(noPlace.status == 64)
    }

    @Test func theDefaultMonthIsThePlacesCurrentMonth() async throws {
        // 2026-11-30 12:00 UTC is already 1 December in Kiritimati (UTC+14), still 30 November in London.
        let now = Date(timeIntervalSince1970: 1_796_040_000)
        let kiritimati = await CLI.run(
            ["timetable", "--lat", "1.87", "--lon", "-157.4", "--tz", "Pacific/Kiritimati"], now: now)
        #expect(Self.rows(kiritimati.stdout).first.flatMap { Self.attribute("data-date", in: $0) } == "2026-12-01")
        #expect(Self.rows(kiritimati.stdout).count == 31)
        let london = await CLI.run(["timetable", "--lat", "51.5", "--lon", "-0.13", "--tz", "Europe/London"], now: now)
        #expect(Self.rows(london.stdout).first.flatMap { Self.attribute("data-date", in: $0) } == "2026-11-01")
        #expect(Self.rows(london.stdout).count == 30)
    }

    @Test func printIsTheDefaultVerb() async throws {
        let implicit = await CLI.run(["timetable", "--month", "2027-02"] + Self.makkah)
        let explicit = await CLI.run(["timetable", "print", "--month", "2027-02"] + Self.makkah)
        #expect(implicit.status == 0)
        #expect(implicit.stdout == explicit.stdout)
        #expect(Self.rows(implicit.stdout).count == 28)
        let help = await CLI.run(["timetable", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("praykit timetable --city London --month 2027-03 --format pdf"))
        #expect(help.stdout.contains("print"))
    }

    // MARK: - High latitudes

    static let tromso = ["--lat", "69.6492", "--lon", "18.9553", "--tz", "Europe/Oslo"]

    /// The text of a time cell with its marks: `00:41~+1` for `00:41<span class="marks">~+1</span>`.
    static func markedText(_ cell: Substring) -> String {
        let text = cell.drop { $0 != ">" }.dropFirst()
        let end = text.range(of: "</td>").map { text[..<$0.lowerBound] } ?? text
        return String(end).replacing(/<[^>]*>/, with: "")
    }

    @Test func timesAfterMidnightAndFromAnotherLatitudeAreMarkedAsTimesMarksThem() async throws {
        // Given Tromsø in June 2027, in the midnight sun: every day's times come from the nearest
        // latitude where the sun sets, and maghrib and isha fall after midnight
        let page = await CLI.run(["timetable", "--month", "2027-06"] + Self.tromso)
        let times = await CLI.run(["times", "--date", "2027-06-01", "--days", "30"] + Self.tromso)
        #expect(page.status == 0 && times.status == 0, "\(page.stderr)\(times.stderr)")
        // When the page's cells are read with their marks
        let lines = times.stdout.split(separator: "\n")
        let heading = try #require(lines.first { $0.hasPrefix("Date ") }).split(separator: " ").map(String.init)
        let rows = Self.rows(page.stdout)
        #expect(rows.count == 30)
        // Then each cell is the time and marks `times` prints for that day (`00:41~+1`), never a bare `*`
        for row in rows {
            let date = try #require(Self.attribute("data-date", in: row))
            let line = try #require(lines.first { $0.hasPrefix(date) }).split(separator: " ").map(String.init)
            let cells = row.components(separatedBy: "<td").dropFirst().map { Self.markedText(Substring($0)) }
            for (index, prayer) in ["Fajr", "Sunrise", "Dhuhr", "Asr", "Maghrib", "Isha"].enumerated() {
                let column = try #require(heading.firstIndex(of: prayer))
                #expect(cells[3 + index] == line[column], "\(date) \(prayer)")
            }
        }
        let june2 = try #require(rows.first { $0.contains("data-date=\"2027-06-02\"") })
        let marked = june2.components(separatedBy: "<td").dropFirst().map { Self.markedText(Substring($0)) }
        #expect(marked[7].hasSuffix("~+1") && marked[8].hasSuffix("~+1"), "maghrib and isha on 3 June: \(marked)")
        // and the footer names the rule and the resolution, the latitudes the times came from, and
        // every mark.
        #expect(page.stdout.contains("<span class=\"label\">High latitudes:</span>"))
        #expect(page.stdout.contains("rule recommended (seventh-of-the-night)"))
        #expect(
            page.stdout.contains(
                "polar resolution nearest-latitude, on 30 days (1–30 June), the times of latitudes 65."))
        #expect(page.stdout.contains("~ taken from another latitude: the nearest one where the sun rises and sets"))
        #expect(page.stdout.contains("+1 after midnight: on the day after the row&#39;s date"))
        #expect(!page.stdout.contains("– unavailable"))
    }

    @Test func anUnresolvedPolarDayHasADashAndSaysWhy() async throws {
        // Given Tromsø in June without a polar resolution
        let page = await CLI.run(
            ["timetable", "--month", "2027-06", "--polar-resolution", "unresolved"] + Self.tromso)
        #expect(page.status == 0, "\(page.stderr)")
        // Then the days without a sunset show dashes, and the legend says what they mean and what gives them
        let june21 = try #require(Self.rows(page.stdout).first { $0.contains("data-date=\"2027-06-21\"") })
        #expect(Self.cells(june21)[7] == "–" && Self.cells(june21)[4] == "–", "\(Self.cells(june21))")
        #expect(
            page.stdout.contains(
                "– unavailable: the sun does not rise, set or reach the time&#39;s angle that day "
                    + "(--polar-resolution nearest-latitude or nearest-day gives them)"))
        #expect(page.stdout.contains("polar resolution unresolved"))
    }

    // MARK: - Layout and words

    @Test func whiteDaysAreNotMarkedInRamadan() async throws {
        // Given February 2027, which holds 13–15 Ramadan 1448, and January, which holds 13–15 Sha'ban
        let february = await CLI.run(["timetable", "--month", "2027-02"] + Self.makkah)
        let january = await CLI.run(["timetable", "--month", "2027-01"] + Self.makkah)
        // Then Ramadan's middle days have no mark (every day of Ramadan is a fast), Sha'ban's do
        let ramadan = Self.rows(february.stdout).filter {
            ["1448-09-13", "1448-09-14", "1448-09-15"].contains(Self.attribute("data-hijri", in: $0) ?? "")
        }
        #expect(ramadan.count == 3)
        #expect(ramadan.allSatisfy { !$0.contains("class=\"notable\"") })
        #expect(!february.stdout.contains("White days"))
        let shaban = Self.rows(january.stdout).filter {
            ["1448-08-13", "1448-08-14", "1448-08-15"].contains(Self.attribute("data-hijri", in: $0) ?? "")
        }
        #expect(shaban.count == 3 && shaban.allSatisfy { $0.contains("class=\"notable\"") })
    }

    @Test func anArabicPageInArabicDigitsAndWords() async throws {
        // Given Makkah in Arabic, with Arabic-Indic digits
        let page = await CLI.run(
            ["timetable", "--month", "2027-03", "--lang", "ar", "--digits", "arabic"] + Self.makkah)
        #expect(page.status == 0, "\(page.stderr)")
        // Then the rows' numbers are Arabic-Indic: the day, the Hijri day, the times
        let first = try #require(Self.rows(page.stdout).first)
        let cells = Self.cells(first)
        #expect(cells[0] == "١")
        #expect(cells.dropFirst(3).allSatisfy { $0.unicodeScalars.allSatisfy { !("0"..."9").contains($0) } })
        #expect(cells[3].hasPrefix("٠٥:"), "\(cells)")
        #expect(page.stdout.contains("<b>٢٢ رمضان</b>"))
        #expect(page.stdout.contains("مواقيت الصلاة · مارس ٢٠٢٧"))
        // and the footer's place, method and calendar are in Arabic
        #expect(page.stdout.contains("<bdi dir=\"rtl\">٢١٫٤٢٢٥ شمالًا، ٣٩٫٨٢٦٢ شرقًا</bdi>"))
        #expect(page.stdout.contains("<bdi dir=\"rtl\">جامعة أم القرى، مكة المكرمة</bdi>"))
        #expect(
            page.stdout.contains(
                "<bdi dir=\"rtl\">الفجر ١٨٫٥°، العشاء بعد المغرب بـ ٩٠ دقيقة (١٢٠ في رمضان)، العصر شافعي</bdi>"))
        #expect(page.stdout.contains("<span class=\"label\">التقويم الهجري:</span> <bdi dir=\"rtl\">أم القرى</bdi>"))
        #expect(page.stdout.contains("<bdi dir=\"rtl\">من الخيار <bdi dir=\"ltr\">--tz</bdi></bdi>"))
        let tags = /<[^>]*>|--[a-z-]+/
        for label in ["المكان", "طريقة الحساب", "خطوط العرض العليا", "التقويم الهجري"] {
            let line = try #require(
                page.stdout.split(separator: "\n").first { $0.hasPrefix("<p><span class=\"label\">\(label):") })
            let text = line.replacing(tags, with: "")
            #expect(!text.contains { $0.isASCII && $0.isLetter }, "\(text)")
        }
        // and Latin digits stay the default, in Arabic too.
        let latin = await CLI.run(["timetable", "--month", "2027-03", "--lang", "ar"] + Self.makkah)
        #expect(Self.cells(try #require(Self.rows(latin.stdout).first))[0] == "1")
        let bad = await CLI.run(["timetable", "--month", "2027-03", "--digits", "roman"] + Self.makkah)
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("Error: "))
        #expect(bad.stderr.contains("--digits"))
        #expect(bad.stderr.contains("Usage:") || bad.stderr.contains("USAGE:"), "\(bad.stderr)")
        let help = await CLI.run(["timetable", "print", "--help"])
        #expect(help.stdout.contains("--digits"))
        #expect(help.stdout.contains("latin") && help.stdout.contains("arabic"))
    }

    @Test func aTwelveHourPageSaysAmAndPm() async throws {
        // Given London in July on a 12-hour clock, with iqama times
        let page = await CLI.run(
            [
                "timetable", "--month", "2027-07", "--clock", "12h", "--iqama", "fajr=+20,isha=+15", "--lat", "51.5074",
                "--lon", "-0.1278", "--tz", "Europe/London",
            ])
        #expect(page.status == 0, "\(page.stderr)")
        // Then fajr is before noon, isha after, in the times and the iqama columns
        let row = try #require(Self.rows(page.stdout).first)
        let cells = row.components(separatedBy: "<td").dropFirst()
        #expect(cells.dropFirst(3).first?.contains("<span class=\"ampm\">am</span>") == true, "fajr")
        #expect(cells.last?.contains("<span class=\"ampm\">pm</span>") == true, "isha's iqama")
        let arabic = await CLI.run(
            [
                "timetable", "--month", "2027-07", "--clock", "12h", "--lang", "ar", "--lat", "51.5074", "--lon",
                "-0.1278",
                "--tz", "Europe/London",
            ])
        #expect(arabic.stdout.contains("<span class=\"ampm\">ص</span>"))
        #expect(arabic.stdout.contains("<span class=\"ampm\">م</span>"))
    }

    // MARK: - PDF (on a mock converter)

    @Test func aPDFGoesToTheOutputWhole() async throws {
        var dependency = CLI.dependency()
        let pdfs = PDFServiceMock()
        pdfs.onPDF { request in Data("%PDF-1.7\n\u{0}\u{1B}binary \(request.paper.rawValue)\n".utf8) }
        dependency.pdf = pdfs
        let result = await CLI.run(
            ["timetable", "--month", "2027-03", "--format", "pdf", "--paper", "letter"] + Self.makkah,
            dependency: dependency)
        #expect(result.status == 0, "\(result.stderr)")
        // The bytes as they are: no control character escaped as for a terminal.
        #expect(result.stdout == "%PDF-1.7\n\u{0}\u{1B}binary letter\n")
        #expect(pdfs.pdfCalls.count == 1)
        #expect(pdfs.pdfCalls.first?.paper == .letter)
        #expect(pdfs.pdfCalls.first?.html.contains("@page { size: letter; margin: 10mm; }") == true)

        let folder = try TestFolder("timetable")
        let path = folder.path("march.pdf")
        let written = await CLI.run(
            ["timetable", "--month", "2027-03", "--format", "pdf", "--output", path] + Self.makkah,
            dependency: dependency)
        #expect(written.status == 0)
        #expect(written.stdout.isEmpty)
        #expect(try TestFile.contents(of: URL(fileURLWithPath: path)) == Data("%PDF-1.7\n\u{0}\u{1B}binary a4\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["march.pdf"])
    }

    @Test func aFailedPDFLeavesNoFile() async throws {
        var dependency = CLI.dependency()
        let pdfs = PDFServiceMock()
        pdfs.onPDF { _ in
            throw PDFError(.toolMissing, message: "a PDF needs WeasyPrint or wkhtmltopdf and neither is installed")
        }
        dependency.pdf = pdfs
        let folder = try TestFolder("timetable")
        let path = folder.path("march.pdf")
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let result = await CLI.run(
            ["timetable", "--month", "2027-03", "--format", "pdf", "--output", path] + Self.makkah,
            dependency: dependency)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: a PDF needs WeasyPrint"))
        #expect(try TestFile.text(of: URL(fileURLWithPath: path)) == "old", "the old file is kept whole")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["march.pdf"])
    }

    @Test func htmlToAFile() async throws {
        let folder = try TestFolder("timetable")
        let path = folder.path("march.html")
        let result = await CLI.run(["timetable", "--month", "2027-03", "--output", path] + Self.makkah)
        #expect(result.status == 0)
        let html = try TestFile.text(of: URL(fileURLWithPath: path))
        #expect(Self.rows(html).count == 31)
        let missing = await CLI.run(
            ["timetable", "--month", "2027-03", "--output", folder.path("no/such/folder/x.html")] + Self.makkah)
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains("cannot write \(folder.path("no/such/folder/x.html")): No such file or directory"))
        let aFolder = await CLI.run(["timetable", "--month", "2027-03", "--output", folder.url.path] + Self.makkah)
        #expect(aFolder.status == 64)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["march.html"])
    }
}
