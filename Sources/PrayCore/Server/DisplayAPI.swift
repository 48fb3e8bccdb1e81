#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The screen of a mosque or a home (`praykit serve --display`): what `/display` shows and
/// `/display.json` answers.
///
/// The page is a view of a model: the server answers the place's times for the next
/// ``days`` days (adhan, iqama, Jumu'ah, sunrise, the Hijri date and the zone's offsets), and the
/// page decides, from that JSON and its clock alone, which phase of which prayer it is.
///
/// ```swift
/// let prepared = try await dependency.locationManager().prayerRequest(
///     for: LocationAPI.Request(.saved), at: Date())
/// let routes = dependency.displayRoutes(DisplayAPI.Screen(prepared: prepared, name: "East London Mosque"))
/// ```
public enum DisplayAPI {
    /// How many days the model holds from today: a screen that loses its server keeps running a month.
    public static let days = 31

    /// Whether `path` belongs to the screen: `/display` itself, and its files, model and event stream
    /// (`/display.css`, `/display-model.js`, `/display.json`, `/display/events`).
    public static func isDisplayPath(_ path: String) -> Bool {
        path == "/display" || path.hasPrefix("/display.") || path.hasPrefix("/display-") || path.hasPrefix("/display/")
    }

    /// What a screen shows: the place (its zone and calculation, resolved once, as `praykit times`
    /// resolves them) and how long each phase around a prayer lasts.
    public struct Screen: Hashable, Sendable {
        /// The place, its zone, its parameters and Hijri settings, and the iqama saved when the
        /// server started; the day and day count are set for each answer.
        public var prepared: LocationAPI.PrayerRequest
        /// The name shown at the top (the saved place's name, or a mosque's).
        public var name: String?
        /// The phases around each prayer.
        public var phases: Phases

        /// Creates a screen.
        public init(prepared: LocationAPI.PrayerRequest, name: String? = nil, phases: Phases = Phases()) {
            self.prepared = prepared
            self.name = name
            self.phases = phases
        }
    }

    /// How long each phase around a prayer lasts, in minutes; 0 switches a phase off, and so does
    /// ``iqama`` `false` for the countdown to iqama (which lasts from the adhan's phase to iqama).
    ///
    /// Around a prayer with an iqama the screen shows, in order: *before the adhan* (a countdown to
    /// it), *the adhan*, *the countdown to iqama*, *silence your phones*, *the prayer* (dimmed, with
    /// the clock and the time since iqama) and *after the prayer*.
    public struct Phases: Hashable, Sendable {
        /// Minutes before the adhan with a countdown to it.
        public var beforeAdhan: Int
        /// Minutes the adhan is shown from its time.
        public var adhan: Int
        /// Whether the countdown to iqama is shown between the adhan and iqama.
        public var iqama: Bool
        /// Minutes before iqama that ask people to silence their phones.
        public var silence: Int
        /// Minutes of the prayer itself from iqama (a dimmed screen).
        public var prayer: Int
        /// Minutes of Jumu'ah from its time (the khutbah and the prayer).
        public var jumuah: Int
        /// Minutes after the prayer (adhkar) before the screen returns to the day.
        public var after: Int

        /// Creates phases; the defaults suit most mosques.
        public init(
            beforeAdhan: Int = 10, adhan: Int = 3, iqama: Bool = true, silence: Int = 1, prayer: Int = 10,
            jumuah: Int = 30, after: Int = 5
        ) {
            self.beforeAdhan = beforeAdhan
            self.adhan = adhan
            self.iqama = iqama
            self.silence = silence
            self.prayer = prayer
            self.jumuah = jumuah
            self.after = after
        }

        /// The lengths by name, in the model's order (the countdown to iqama, which has no length of
        /// its own, is ``iqama``).
        public var named: [(name: String, minutes: Int)] {
            [
                ("beforeAdhan", beforeAdhan), ("adhan", adhan), ("silence", silence), ("prayer", prayer),
                ("jumuah", jumuah), ("after", after),
            ]
        }
    }
}
