import Testing

/// What a test starts or needs beyond its own process, so that a reader sees it where the test is
/// declared and a run can select or leave out those tests: `Scripts/test-tags.sh` turns tags into a
/// `swift test --filter` or `--skip` pattern (this toolchain's `swift test` has no tag filter), and
/// `Scripts/tsan.sh` and `Scripts/asan.sh` select with it. A suite carries the tags of what all its
/// tests do; a test carries those only it does.
///
/// ```swift
/// @Suite(.tags(.process, .binary)) struct StorageCommandTests { … }
/// @Test(.tags(.server)) func theContainersNetworkClientFetches() async throws { … }
/// ```
///
/// ```sh
/// Scripts/test-tags.sh --list binary                    # the tests that run the built praykit
/// swift test --skip "$(Scripts/test-tags.sh process server postgres)"   # the in-process ones
/// ```
///
/// The tags are not conditions: a missing library or program still skips through
/// ``TestRequirement`` (`.needsMicroHTTPD`, `.needsPostgreSQL`, …), which a tagged test keeps.
extension Tag {
    /// Starts a child process: the built `praykit` binary, a shell, a tool such as `man`, `haproxy -c`
    /// or `dbus-daemon`, a hook or a stand-in player. (A PostgreSQL cluster's own processes are
    /// ``postgres``'s.)
    @Tag public static var process: Self

    /// Runs the built `praykit` executable (build it first; a sanitizer's run builds it sanitized).
    /// Always with ``process``.
    @Tag public static var binary: Self

    /// Runs a program with libfaketime preloaded, which shifts its clock (and deadlocks in the address
    /// sanitizer's start-up). Always with ``process``.
    @Tag public static var faketime: Self

    /// Starts a server on a loopback port: the libmicrohttpd server, in process or as `praykit serve`,
    /// a `TestHTTPServer`, a `FaultProxy` or HAProxy.
    @Tag public static var server: Self

    /// Starts a throwaway PostgreSQL cluster (`PostgresCluster`).
    @Tag public static var postgres: Self

    /// Needs the print tools: WeasyPrint and poppler-utils (`.needsPrintTools`).
    @Tag public static var print: Self

    /// Needs a headless browser, Chromium (`.needsChromium`).
    @Tag public static var browser: Self

    /// Plays a sound with ALSA's `aplay` (`.needsAplay`).
    @Tag public static var audio: Self

    /// Exercises code that runs on several threads or tasks at once — locks, lazy statics, recorders,
    /// a server's threads, concurrent deliveries: the tests ThreadSanitizer runs (`Scripts/tsan.sh`).
    @Tag public static var concurrency: Self
}
