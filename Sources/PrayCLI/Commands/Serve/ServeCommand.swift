import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit serve`: the AlAdhan prayer-times API over HTTP, calculated here, offline (`run`, the
/// default), the sync endpoints with `--sync-store`, and the sync server's administration (`sync`).
enum ServeCommand: CommandGroup {
    static let name = "serve"
    static let abstract = "Serve the AlAdhan prayer-times API (api.aladhan.com/v1) over HTTP, and sync."
    static let discussion = """
        Answers the AlAdhan API's paths, parameters and JSON shapes from PrayKit's own calculation:
        /v1/timings/{DD-MM-YYYY}, /v1/nextPrayer/{DD-MM-YYYY}, /v1/calendar/{year}/{month},
        /v1/hijriCalendar/{year}/{month}, /v1/gToH/{date}, /v1/hToG/{date},
        /v1/gToHCalendar/{month}/{year}, /v1/islamicHolidaysByHijriYear/{year},
        /v1/hijriHolidays/{day}/{month}, /v1/specialDays, /v1/islamicMonths, /v1/nextHijriHoliday,
        /v1/qibla/{lat}/{lon}, /v1/methods, /v1/currentTime?zone=…, /status. Clients that speak
        AlAdhan work unchanged when pointed at this server. Without timezonestring a request's times
        are given in the zone at its coordinates (offline boundaries), as AlAdhan does, and
        meta.timezone names it; timezonestring takes any tz database name (Asia/Kolkata, US/Eastern),
        UTC or an offset. The …ByCity routes find cities in the offline gazetteer, and the …ByAddress
        routes (timingsByAddress, calendarByAddress, nextPrayerByAddress) find address=City or
        address=City, Country there too, with no geocoder: a street before the city is skipped, and an
        address the gazetteer does not know gets a 400.

        method=N is AlAdhan's method N as AlAdhan defines it — its angles and intervals, no hidden
        minute adjustments, and the minutes api.aladhan.com itself adds to Dubai, Turkey, Morocco and
        Portugal, shown in meta.offset — not the preset of 'praykit times --method', which carries
        the Adhan libraries' minutes (dhuhr +1 and more); tune adds minutes. JAKIM (17) has fajr 18°,
        JAKIM's rule since November 2019, where AlAdhan still has 20°. Without method, a request gets
        the method of the country at its coordinates, as 'praykit times' chooses it (Muslim World
        League where the table has no row), not AlAdhan's nearest authority. method=99 needs
        methodSettings. /v1/methods gives each method's source and how PrayKit's arithmetic differs
        (Asr, midnight: a minute or two; midnightDay=same measures the night as AlAdhan does).

        The first line on standard output is 'Listening on http://HOST:PORT' (with --port 0, the port
        the system chose). SIGTERM or SIGINT stops the server gracefully: it stops accepting, lets the
        requests in progress finish, then exits 0. Log lines go to standard error. Under systemd
        (Type=notify) it sends READY=1 to $NOTIFY_SOCKET once it listens.

        Limits: a client has --timeout seconds to send a whole request, head and body, however slowly
        it trickles; a request head over --max-head bytes gets 414 or 431, a body over --max-body 413;
        one address may hold --max-connections-per-address connections (behind a proxy every client
        has the proxy's address: raise it, and name the proxy with --trusted-proxy so that sync's
        per-address failure counts take the client's address from its X-Forwarded-For). Requests whose length or target a proxy could read
        otherwise (two Content-Length fields, Transfer-Encoding with Content-Length, a space before a
        field's colon, an HTTP/1.1 request without Host) get 400, and the connection is closed.

        With --display the server also serves /display, the screen of the saved place or of the mosque
        this device follows (the clock, the day's times with the saved iqama and Jumu'ah or the mosque's
        timetable and settings, its Eid prayers and notices, the next prayer's countdown and the phases
        around each prayer; ?lang=ar for Arabic), /display.json, its next 31 days, and /display/events,
        which tells the open page when they change; while it runs the machine stays in sync. A screen by
        the door shows it in Chromium's kiosk mode: 'praykit display units' prints the systemd units
        (docs/display.md).

        Without --sync-store the server keeps no state: run as many copies as needed behind any HTTP
        load balancer. Answers for a fixed date and place carry an ETag and Cache-Control: public,
        max-age=86400.

        Sync: with --sync-store sqlite:PATH the server also keeps people's prayer logs, synced settings
        and places the same on all their devices, at /sync/v1/ (POST /sync/v1/devices, push, pull; see
        SYNC.md). Without it, /sync/ answers 404. The store is one SQLite file, created 0600 in a 0700
        folder; one server process uses it. With --sync-store postgres://… (libpq's URL form, such as
        postgresql:///praykit?host=/run/postgresql) several servers share one PostgreSQL database
        behind a load balancer, each keeping a connection per worker thread; the schema is created at
        the first start and upgraded with 'praykit serve sync migrate-schema'. A password never goes on
        the command line: use ~/.pgpass, --sync-store-file FILE (mode 0600, the URL in it) or the
        environment variable PRAYKIT_SYNC_DATABASE_URL, which names the store when no option does.
        While PostgreSQL is unreachable (a restart, a failover) sync requests get 503 with Retry-After
        and devices keep their changes for later. Add a user with 'praykit serve sync users add NAME': it prints
        a one-time pairing code (15 minutes) and the 'praykit sync login' line to run on the device; each
        further device of that user needs a code from 'praykit serve sync pair NAME'. 'serve sync devices
        list' shows the devices and when each was last seen; 'serve sync devices revoke ID' locks a lost
        one out. These commands take the same --sync-store (default:
        sqlite:$XDG_DATA_HOME/praykit/sync-server.sqlite, else ~/.local/share/praykit/sync-server.sqlite)
        and may run while the server does.

        Device tokens travel in every sync request, so sync listens on a loopback address (127.0.0.1,
        ::1) unless --insecure-http is given: put the server behind a TLS reverse proxy (nginx, caddy)
        on the same machine, and pass --insecure-http only when that proxy is on another machine and
        the network between them is trusted. Sync request bodies may be up to 2 MiB (--max-body is
        raised to that).
        """
    static let examples = [
        "praykit serve",
        "praykit serve --host 0.0.0.0 --port 8080 --threads 4",
        "curl 'http://127.0.0.1:8080/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&method=4"
            + "&timezonestring=Asia/Riyadh'",
        "praykit serve --port 8080 --sync-store sqlite:/var/lib/praykit/sync.sqlite",
        "praykit serve --display --port 8080",
        "praykit serve sync users add amina --server https://pray.example.org",
        "praykit serve sync devices list",
    ]
    static let subcommands: [any CommandNode.Type] = [ServeRunCommand.self, ServeSyncCommand.self]
    static let defaultSubcommand: (any Command.Type)? = ServeRunCommand.self
}
