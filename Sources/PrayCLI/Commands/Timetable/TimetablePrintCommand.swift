import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit timetable print` (the default of `praykit timetable`): a month's times as a page to
/// print, HTML or PDF.
enum TimetablePrintCommand: Command {
    static let name = "print"
    static let abstract = "Write a month's prayer times as a printable page (the default of 'praykit timetable')."
    static let discussion = """
        The page is one self-contained HTML file (inline CSS, no scripts, nothing fetched) laid out to print
        on one A4 or Letter page. --format pdf converts it with WeasyPrint (Debian package 'weasyprint'),
        else wkhtmltopdf, whichever is installed (wkhtmltopdf's old WebKit garbles Arabic mixed with
        Latin: prefer WeasyPrint for --lang ar); the file given with --output appears only once it is
        complete. A PDF goes to standard output only when that is a file or a pipe, never a terminal.
        --clock 12h prints 5:12 am rather than 05:12. --digits arabic writes every number in Arabic-Indic
        digits, as most Arabic timetables print them. Iqama columns appear when iqama times are saved
        ('praykit config set iqama fajr=+20,…' and 'jumuah 13:30') or given with --iqama and --jumuah. A
        time marked ~ was taken from another latitude or day (--polar-resolution), * was set by a rule, and
        +1 falls after midnight; the footer names the rule and the resolution.
        """
    static let examples = [
        "praykit timetable --city Makkah --month 2027-03 > makkah-2027-03.html",
        "praykit timetable --city London --month 2027-03 --format pdf --output london-2027-03.pdf",
        "praykit timetable --lat 21.4225 --lon 39.8262 --lang ar --paper letter --format pdf > makkah.pdf",
        "praykit timetable --city Birmingham --iqama fajr=+20,dhuhr=13:30,asr=+15,maghrib=+5,isha=+15 --jumuah 13:15",
    ]

    /// What is written.
    enum Format: String, CaseIterable, ArgumentValue {
        case html
        case pdf
    }

    static let month = Option<YearMonth?>(
        "month", value: "YYYY-MM", help: "The Gregorian month.", defaultText: "the current month in the place's zone")
    static let format = Option("format", value: "format", help: "Output format.", default: Format.html)
    static let output = Option<String?>(
        "output", value: "path", help: "Write to this file (replaced whole, once complete).",
        defaultText: "standard output", completion: .file)
    static let language = Option(
        "lang", value: "language", help: "Language of the page: English, or Arabic (right to left).",
        default: TimetableHTML.Language.en)
    static let paper = Option("paper", value: "size", help: "Paper size of the printed page.", default: PDFAPI.Paper.a4)
    static let digits = Option(
        "digits", value: "digits", help: "Digits of the page's numbers: latin (0-9) or arabic (Arabic-Indic).",
        default: TimetableHTML.Digits.latin)
    static let iqama = Option<String?>(
        "iqama", value: "list", help: "Iqama per prayer, fajr=+20,dhuhr=13:30 (minutes after the adhan or a time).",
        defaultText: "the saved iqama")
    static let jumuah = Option<String?>(
        "jumuah", value: "times", help: "Jumu'ah times on Fridays, 13:15,14:00.", defaultText: "the saved jumuah")

    static let options: [any OptionDefinition] =
        [month] + PlaceOptions.place + PlaceOptions.calculation + [
            format, output, language, digits, paper, TimesCommand.clock, iqama, jumuah, TimesCommand.hijriCalendar,
            TimesCommand.hijriOffset,
        ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let format = arguments[format]
        let path = arguments[output]
        if format == .pdf, path == nil, context.output.isTerminal {
            throw CLIError.usage(
                "a PDF is binary and standard output is a terminal: give --output <file.pdf>, or redirect "
                    + "(> timetable.pdf)")
        }
        if let path, path.isEmpty || path.hasSuffix("/") || FileBytes.isFolder(path) == true {
            throw CLIError.usage("--output needs a file name, got '\(path)'")
        }
        // The file is created before the work, so that a bad path fails at once.
        let file = try path.map(FileOutput.init)
        let page = try await html(arguments, context: context)
        let data: Data
        switch format {
        case .html: data = Data(page.utf8)
        case .pdf: data = try await context.dependency.pdfService().pdf(for: .init(html: page, paper: arguments[paper]))
        }
        if let file {
            try file.commit(data)
        } else {
            try context.output.write(bytes: data)
        }
    }

    /// The page of the command line's month, place, method, iqama, language and paper.
    static func html(_ arguments: ParsedArguments, context: CommandContext) async throws -> String {
        let saved = try context.preferences()
        var iqamaSettings = saved.iqamaSettings
        if arguments.isGiven(iqama) || arguments.isGiven(jumuah) {
            iqamaSettings = try IqamaSettings(
                parsing: arguments[iqama] ?? saved[.iqama] ?? "", jumuah: arguments[jumuah] ?? saved[.jumuah] ?? "",
                roundingMinutes: saved[.iqamaRounding].flatMap { Int($0) })
        }
        let calculation = try await PlaceOptions.calculation(
            arguments, context: context, hijriCalendar: arguments[TimesCommand.hijriCalendar],
            hijriOffset: arguments[TimesCommand.hijriOffset])
        var request = calculation.request
        let chosen = arguments[month] ?? YearMonth(request.date)
        request.date = try CivilDate(year: chosen.year, month: chosen.month, day: 1)
        request.days = CivilDate.daysIn(month: chosen.month, year: chosen.year)
        let response = try await context.dependency.prayerService().prayerTimes(for: request)
        let hijri = try context.dependency.hijriService().following(request.hijriMonthStarts).days(
            for: HijriAPI.Request(
                date: request.date, days: request.days, calendar: request.hijriCalendar, offset: request.hijriOffset))
        let style = arguments[TimesCommand.clock] ?? saved[.clock].flatMap(ClockStyle.init(rawValue:))
        let place = calculation.place
        let page = TimetableHTML(
            year: chosen.year, month: chosen.month, schedules: response.schedules, hijri: hijri,
            place: .init(
                name: place.name, coordinates: place.coordinates, zone: place.zone.identifier,
                zoneSource: place.zoneSource),
            parameters: request.parameters, methodSource: calculation.method.source, iqama: iqamaSettings,
            language: arguments[language], paper: arguments[paper], clock12Hour: style == .twelveHour,
            digits: arguments[digits])
        return page.render()
    }
}

extension PDFAPI.Paper: ArgumentValue {}

extension YearMonth {
    /// The month of `date`.
    init(_ date: CivilDate) {
        self.init(year: date.year, month: date.month)
    }
}
