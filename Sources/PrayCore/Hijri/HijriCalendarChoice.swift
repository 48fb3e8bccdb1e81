#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The Hijri calendar a person follows: the saved calendar, day offset and announced month starts
/// (`hijri-calendar`, `hijri-offset`, `hijri-starts`), or, once they choose a mosque
/// (``Preferences/Key/mosque``), the mosque's — the calendar and offset of its settings
/// (``SyncMosqueSettingsValue``) and the month starts it announced, which replace the person's own for
/// the months it announced; the person's own starts still count for the other months.
///
/// ```swift
/// let choice = try HijriCalendarChoice(saved: preferences.preferences(), mosques: dependency.mosqueTimetables())
/// choice.apply(to: &request)   // Ramadan starts the day the mosque announced
/// ```
public struct HijriCalendarChoice: Hashable, Sendable {
    /// The calendar.
    public var calendar: HijriCalendar
    /// The day offset for local sighting, ``HijriAPI/offsets``.
    public var offset: Int
    /// The announced first days of months.
    public var starts: HijriMonthStarts
    /// The mosque whose calendar this is, or `nil` for the person's own settings.
    public var mosque: String?

    /// Creates a choice.
    public init(
        calendar: HijriCalendar = .ummAlQura, offset: Int = 0, starts: HijriMonthStarts = HijriMonthStarts(),
        mosque: String? = nil
    ) {
        self.calendar = calendar
        self.offset = offset
        self.starts = starts
        self.mosque = mosque
    }

    /// The person's own choice in `saved`, without a mosque.
    public init(saved: Preferences) {
        self.init(
            calendar: saved[.hijriCalendar].flatMap(HijriCalendar.init(rawValue:)) ?? .ummAlQura,
            offset: saved[.hijriOffset].flatMap { Int($0) } ?? 0,
            starts: saved.hijriMonthStarts)
    }

    /// The choice of `saved`: the chosen mosque's calendar when `mosques` keeps settings or announced
    /// starts for it, the person's own otherwise.
    /// - Throws: ``StorageError`` when `mosques` cannot be read.
    public init(saved: Preferences, mosques: (any MosqueTimetableStore)?) throws {
        guard let name = saved[.mosque], let mosques else {
            self.init(saved: saved)
            return
        }
        self.init(
            saved: saved, settings: try mosques.settings(of: name), announced: try mosques.hijriMonthStarts(of: name))
    }

    /// The choice of `saved` given what is kept of its chosen mosque (``Preferences`` `mosque`): its
    /// `settings` and the month starts it `announced`, as ``init(saved:mosques:)`` reads them — for a
    /// caller that has read them already.
    public init(saved: Preferences, settings: SyncMosqueSettingsValue?, announced: HijriMonthStarts) {
        self.init(saved: saved)
        guard let name = saved[.mosque], settings != nil || !announced.isEmpty else { return }
        if let settings {
            calendar = settings.hijriCalendar
            offset = settings.hijriOffset
        }
        for (month, start) in announced.sorted { starts[month] = start }
        mosque = name
    }

    /// Sets the calendar, offset and month starts of `request`.
    public func apply(to request: inout PrayerAPI.Request) {
        request.hijriCalendar = calendar
        request.hijriOffset = offset
        request.hijriMonthStarts = starts
    }
}
