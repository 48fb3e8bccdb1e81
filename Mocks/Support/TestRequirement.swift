import Foundation
import Testing

#if canImport(CMicroHTTPD)
    internal import CMicroHTTPD
#endif
#if canImport(CPostgres)
    internal import CPostgres
#endif

/// The system libraries some tests need at run time, which a machine set up only as swift.org
/// describes does not have: libmicrohttpd (the tests that start a real server) and PostgreSQL (the
/// PostgreSQL store's tests). Where one is missing, its tests are skipped with one line saying how to
/// install it, unless the environment requires it — `PRAYKIT_REQUIRE_SERVER=1` or
/// `PRAYKIT_REQUIRE_POSTGRES=1`, as CI sets them — and then they run and fail.
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

    /// Why the tests that play a sound with ALSA's `aplay` (into its `null` device) are skipped here, in
    /// one line, or `nil` when they run: `aplay` is on `PATH`, or `PRAYKIT_REQUIRE_AUDIO=1`.
    public static let aplaySkip: String? = {
        guard !isRequired("PRAYKIT_REQUIRE_AUDIO") else { return nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/aplay") }
        return found
            ? nil : "aplay is not installed (apt-get install alsa-utils): the tests that play a sound are skipped"
    }()

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

    /// Runs the suite or test only where ALSA's `aplay` is installed, or where `PRAYKIT_REQUIRE_AUDIO=1`
    /// requires it; skips it with ``TestRequirement/aplaySkip`` otherwise.
    public static var needsAplay: Self {
        .enabled(if: TestRequirement.aplaySkip == nil, Comment(rawValue: TestRequirement.aplaySkip ?? ""))
    }

    /// Runs the suite or test only where PostgreSQL's server is installed, or where
    /// `PRAYKIT_REQUIRE_POSTGRES=1` requires it; skips it with ``TestRequirement/postgreSQLSkip`` otherwise.
    public static var needsPostgreSQL: Self {
        .enabled(if: TestRequirement.postgreSQLSkip == nil, Comment(rawValue: TestRequirement.postgreSQLSkip ?? ""))
    }
}
