// An app that imports PrayKit gets the types it codes against — Coordinates, PrayerAPI, the service
// protocols — without a second import: PrayCore is re-exported. (`@_exported` is underscored, but it
// is the only way Swift offers, and the one the standard library's own overlays use.)
@_exported import PrayCore

// The MQTT publisher of Home Assistant's entities (`homeAssistantPublisher(connection:topics:)`), for the
// same reason: a daemon that handles a process's signals, assembled from the container.
@_exported import struct PrayServices.HomeAssistantPublisher
// The reminder daemon an app runs (`reminderRunner()`), one of the two PrayServices types re-exported:
// an app codes against PrayCore's protocols, and this is a coordinator PrayCore cannot hold (it handles
// a process's signals).
@_exported import struct PrayServices.ReminderRunner
