import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit next`: the current and next prayer with the countdown, once or (`--watch`) redrawn at the
/// moments the countdown changes; in formats for people, scripts and status bars.
enum NextCommand: Command {
    static let name = "next"
    static let abstract = "Print the current and next prayer with the countdown, for people and status bars."
    static let discussion = """
        Formats: plain (one line), json (the contract of DESIGN §6), waybar (text, tooltip, class,
        percentage), i3bar (the i3bar protocol: a header, then an endless array of status lines),
        polybar and tmux (one formatted line). With --watch a line is written at each change of what
        it says, waiting on the clock, never polling: the countdown's minute (its second in the last
        minute), the next prayer, the period, the day at midnight, and the times themselves when they
        change under it — after every wake (a minute at most) the place, the settings and the chosen
        mosque's timetable are read again, so an iqama or a timetable that sync brought shows within a
        minute. With --format json each line is one object. SIGTERM or Ctrl-C ends it cleanly (exit 0),
        and so does a reader that closes its output; on a terminal it redraws in place and follows a
        resize. For waybar, a custom module that reads the lines (no "interval" needed):
          "custom/prayer": {"exec": "praykit next --format waybar --watch", "return-type": "json"}
        For polybar: type = custom/script, exec = praykit next --format polybar --watch, tail = true.
        In Ramadan (by the saved Hijri calendar and offset, the days 'praykit notify' plans imsak and
        iftar on) the line also counts down to suhoor's end (imsak) or iftar (maghrib), whichever is
        next. With --extra, the time after sunrise is named: the disliked time until the sun has
        risen a spear's length, then duha until zawal, then the disliked time at the zenith.
        With 'praykit config set fast-suggestions on', plain and json also name the next day suggested
        for a voluntary fast (today before fajr, else tomorrow onward; see 'praykit fast').
        """
    static let examples = [
        "praykit next --lat 21.4225 --lon 39.8262 --tz Asia/Riyadh",
        "praykit next --format waybar --watch",
        "praykit next --now 2026-11-29T14:14:00+03:00 --format json",
        "praykit next --city Istanbul --extra --now 2027-02-20T09:30",
    ]
    static let now = Option<Instant?>(
        "now", value: "ISO 8601",
        help: "The instant to answer for: 2026-11-29T14:14:00+03:00, or 2026-11-29T14:14 in the place's zone.",
        defaultText: "now")
    static let format = Option<OutputFormat>.format([.plain, .json, .waybar, .i3bar, .polybar, .tmux])
    static let watch = Flag(
        "watch", help: "Keep writing a line at each change (waybar, polybar), until SIGTERM or Ctrl-C.")
    static let updates = Option<Int?>(
        "updates", value: "n", help: "With --watch: stop after this many lines (for scripts and tests).", atLeast: 1)
    static let noRamadan = Flag("no-ramadan", help: "No suhoor and iftar countdown in Ramadan.")
    static let options: [any OptionDefinition] =
        PlaceOptions.place + PlaceOptions.calculation + ExtraTimeOptions.all + [now, format, watch, updates, noRamadan]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let limit = arguments[updates]
        let watching = arguments[watch]
        if limit != nil, !watching { throw CLIError.usage("--updates goes with --watch") }
        let ramadan = !arguments[noRamadan]
        let format = arguments[format]
        var calculation = try await PlaceOptions.calculation(arguments, context: context)
        calculation.request.extraTimes = try ExtraTimeOptions.settings(arguments)
        let pinned = try arguments[Self.now]?.date(in: calculation.request.zone)
        // The pinned instant itself for the first answer (the clock's arithmetic would blur it).
        let first = pinned ?? context.now
        let timer = try await self.timer(calculation, around: first, ramadan: ramadan, context: context)
        let view = View(calculation: calculation, timer: timer)
        guard watching else {
            guard let status = timer.prayers.status(at: first) else { throw timer.noPrayerFollows }
            let note = NextRenderer.note(status, timer: timer.prayers, parameters: calculation.request.parameters)
            let renderer = NextRenderer(calculation: calculation, format: format)
            return try context.output.write(
                renderer.render(status, note: note, extra: timer.extra(at: status.now), first: true, watching: false))
        }
        let watch = NextWatch(
            arguments: arguments, context: context, format: format, ramadan: ramadan, limit: limit,
            offset: first.timeIntervalSince(context.clock.now()))
        try await watch.run(from: first, view: view)
    }

    /// What a line is made from at one time: the place and settings, and the timers over its days.
    struct View {
        let calculation: PlaceOptions.Calculation
        let timer: Timers

        /// The place and settings of the command line and the stores as they are now, and the timers
        /// around `instant`.
        static func read(
            _ arguments: ParsedArguments, around instant: Date, ramadan: Bool, context: CommandContext
        ) async throws -> View {
            var calculation = try await PlaceOptions.calculation(arguments, context: context)
            calculation.request.extraTimes = try ExtraTimeOptions.settings(arguments)
            let timer = try await NextCommand.timer(calculation, around: instant, ramadan: ramadan, context: context)
            return View(calculation: calculation, timer: timer)
        }
    }

    /// The timers of a watch: the prayers', and suhoor's and iftar's in Ramadan.
    struct Timers {
        let prayers: PrayerTimer
        let ramadan: RamadanTimer?
        /// The days suggested for a voluntary fast with the fajr of each day, when `fast-suggestions` is on.
        var fasts: FastSuggestions? = nil
        /// The chosen mosque's timetable, when it gave some of the times (``MosqueSource/name(_:context:)``).
        var mosque: String? = nil
        /// Why days around the instant are missing: the calculation's refusal of a day past its years.
        var edge: String? = nil

        /// The error when no prayer time follows `instant` in these days.
        var noPrayerFollows: CLIError {
            .runtime("no prayer time follows this instant" + (edge.map { ": " + $0 } ?? ""))
        }

        /// The named period (with `--extra`), the Ramadan countdown and the suggested fast at `instant`.
        func extra(at instant: Date) -> NextRenderer.Extra {
            NextRenderer.Extra(
                period: prayers.period(at: instant), ramadan: ramadan?.status(at: instant),
                fast: fasts?.suggestion(at: instant), fastSuggestionsOn: fasts != nil, mosque: mosque)
        }

        /// The instants the line changes: the prayers' countdown's, and in Ramadan the moments of
        /// suhoor's end and iftar and their countdown's.
        func timeline(from start: Date, until end: Date) -> [Date] {
            var moments = prayers.timeline(from: start, until: end) + prayers.periodBoundaries(from: start, until: end)
            if let at = ramadan?.status(at: start)?.at {
                moments.append(at)
                moments += (1...60).map { at.addingTimeInterval(Double(-60 * $0)) }
                moments += (1..<60).map { at.addingTimeInterval(Double(-$0)) }
            }
            return Set(moments.filter { $0 > start && $0 <= end }).sorted()
        }
    }

    /// A timer over the day of `instant`, the day before and the two after (a zone may skip a day:
    /// Samoa went from 2011-12-29 to 2011-12-31, and the next fajr is two civil days on), and the
    /// same days' Ramadan timer when `ramadan` and any of them is in Ramadan.
    static func timer(
        _ calculation: PlaceOptions.Calculation, around instant: Date, ramadan: Bool, context: CommandContext
    ) async throws -> Timers {
        var request = calculation.request
        let (schedules, edge) = try await self.schedules(&request, around: instant, context: context)
        let prayers = PrayerTimer(schedules: schedules, iqama: calculation.iqama)
        let fasts = FastSuggestions(schedules: schedules, request: request, context: context)
        let mosque = MosqueSource.name(schedules, context: context)
        guard ramadan else { return Timers(prayers: prayers, ramadan: nil, fasts: fasts, mosque: mosque, edge: edge) }
        // The Hijri dates of the days; a failure here loses only the Ramadan countdown.
        let hijri =
            (try? context.dependency.hijriService().following(request.hijriMonthStarts).days(
                for: HijriAPI.Request(
                    date: request.date, days: request.days, calendar: request.hijriCalendar,
                    offset: request.hijriOffset))) ?? []
        var days: [CivilDate: Int] = [:]
        for day in hijri where day.hijri.month == .ramadan { days[day.gregorian] = day.hijri.day }
        let timer = RamadanTimer(schedules: schedules, ramadanDays: days)
        return Timers(
            prayers: prayers, ramadan: timer.isEmpty ? nil : timer, fasts: fasts, mosque: mosque, edge: edge)
    }

    /// The schedules of the day of `instant` in the request's zone, the day before and the two after,
    /// with `request` set to those days. At the edge of the years the calculation supports, only the
    /// days it supports, and why the others are missing; for an instant whose own day it does not
    /// support, its refusal of that day — the words `times --date` gets.
    static func schedules(
        _ request: inout PrayerAPI.Request, around instant: Date, context: CommandContext
    ) async throws -> (schedules: [PrayerSchedule], edge: String?) {
        let service = context.dependency.prayerService()
        let day: CivilDate
        do {
            day = try CivilDate(containing: instant, in: request.zone)
        } catch {
            // Before 0001-01-01 or after 9999-12-31 in the place's zone: the calculation's own refusal
            // of the nearest day (its years lie well inside), else this one.
            request.date = instant.timeIntervalSince1970 < 0 ? .first : .last
            request.days = 1
            _ = try await service.prayerTimes(for: request)
            throw error
        }
        let first = day.clampedAdding(days: -1)
        request.date = first
        request.days = day.clampedAdding(days: 2).daysSince1970 - first.daysSince1970 + 1
        do {
            return (try await service.prayerTimes(for: request).schedules, nil)
        } catch let error as PrayError where error.kind == .unsupportedDate {
            // Day by day: the unsupported neighbours are left out; the day itself is refused.
            var schedules: [PrayerSchedule] = []
            var edge: String?
            for offset in 0..<request.days {
                var one = request
                one.date = first.adding(days: offset)
                one.days = 1
                do {
                    schedules += try await service.prayerTimes(for: one).schedules
                } catch let error as PrayError where error.kind == .unsupportedDate && one.date != day {
                    edge = error.message
                }
            }
            if let kept = schedules.first?.date, let last = schedules.last?.date {
                request.date = kept
                request.days = last.daysSince1970 - kept.daysSince1970 + 1
            }
            return (schedules, edge)
        }
    }

    /// The next day suggested for a voluntary fast, for the days of a timer: the day a person decides
    /// on the night before.
    struct FastSuggestions {
        /// The suggested days from the first of the timer's days, by date.
        let days: [CivilDate: FastSuggestion]
        /// Each day's fajr, where the day has one.
        let fajr: [CivilDate: Date]
        let zone: TimeZoneName

        /// The suggestions of `schedules`' days and the next ``FastCalendar/suggestionHorizon`` days, when
        /// `fast-suggestions` is on; else `nil`.
        init?(schedules: [PrayerSchedule], request: PrayerAPI.Request, context: CommandContext) {
            guard let first = schedules.first else { return nil }
            let count = schedules.count + FastCalendar.suggestionHorizon
            guard
                let days = FastCommand.suggestions(
                    from: first.date, count: count, request: request, context: context)
            else { return nil }
            self.days = days
            fajr = Dictionary(
                schedules.compactMap { schedule in schedule[.fajr].map { (schedule.date, $0.date) } },
                uniquingKeysWith: { first, _ in first })
            zone = first.zone
        }

        /// The first suggested day from today, while it is before today's fajr, else from tomorrow.
        func suggestion(at instant: Date) -> (suggestion: FastSuggestion, today: CivilDate)? {
            guard let today = try? CivilDate(containing: instant, in: zone) else { return nil }
            let start = fajr[today].map { instant < $0 } == true ? today : today.clampedAdding(days: 1)
            let found = days.values.filter { $0.day.gregorian >= start }.min { $0.day.gregorian < $1.day.gregorian }
            return found.map { ($0, today) }
        }
    }
}

/// Writes a timer's status in the formats of `praykit next`.
struct NextRenderer {
    let calculation: PlaceOptions.Calculation
    let format: OutputFormat

    private var clock: LocalClock { LocalClock(zone: calculation.request.zone) }

    /// What the line shows besides the prayers: the named period between them (with `--extra`) and
    /// the Ramadan countdown.
    struct Extra {
        var period: (period: ExtraTimes.Period, interval: DateInterval)?
        var ramadan: RamadanTimer.Status?
        /// The next day suggested for a voluntary fast, and today, when `fast-suggestions` is on.
        var fast: (suggestion: FastSuggestion, today: CivilDate)?
        /// Whether `fast-suggestions` is on (JSON then has `fastSuggestion`, `null` when none is found).
        var fastSuggestionsOn = false
        /// The chosen mosque's timetable, when it gave some of the times.
        var mosque: String? = nil
    }

    /// `Fast tomorrow? Thursday · White day 13 Rajab`, `Fast today? …`, or for a later day
    /// `Next suggested fast Monday 2027-01-25: Monday`.
    static func fastText(_ fast: (suggestion: FastSuggestion, today: CivilDate)) -> String {
        let day = fast.suggestion.day.gregorian
        let reasons = fast.suggestion.summary
        if day == fast.today { return "Fast today? \(reasons)" }
        if day == fast.today.clampedAdding(days: 1) { return "Fast tomorrow? \(reasons)" }
        return "Next suggested fast \(day.weekdayName) \(day): \(reasons)"
    }

    /// `1:02` (hours and minutes), or `45s` in the last minute.
    static func countdown(_ seconds: TimeInterval) -> String {
        let total = max(0, Int(seconds.rounded(.up)))
        if total < 60 { return "\(total)s" }
        let minutes = (total + 59) / 60
        return "\(minutes / 60):\((minutes % 60) < 10 ? "0" : "")\(minutes % 60)"
    }

    /// Why no prayer's time is current, when times are missing around `status` (a polar day or
    /// night): which, and the option that gives them; else `nil`.
    static func note(_ status: PrayerTimer.Status, timer: PrayerTimer, parameters: CalculationParameters) -> String? {
        guard status.current == nil else { return nil }
        let missing = timer.missing(from: status.now.addingTimeInterval(-36 * 3600), until: status.next.date)
        let names = Prayer.daily.filter { prayer in missing.contains { $0.prayer == prayer } }.map(\.name)
        guard !names.isEmpty else { return nil }
        var text = "no prayer's time now: no \(names.joined(separator: ", ")) here (the sun does not rise or set)"
        if parameters.polarResolution == .unresolved {
            text += "; --polar-resolution nearest-latitude gives them"
        }
        return text
    }

    func render(
        _ status: PrayerTimer.Status, note: String? = nil, extra: Extra = Extra(), first: Bool, watching: Bool
    ) -> String {
        let next = status.next
        var short = "\(next.prayer.name) \(Self.countdown(status.countdown))"
        if let fast = extra.ramadan { short += " · \(Self.momentName(fast.moment)) \(Self.countdown(fast.countdown))" }
        switch format {
        case .json:
            // While watching, one line per change, as status bars and `jq --unbuffered` read it.
            let value = json(status, note: note, extra: extra)
            return (watching ? compact(value) : value.rendered()) + "\n"
        case .waybar:
            var members: [(String, JSON)] = [
                ("text", .string(short)), ("tooltip", .string(tooltip(status, note: note, extra: extra))),
                ("class", .string(next.prayer.rawValue)),
            ]
            if let progress = status.progress { members.append(("percentage", .int(Int((progress * 100).rounded())))) }
            return compact(.object(members)) + "\n"
        case .i3bar:
            let block = compact(
                .array([
                    .object([
                        ("name", .string("praykit")), ("full_text", .string(short)),
                        ("short_text", .string(short)), ("urgent", .bool(status.countdown < 600)),
                    ])
                ]))
            return (first ? "{\"version\":1}\n[\n" : ",") + block + "\n"
        case .polybar:
            return short + "\n"
        case .tmux:
            var line = "#[bold]\(next.prayer.name)#[default] \(Self.countdown(status.countdown))"
            if let fast = extra.ramadan {
                line += " · #[bold]\(Self.momentName(fast.moment))#[default] \(Self.countdown(fast.countdown))"
            }
            return line + "\n"
        default:
            return plain(status, note: note, extra: extra) + "\n"
        }
    }

    /// `Suhoor ends` or `Iftar`.
    static func momentName(_ moment: RamadanTimer.Moment) -> String {
        moment == .suhoor ? "Suhoor ends" : "Iftar"
    }

    private func plain(_ status: PrayerTimer.Status, note: String? = nil, extra: Extra = Extra()) -> String {
        let next = status.next
        var text =
            "\(next.prayer.name) at \(clock.time(next.date, withSeconds: false)) in \(Self.countdown(status.countdown))"
        if let iqama = status.nextIqama { text += " (iqama \(clock.time(iqama, withSeconds: false)))" }
        if let (period, interval) = extra.period {
            // With --extra, the stretch between the prayers by its name.
            let name: String =
                switch period {
                case .duha: "duha (ishraq)"
                case .disliked(let kind): "a time prayer is disliked (\(kind.rawValue))"
                }
            text +=
                "; now \(name) since \(clock.time(interval.start, withSeconds: false)), "
                + "until \(clock.time(interval.end, withSeconds: false))"
        } else if let current = status.current {
            // The time between sunrise and dhuhr is no prayer's: people call it after sunrise, or duha.
            // With --extra, outside duha and the disliked times (after the transit, before dhuhr's
            // adhan) it is only "after sunrise".
            let duha = calculation.request.extraTimes == nil ? " (duha)" : ""
            let name = current.time.prayer == .sunrise ? "after sunrise\(duha)" : current.time.prayer.name
            text += "; now \(name) since \(clock.time(current.time.date, withSeconds: false))"
        } else if let note {
            text += "; " + note
        }
        if let fast = extra.ramadan {
            text += "; Ramadan \(fast.ramadanDay): \(Self.momentName(fast.moment).lowercased())"
            text += fast.moment == .suhoor ? " (imsak)" : " (maghrib)"
            text += " at \(clock.time(fast.at, withSeconds: false)) in \(Self.countdown(fast.countdown))"
            if let fajr = fast.fajr { text += ", fajr \(clock.time(fajr, withSeconds: false))" }
        }
        if let fast = extra.fast { text += "; " + Self.fastText(fast) }
        // The time people act on is the mosque's, not the sun's: say whose it is.
        if let mosque = extra.mosque, next.derivation == .published { text += "; from \(mosque)" }
        return text
    }

    private func tooltip(_ status: PrayerTimer.Status, note: String?, extra: Extra) -> String {
        var lines = [plain(status, note: note, extra: extra)]
        if let name = calculation.place.name { lines.append(name) }
        return lines.joined(separator: "\n")
    }

    private func json(_ status: PrayerTimer.Status, note: String?, extra: Extra) -> JSON {
        let current: JSON =
            status.current.map { window in
                .object([
                    ("prayer", .string(window.time.prayer.rawValue)),
                    ("time", .string(clock.iso8601(window.time.date))),
                    ("endsAt", .string(window.endsAt.map(clock.iso8601))),
                    ("iqama", .string(status.currentIqama.map(clock.iso8601))),
                ])
            } ?? .null
        var members: [(String, JSON)] = [
            ("now", .string(clock.iso8601(status.now))),
            ("location", TimesOutput.location(calculation.request, place: calculation.place)),
            (
                "parameters",
                TimesOutput.parameters(
                    calculation.request.parameters, methodSource: calculation.method.source.description)
            ),
            ("current", current),
            (
                "next",
                .object([
                    ("prayer", .string(status.next.prayer.rawValue)),
                    ("time", .string(clock.iso8601(status.next.date))),
                    ("iqama", .string(status.nextIqama.map(clock.iso8601))),
                ])
            ),
            ("countdownSeconds", .int(Int(status.countdown.rounded(.up)))),
            ("sinceAdhanSeconds", status.sinceAdhan.map { .int(Int($0.rounded(.down))) } ?? .null),
            ("note", .string(note)),
            (
                "period",
                extra.period.map { period, interval in
                    .object([
                        ("name", .string(period.description)), ("start", .string(clock.iso8601(interval.start))),
                        ("end", .string(clock.iso8601(interval.end))),
                    ])
                } ?? .null
            ),
            (
                "ramadan",
                extra.ramadan.map { fast in
                    .object([
                        ("day", .int(fast.ramadanDay)), ("next", .string(fast.moment.rawValue)),
                        ("time", .string(clock.iso8601(fast.at))),
                        ("countdownSeconds", .int(Int(fast.countdown.rounded(.up)))),
                        ("fajr", .string(fast.fajr.map(clock.iso8601))),
                    ])
                } ?? .null
            ),
        ]
        // Only with fast-suggestions on: the output is otherwise what it was.
        if extra.fastSuggestionsOn {
            members.append(
                (
                    "fastSuggestion",
                    extra.fast.map { fast in
                        .object([
                            ("date", .string(fast.suggestion.day.gregorian.description)),
                            ("hijri", .string(fast.suggestion.day.hijri.description)),
                            ("reasons", FastCommand.json(fast.suggestion.reasons)),
                            ("text", .string(Self.fastText(fast))),
                        ])
                    } ?? .null
                ))
        }
        return .object(members)
    }

    /// What a JSON line says besides the instant and its counts of seconds (which change every second,
    /// and whose minutes the plain line shows): a watch writes a JSON line when this or the plain line
    /// changes.
    func lastingJSON(_ status: PrayerTimer.Status, note: String?, extra: Extra) -> String {
        guard case .object(let members) = json(status, note: note, extra: extra) else { return "" }
        let passing: Set = ["now", "countdownSeconds", "sinceAdhanSeconds", "ramadan"]
        return compact(.object(members.filter { !passing.contains($0.0) }))
    }

    /// JSON on one line, as status bars read it.
    private func compact(_ value: JSON) -> String {
        value.compactRendered()
    }
}
