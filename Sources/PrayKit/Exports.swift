// An app that imports PrayKit gets the types it codes against — Coordinates, PrayerAPI, the service
// protocols — without a second import: PrayCore is re-exported. (`@_exported` is underscored, but it
// is the only way Swift offers, and the one the standard library's own overlays use.)
@_exported import PrayCore

// The reminder daemon an app runs (`reminderRunner()`), alone of PrayServices' types: an app codes
// against PrayCore's protocols, and this is the one coordinator PrayCore cannot hold (it handles a
// process's signals).
@_exported import struct PrayServices.ReminderRunner
