// swift-tools-version: 6.1
import PackageDescription

// Concrete types' metadata through direct accessors instead of by mangled name: the runtime then
// neither demangles names nor searches every protocol conformance in the binary the first time a
// generic type such as `Option<Double>` is used — a quarter of a one-day command's start-up before
// (README, "Start-up and memory"). Unsafe flags are allowed in this package's executables only: an
// app that depends on a library product builds neither. Scripts/build-release.sh passes the same
// flag to every module of the binary users install.
let directMetadataAccess: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])
]

let package = Package(
    name: "PrayKit",
    platforms: [.macOS(.v15), .iOS(.v18), .watchOS(.v11), .tvOS(.v18), .visionOS(.v2)],
    products: [
        .library(name: "PrayCore", targets: ["PrayCore"]),
        .library(name: "PrayServices", targets: ["PrayServices"]),
        .library(name: "PrayPlaces", targets: ["PrayPlaces"]),
        .library(name: "PrayServer", targets: ["PrayServer"]),
        .library(name: "PrayMocks", targets: ["PrayMocks"]),
        .library(name: "PrayKit", targets: ["PrayKit"]),
        .executable(name: "praykit", targets: ["PrayCLI"]),
        .executable(name: "praykit-bench", targets: ["PrayBenchmarks"]),
    ],
    targets: [
        // SQLite, from the system (libsqlite3-dev): the database of PrayServices (and, through its SQLite layer,
        // of the sync server's SQLite store in PrayServer).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libcurl, declared in the module itself (no libcurl4-openssl-dev to build) and loaded with dlopen on
        // first use, so commands that never touch the network do not load it and the ~30 libraries it pulls
        // in (see Sources/CCurl). Linux only: its C file compiles to nothing elsewhere, and only Linux
        // builds depend on it.
        .target(name: "CCurl", dependencies: ["CSystemLibrary"]),
        // libmicrohttpd, declared in the module itself (no libmicrohttpd-dev to build) and loaded with dlopen
        // when `praykit serve` starts a server, so other commands do not load it and its TLS libraries.
        // Linux only, as CCurl.
        .target(name: "CMicroHTTPD", dependencies: ["CSystemLibrary"]),
        // libpq, declared in the module itself (no libpq-dev to build) and loaded with dlopen when the sync
        // server's PostgreSQL store (PrayServer) is first used. Linux only, as CCurl.
        .target(name: "CPostgres", dependencies: ["CSystemLibrary"]),
        // libmosquitto (Eclipse Mosquitto's MQTT client), declared in the module itself (no libmosquitto-dev to
        // build) and loaded with dlopen when `praykit mqtt` first connects, so other commands do not load it and
        // the OpenSSL it links. Linux only, as CCurl.
        .target(name: "CMosquitto", dependencies: ["CSystemLibrary"]),
        // Opens a system library by absolute path from the system's folders only (never by soname, which
        // would search the executable's RUNPATH, `$ORIGIN` included): for CCurl, CMicroHTTPD, CPostgres and
        // CMosquitto.
        // Linux only.
        .target(name: "CSystemLibrary"),
        // Protocols, models, managers and pure rules (settings, zone parsing, the sync row model and validators
        // both sides of sync use): Foundation only.
        .target(name: "PrayCore"),
        // The real services: the engine, qibla, Hijri, SQLite storage, the HTTP client (libcurl on
        // Linux, URLSession elsewhere), the MQTT client (libmosquitto, Linux), reminders, the Home Assistant
        // publisher, a device's sync client.
        .target(
            name: "PrayServices",
            dependencies: [
                "PrayCore", "CSQLite", .target(name: "CCurl", condition: .when(platforms: [.linux])),
                .target(name: "CMosquitto", condition: .when(platforms: [.linux])),
            ]
        ),
        // The offline places' data as the generators wrote it (Scripts/data), embedded byte for byte
        // with C23 #embed and handed to Swift as pointers: read in place, never decoded or copied.
        .target(name: "CPrayPlacesData", exclude: ["data"]),
        // Offline places: the zone at a point (time zone boundaries), the gazetteer's search and the
        // nearest city, over CPrayPlacesData.
        .target(name: "PrayPlaces", dependencies: ["PrayCore", "CPrayPlacesData"]),
        // The HTTP server (libmicrohttpd, Linux only), the AlAdhan API (plain Swift, everywhere), and what the
        // sync server alone needs: its endpoints, its stores (SQLite; PostgreSQL on libpq, Linux only), its
        // rules and its token hashing. PrayServices only for its SQLite layer (SQLiteDatabase, SQLiteConnection,
        // Schema.Migration, `package` there), which the SQLite store runs on: one SQLite layer, not two.
        // The pages of `praykit serve` (Sources/PrayServer/Pages), embedded byte for byte with C23 #embed.
        .target(name: "CPrayPages"),
        // PrayServer's Pages/ folder holds the page files as committed (HTML, CSS, JavaScript modules):
        // CPrayPages embeds them, so the Swift target leaves them out.
        .target(
            name: "PrayServer",
            dependencies: [
                "PrayCore", "PrayServices", "CPrayPages",
                .target(name: "CMicroHTTPD", condition: .when(platforms: [.linux])),
                .target(name: "CPostgres", condition: .when(platforms: [.linux])),
            ],
            exclude: ["Pages"]
        ),
        // PrayMocks uses PrayServices only for TestDatabase, the real database in a temporary file, and
        // CMicroHTTPD, CPostgres and CMosquitto only for their loaders: the tests that need libmicrohttpd, libpq
        // or libmosquitto are skipped, saying how to install it, where it cannot be loaded (TestRequirement).
        .target(
            name: "PrayMocks",
            dependencies: [
                "PrayCore", "PrayServices", .target(name: "CMicroHTTPD", condition: .when(platforms: [.linux])),
                .target(name: "CPostgres", condition: .when(platforms: [.linux])),
                .target(name: "CMosquitto", condition: .when(platforms: [.linux])),
            ],
            path: "Mocks"
        ),
        // The container, the only composition root: it wires PrayServices, PrayPlaces (and, on Linux,
        // PrayServer) behind PrayCore's protocols. An app on Apple platforms that depends on PrayKit
        // does not link the server, nor the sync server's stores: `syncStore(at:)` throws `unsupported` there.
        .target(
            name: "PrayKit",
            dependencies: [
                "PrayCore", "PrayServices", "PrayPlaces",
                .target(name: "PrayServer", condition: .when(platforms: [.linux])),
            ]
        ),
        // Before main: a standard descriptor the process started without gets /dev/null (praykit >&-).
        .target(name: "CPrayStart"),
        // The command line takes every service from the container; it builds none itself.
        .executableTarget(
            name: "PrayCLI", dependencies: ["PrayCore", "PrayKit", "CPrayStart"], swiftSettings: directMetadataAccess),
        // The benchmark measures the services themselves, built directly.
        .executableTarget(
            name: "PrayBenchmarks", dependencies: ["PrayCore", "PrayServices", "PrayPlaces", "PrayServer"]),
        .testTarget(name: "PrayCoreTests", dependencies: ["PrayCore", "PrayMocks"]),
        .testTarget(
            name: "PrayServicesTests",
            dependencies: ["PrayCore", "PrayServices", "PrayMocks"],
            resources: [.copy("Resources")]
        ),
        .testTarget(
            name: "PrayPlacesTests", dependencies: ["PrayCore", "PrayPlaces", "PrayMocks"],
            resources: [.copy("Resources")]
        ),
        .testTarget(
            name: "PrayServerTests",
            dependencies: ["PrayCore", "PrayServer", "PrayServices", "PrayPlaces", "PrayMocks"]),
        // PrayServer on Linux only, as PrayKit has it: the container's live sync store migrator is PrayServer's.
        .testTarget(
            name: "PrayKitTests",
            dependencies: [
                "PrayCore", "PrayKit", "PrayServices", "PrayPlaces", "PrayMocks",
                .target(name: "PrayServer", condition: .when(platforms: [.linux])),
            ]
        ),
        .testTarget(
            name: "PrayCLITests",
            dependencies: ["PrayCLI", "PrayCore", "PrayKit", "PrayServer", "PrayServices", "PrayPlaces", "PrayMocks"]
        ),
    ]
)
