import Foundation
import Testing

#if canImport(CMicroHTTPD)
    internal import CMicroHTTPD
#endif
#if canImport(CPostgres)
    internal import CPostgres
#endif
#if canImport(CMosquitto)
    internal import CMosquitto
#endif

/// The system libraries and programs some tests need at run time, which a machine set up only as
/// swift.org describes does not have: libmicrohttpd (the tests that start a real server), PostgreSQL
/// (the PostgreSQL store's tests), WeasyPrint, poppler-utils and Chromium (the printed timetable's
/// tests), Mosquitto with libmosquitto (the MQTT publisher's tests), and the test tools `man`, GNU
/// `time`, a D-Bus session bus and libfaketime. Where one is missing, its tests are skipped with one line
/// saying how to install it, unless the environment requires it — `PRAYKIT_REQUIRE_SERVER=1`,
/// `PRAYKIT_REQUIRE_POSTGRES=1`, `PRAYKIT_REQUIRE_PRINT=1`, `PRAYKIT_REQUIRE_MQTT=1` or
/// `PRAYKIT_REQUIRE_TOOLS=1`, as CI sets them — and then they run and fail.
///
/// ```swift
/// @Suite(.needsMicroHTTPD) struct ServerTests { … }
/// ```
public enum TestRequirement {
    /// Why the tests that start a libmicrohttpd server are skipped here, in one line, or `nil` when
    /// they run: libmicrohttpd loads (through the server's own loader), or `PRAYKIT_REQUIRE_SERVER=1`.
    public static let microHTTPDSkip: String? = {
        #if canImport(CMicroHTTPD)
            var error = [CChar](repeating: 0, count: 512)
            guard praykit_mhd_load(&error, error.count) != 0, !isRequired("PRAYKIT_REQUIRE_SERVER") else { return nil }
            return "libmicrohttpd is not installed (apt-get install libmicrohttpd12): the tests that start a server "
                + "are skipped"
        #else
            // Where CMicroHTTPD is not built, no test starts a libmicrohttpd server.
            return nil
        #endif
    }()

    /// Why the PostgreSQL store's tests are skipped here, in one line, or `nil` when they run: the
    /// server's binaries are installed and libpq loads (through the store's own loader), or
    /// `PRAYKIT_REQUIRE_POSTGRES=1`.
    public static let postgreSQLSkip: String? = {
        #if os(Linux) && canImport(CPostgres)
            guard !isRequired("PRAYKIT_REQUIRE_POSTGRES") else { return nil }
            if PostgresCluster.installedBinaries == nil { return PostgresCluster.missing }
            var error = [CChar](repeating: 0, count: 512)
            guard praykit_pq_load(&error, error.count) != 0 else { return nil }
            return "libpq is not installed (apt-get install libpq5): the PostgreSQL store's tests are skipped"
        #else
            return "PostgreSQL's tests run on Linux only: the PostgreSQL store's tests are skipped"
        #endif
    }()

    /// Why the tests that print a timetable to PDF and count its pages are skipped here, in one line,
    /// or `nil` when they run: WeasyPrint and poppler's `pdftoppm` and `pdfinfo` are on `PATH`, or
    /// `PRAYKIT_REQUIRE_PRINT=1`.
    public static let printSkip: String? = {
        guard !isRequired("PRAYKIT_REQUIRE_PRINT") else { return nil }
        let missing = [("weasyprint", "weasyprint"), ("pdftoppm", "poppler-utils"), ("pdfinfo", "poppler-utils")]
            .filter { executable($0.0) == nil }
        guard !missing.isEmpty else { return nil }
        let packages = Array(Set(missing.map(\.1))).sorted().joined(separator: " ")
        return "\(missing.map(\.0).joined(separator: ", ")) not installed (apt-get install \(packages)): the PDF "
            + "timetable tests are skipped"
    }()

    /// Why the tests that lay a timetable out in a headless browser are skipped here, in one line, or
    /// `nil` when they run: Chromium is on `PATH`, or `PRAYKIT_REQUIRE_PRINT=1`.
    public static let chromiumSkip: String? = {
        guard !isRequired("PRAYKIT_REQUIRE_PRINT"), executable("chromium") == nil else { return nil }
        return "chromium is not installed (apt-get install chromium): the timetable layout tests are skipped"
    }()

