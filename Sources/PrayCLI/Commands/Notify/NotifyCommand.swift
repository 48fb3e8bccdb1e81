import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit notify`: the reminder daemon (`run`, the default: `praykit notify [options]`), and
/// `stop-sound`, which silences the adhan the running daemon plays.
enum NotifyCommand: CommandGroup {
    static let name = "notify"
    static let abstract = "Run the reminder daemon: notify before and at each prayer (or print its plan)."
    static let discussion = """
        The daemon plans the next events, waits for each on the wall clock in steps of at most a minute,
        and after every wake reads the clock and the saved settings again: a suspend and resume, a clock
        change, a new zone or place is followed at once. An event fires once at most, and not at all if
        it is more than two minutes late (the machine slept through it: it is logged as missed). Each
        event handled is recorded beside the database (praykit.notify-record), so a daemon restarted
        during or just after an event does not fire it again. Events go to desktop notifications
        (notify-send or gdbus), or with --hook to a shell command that receives PRAYKIT_EVENT,
        PRAYKIT_PRAYER, PRAYKIT_TIME, PRAYKIT_AT, PRAYKIT_IQAMA, PRAYKIT_MINUTES_BEFORE, PRAYKIT_TITLE,
        PRAYKIT_MESSAGE and PRAYKIT_PLACE, and of the daemon's environment only PATH, HOME, LANG, LC_*,
        XDG_RUNTIME_DIR, DBUS_SESSION_BUS_ADDRESS, DISPLAY, WAYLAND_DISPLAY and PULSE_SERVER. Each hook
        runs in a process group of its own, while later events fire on time; after 10 minutes it is
        stopped with everything it started.

        Sound: --sound FILE plays the adhan at each prayer's time (at iftar and Jumu'ah too),
        --fajr-sound FILE a fajr adhan of its own, --reminder-sound FILE a short sound for reminders,
        the iqama and imsak, at --volume percent. They play with PipeWire's pw-play (Debian package
        pipewire-bin), else PulseAudio's paplay (pulseaudio-utils), else ALSA's aplay (alsa-utils):
        the first found on PATH, or the one --player names; --dry-run says which. pw-play and paplay
        play WAV, FLAC, Ogg, AIFF, AU and MP3; aplay plays WAV, AU and VOC only and has no volume of
        its own (set it with alsamixer). The files are checked when the daemon starts. A sound plays
        while the daemon goes on (the next event fires on time); one sound plays at a time, a new one
        stopping the one still playing. 'praykit notify stop-sound' (or SIGUSR1 to the daemon) stops
        the sound playing; SIGTERM or Ctrl-C stops it and ends the daemon.

        No recording comes with praykit. Public-domain and Creative Commons recordings of the adhan
        are on Wikimedia Commons (search it for 'Adhan'); keep the licence with the file. Convert one
        to WAV with: ffmpeg -i adhan.ogg -ar 48000 adhan.wav (or: sox adhan.ogg adhan.wav).

        When this device syncs (praykit sync login), the daemon also keeps it in sync: a cycle a few
        seconds after a change made here, a minute at most after one made by another praykit, and
        every 30 minutes; after a failure it waits longer each time (or as long as the server asks).

        To run it with your session: praykit notify --print-unit > ~/.config/systemd/user/praykit-notify.service
        then systemctl --user enable --now praykit-notify (--print-unit puts the sound options given
        with it in the unit's command line).
        """
    static let examples = [
        "praykit notify --before 10 --sound ~/Music/adhan.wav --fajr-sound ~/Music/adhan-fajr.wav",
        "praykit notify --sound ~/Music/adhan.wav --reminder-sound ~/Music/chime.wav --volume 70 --player paplay",
        "praykit notify stop-sound",
        "praykit notify --before 10 --hook 'notify-send \"$PRAYKIT_TITLE\" \"$PRAYKIT_MESSAGE\"'",
        "praykit notify --dry-run --from 2026-11-29T00:00:00+03:00 --until 2026-11-30T00:00:00+03:00 --format json",
        "praykit notify --print-unit --sound ~/Music/adhan.wav > ~/.config/systemd/user/praykit-notify.service",
    ]
    static let subcommands: [any CommandNode.Type] = [NotifyRunCommand.self, NotifyStopSoundCommand.self]
    static let defaultSubcommand: (any Command.Type)? = NotifyRunCommand.self
}