    /// The Python that has Playwright, for the screen's browser tests: `$PRAYKIT_PLAYWRIGHT_PYTHON`,
    /// else the virtual environment `.ci/run` makes in the build folder (`.build/browser-venv`), when
    /// Playwright is installed in it; `nil` otherwise.
    public static let playwrightPython: String? = {
        if let python = ProcessInfo.processInfo.environment["PRAYKIT_PLAYWRIGHT_PYTHON"], !python.isEmpty {
            return python
        }
        let venv = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/browser-venv")
        let python = venv.appendingPathComponent("bin/python").path
        let libraries = venv.appendingPathComponent("lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: libraries.path)) ?? []
        let installed = versions.contains { version in
            FileManager.default.fileExists(
                atPath: libraries.appendingPathComponent("\(version)/site-packages/playwright").path)
        }
        return installed && FileManager.default.isExecutableFile(atPath: python) ? python : nil
    }()

    /// Why the screen's browser tests (Playwright driving Debian's Chromium) are skipped here, in one
    /// line, or `nil` when they run: Chromium and Playwright are installed, or `PRAYKIT_REQUIRE_BROWSER=1`.
    public static let playwrightSkip: String? = {
        guard !isRequired("PRAYKIT_REQUIRE_BROWSER") else { return nil }
        if executable("chromium") == nil {
            return "chromium is not installed (apt-get install chromium): the screen's browser tests are skipped"
        }
        guard playwrightPython == nil else { return nil }
        return "Playwright is not installed (python3 -m venv .build/browser-venv && .build/browser-venv/bin/pip "
            + "install playwright, as .ci/run does): the screen's browser tests are skipped"
    }()

    /// Whether the Python of ``playwrightPython`` (the browser tests' virtual environment) also has the
    /// `icalendar` parser, which checks the calendar feeds.
    public static let icalendarInstalled: Bool = {
        guard let python = playwrightPython else { return false }
        let libraries = URL(fileURLWithPath: python).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: libraries.path)) ?? []
        return versions.contains { version in
            FileManager.default.fileExists(
                atPath: libraries.appendingPathComponent("\(version)/site-packages/icalendar").path)
        }
    }()

    /// Why the tests that read the calendar feeds with a real iCalendar parser (`icalendar` from PyPI, in
    /// the browser tests' virtual environment) are skipped here, in one line, or `nil` when they run: it
    /// is installed, or `PRAYKIT_REQUIRE_BROWSER=1` (PyPI reached: `.ci/run` installs it with Playwright).
    public static let icalendarSkip: String? = {
        guard !isRequired("PRAYKIT_REQUIRE_BROWSER"), !icalendarInstalled else { return nil }
        return "icalendar is not installed (.build/browser-venv/bin/pip install icalendar, as .ci/run does): the "
            + "calendar feed parser tests are skipped"
    }()

    /// Why the tests that publish to a real MQTT broker are skipped here, in one line, or `nil` when they
    /// run: Mosquitto's broker and clients are installed, libmosquitto loads (through the publisher's own
    /// loader), openssl makes the test broker's certificates and Debian's Python has Jinja2 (Home
    /// Assistant's template language, to render the discovery's templates) — or `PRAYKIT_REQUIRE_MQTT=1`.
    public static let mqttSkip: String? = {
        guard !isRequired("PRAYKIT_REQUIRE_MQTT") else { return nil }
        var missing: [String] = []
        if executable("mosquitto") == nil, !FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto") {
            missing.append("mosquitto")
        }
        if executable("mosquitto_sub") == nil || executable("mosquitto_passwd") == nil {
            missing.append("mosquitto-clients")
        }
        #if canImport(CMosquitto)
            var error = [CChar](repeating: 0, count: 512)
            if praykit_mosquitto_load(&error, error.count) != 0 { missing.append("libmosquitto1") }
        #else
            missing.append("libmosquitto1 (Linux only)")
        #endif
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") { missing.append("openssl") }
        if !FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/jinja2/__init__.py") {
            missing.append("python3-jinja2")
        }
        guard !missing.isEmpty else { return nil }
        return "\(missing.joined(separator: ", ")) not installed (apt-get install \(missing.joined(separator: " "))): "
            + "the MQTT tests are skipped"
    }()

    /// Debian's Python, which has Jinja2 with `python3-jinja2` (``mqttSkip``).
    public static let jinjaPython = "/usr/bin/python3"

    /// The path of the executable `name` on `PATH`, or `nil`.
    public static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Why the tests that play a sound with ALSA's `aplay` (into its `null` device) are skipped here, in
    /// one line, or `nil` when they run: `aplay` is on `PATH`, or `PRAYKIT_REQUIRE_AUDIO=1`.
    public static let aplaySkip: String? = {
        guard !isRequired("PRAYKIT_REQUIRE_AUDIO") else { return nil }
        return executable("aplay") != nil
            ? nil : "aplay is not installed (apt-get install alsa-utils): the tests that play a sound are skipped"
    }()

    /// Why the tests that render the manual page with `man` are skipped here, in one line, or `nil` when
    /// they run: man-db's `/usr/bin/man` is installed, or `PRAYKIT_REQUIRE_TOOLS=1`.
    public static let manSkip: String? = toolSkip(
        [("/usr/bin/man", "man-db")], tests: "the tests that render the manual page with man")

    /// Why the tests that measure a command's peak memory with GNU time are skipped here, in one line, or
    /// `nil` when they run: `/usr/bin/time` is installed, or `PRAYKIT_REQUIRE_TOOLS=1`.
    public static let gnuTimeSkip: String? = toolSkip(
        [("/usr/bin/time", "time")], tests: "the tests that measure a command's peak memory")

    /// Why the tests that send a desktop notification over a private D-Bus session bus are skipped here, in
    /// one line, or `nil` when they run: `dbus-daemon`, `dbus-monitor` and `gdbus` are installed, or
    /// `PRAYKIT_REQUIRE_TOOLS=1`.
    public static let sessionBusSkip: String? = toolSkip(
        [
            ("/usr/bin/dbus-daemon", "dbus-daemon"), ("/usr/bin/dbus-monitor", "dbus-bin"),
            ("/usr/bin/gdbus", "libglib2.0-bin"),
        ], tests: "the tests of desktop notifications on a session bus")

    /// Where libfaketime is installed, as the loader finds it for `/usr/$LIB/faketime/libfaketime.so.1`
    /// (`/usr/lib/<multiarch>/faketime` on Debian, `/usr/lib64/faketime` elsewhere); `nil` when it is not.
    public static let faketimeLibrary: String? = {
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []).sorted().map {
            "/usr/lib/\($0)"
        }
        return (folders + ["/usr/lib64", "/usr/lib"]).map { "\($0)/faketime/libfaketime.so.1" }.first {
            FileManager.default.fileExists(atPath: $0)
        }
    }()

    /// Why the tests that run `praykit` on a shifted clock (libfaketime preloaded) are skipped here, in one
    /// line, or `nil` when they run: libfaketime is installed, or `PRAYKIT_REQUIRE_TOOLS=1`.
    public static let faketimeSkip: String? = {
        guard !isRequired("PRAYKIT_REQUIRE_TOOLS"), faketimeLibrary == nil else { return nil }
        return "libfaketime is not installed (apt-get install libfaketime): the tests that run praykit on a "
            + "shifted clock are skipped"
    }()

    /// Why `tests` are skipped, naming the packages of the missing programs, or `nil` when every program is
    /// installed or `PRAYKIT_REQUIRE_TOOLS=1` requires them (then the tests run, and fail without them).
    static func toolSkip(_ programs: [(path: String, package: String)], tests: String) -> String? {
        guard !isRequired("PRAYKIT_REQUIRE_TOOLS") else { return nil }
        let missing = programs.filter { !FileManager.default.isExecutableFile(atPath: $0.path) }
        guard !missing.isEmpty else { return nil }
        let names = missing.map { $0.path.split(separator: "/").last.map(String.init) ?? $0.path }
            .joined(separator: ", ")
        return "\(names) not installed (apt-get install \(missing.map(\.package).joined(separator: " "))): "
            + "\(tests) are skipped"
    }

    /// Whether the environment variable `name` is `1`.
    public static func isRequired(_ name: String) -> Bool {
        ProcessInfo.processInfo.environment[name] == "1"
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite or test only where libmicrohttpd can be loaded, or where
    /// `PRAYKIT_REQUIRE_SERVER=1` requires it; skips it with ``TestRequirement/microHTTPDSkip`` otherwise.
    public static var needsMicroHTTPD: Self {
        .enabled(if: TestRequirement.microHTTPDSkip == nil, Comment(rawValue: TestRequirement.microHTTPDSkip ?? ""))
    }

    /// Runs the suite or test only where WeasyPrint and poppler-utils are installed, or where
    /// `PRAYKIT_REQUIRE_PRINT=1` requires them; skips it with ``TestRequirement/printSkip`` otherwise.
    public static var needsPrintTools: Self {
        .enabled(if: TestRequirement.printSkip == nil, Comment(rawValue: TestRequirement.printSkip ?? ""))
    }

    /// Runs the suite or test only where Chromium is installed, or where `PRAYKIT_REQUIRE_PRINT=1`
    /// requires it; skips it with ``TestRequirement/chromiumSkip`` otherwise.
    public static var needsChromium: Self {
        .enabled(if: TestRequirement.chromiumSkip == nil, Comment(rawValue: TestRequirement.chromiumSkip ?? ""))
    }

    /// Runs the suite or test only where Chromium and Playwright for Python are installed, or where
    /// `PRAYKIT_REQUIRE_BROWSER=1` requires them; skips it with ``TestRequirement/playwrightSkip`` otherwise.
    public static var needsPlaywright: Self {
        .enabled(if: TestRequirement.playwrightSkip == nil, Comment(rawValue: TestRequirement.playwrightSkip ?? ""))
    }

    /// Runs the suite or test only where the `icalendar` parser is installed beside Playwright, or where
    /// `PRAYKIT_REQUIRE_BROWSER=1` requires it; skips it with ``TestRequirement/icalendarSkip`` otherwise.
    public static var needsICalendar: Self {
        .enabled(if: TestRequirement.icalendarSkip == nil, Comment(rawValue: TestRequirement.icalendarSkip ?? ""))
    }

    /// Runs the suite or test only where ALSA's `aplay` is installed, or where `PRAYKIT_REQUIRE_AUDIO=1`
    /// requires it; skips it with ``TestRequirement/aplaySkip`` otherwise.
    public static var needsAplay: Self {
        .enabled(if: TestRequirement.aplaySkip == nil, Comment(rawValue: TestRequirement.aplaySkip ?? ""))
    }

    /// Runs the suite or test only where Mosquitto, its clients, libmosquitto, openssl and Python's Jinja2
    /// are installed, or where `PRAYKIT_REQUIRE_MQTT=1` requires them; skips it with
    /// ``TestRequirement/mqttSkip`` otherwise.
    public static var needsMQTT: Self {
        .enabled(if: TestRequirement.mqttSkip == nil, Comment(rawValue: TestRequirement.mqttSkip ?? ""))
    }

    /// Runs the suite or test only where man-db's `man` is installed, or where `PRAYKIT_REQUIRE_TOOLS=1`
    /// requires it; skips it with ``TestRequirement/manSkip`` otherwise.
    public static var needsMan: Self {
        .enabled(if: TestRequirement.manSkip == nil, Comment(rawValue: TestRequirement.manSkip ?? ""))
    }

    /// Runs the suite or test only where GNU time is installed, or where `PRAYKIT_REQUIRE_TOOLS=1` requires
    /// it; skips it with ``TestRequirement/gnuTimeSkip`` otherwise.
    public static var needsGNUTime: Self {
        .enabled(if: TestRequirement.gnuTimeSkip == nil, Comment(rawValue: TestRequirement.gnuTimeSkip ?? ""))
    }

    /// Runs the suite or test only where `dbus-daemon`, `dbus-monitor` and `gdbus` are installed, or where
    /// `PRAYKIT_REQUIRE_TOOLS=1` requires them; skips it with ``TestRequirement/sessionBusSkip`` otherwise.
    public static var needsSessionBus: Self {
        .enabled(if: TestRequirement.sessionBusSkip == nil, Comment(rawValue: TestRequirement.sessionBusSkip ?? ""))
    }

    /// Runs the suite or test only where libfaketime is installed, or where `PRAYKIT_REQUIRE_TOOLS=1`
    /// requires it; skips it with ``TestRequirement/faketimeSkip`` otherwise. Every test tagged
    /// `.faketime` takes it.
    public static var needsFaketime: Self {
        .enabled(if: TestRequirement.faketimeSkip == nil, Comment(rawValue: TestRequirement.faketimeSkip ?? ""))
    }

    /// Runs the suite or test only where PostgreSQL's server is installed, or where
    /// `PRAYKIT_REQUIRE_POSTGRES=1` requires it; skips it with ``TestRequirement/postgreSQLSkip`` otherwise.
    public static var needsPostgreSQL: Self {
        .enabled(if: TestRequirement.postgreSQLSkip == nil, Comment(rawValue: TestRequirement.postgreSQLSkip ?? ""))
    }
}
