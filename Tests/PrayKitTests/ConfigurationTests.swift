import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayKit

/// The set-once rules of `PrayDependency.configure(_:)`, on private stores (the process's own is set
/// once by ``TestContainer``).
@Suite(.tags(.concurrency)) struct ConfigurationTests {
    typealias Configuration = PrayDependency.Configuration
    let configuration = Configuration(minLogLevel: .info, databasePath: "/tmp/a.sqlite")

    @Test func theSameConfigurationTwiceIsAccepted() throws {
        let store = ConfigurationStore()
        try store.set(configuration)
        try store.set(configuration)
        #expect(store.freeze() == configuration)
    }

    @Test func aDifferentSecondConfigurationThrowsAndTheFirstStays() throws {
        let store = ConfigurationStore()
        try store.set(configuration)
        var other = configuration
        other.databasePath = "/tmp/b.sqlite"
        #expect(throws: PrayDependency.ConfigurationError.self) { try store.set(other) }
        do {
            try store.set(other)
        } catch {
            #expect(error.kind == .alreadyConfigured)
        }
        #expect(store.freeze().databasePath == "/tmp/a.sqlite")
    }

    @Test func aCallAfterFirstUseThrows() {
        let store = ConfigurationStore()
        #expect(store.freeze() == Configuration())
        do {
            try store.set(configuration)
            Issue.record("a configuration after first use was accepted")
        } catch {
            #expect(error.kind == .calledAfterFirstUse)
        }
        #expect(store.freeze() == Configuration())
    }

    @Test func configurationsCompareByValue() {
        let memory = LogServiceMemory()
        let a = Configuration(logDestinations: [.console, .service(name: "memory", memory)], databasePath: "/x")
        let b = Configuration(
            logDestinations: [.console, .service(name: "memory", LogServiceMemory())], databasePath: "/x")
        let c = Configuration(logDestinations: [.console, .service(name: "other", memory)], databasePath: "/x")
        #expect(a == b)
        #expect(a != c)
        #expect(
            Configuration(logDestinations: [.file(path: "/l/a.log")])
                != Configuration(logDestinations: [.file(path: "/l/b.log")]))
        #expect(
            Configuration(logDestinations: [.file(path: "/l/a.log", maximumBytes: 10)])
                != Configuration(logDestinations: [.file(path: "/l/a.log")]))
    }

    @Test func logDestinationsBecomeServices() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-config-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = ConfigurationStore()
        let memory = LogServiceMemory()
        let logPath = folder.appendingPathComponent("p.log").path
        try store.set(
            Configuration(
                logDestinations: [.service(name: "memory", memory), .file(path: logPath)], databasePath: "/x"))
        let services = store.freezeWithServices().logServices
        #expect(services.count == 2)
        #expect(services.first as? LogServiceMemory === memory)
        #expect((services.last as? LogServiceFile)?.path == logPath)
    }

    @Test func aLogFileThatCannotBeOpenedThrowsAndConfiguresNothing() {
        let store = ConfigurationStore()
        do {
            try store.set(Configuration(logDestinations: [.file(path: "/proc/praykit/none.log")]))
            Issue.record("an unwritable log file was accepted")
        } catch {
            #expect(error.kind == .logFile)
        }
        // Nothing was set, so another configuration is still accepted.
        #expect(throws: Never.self) { try store.set(configuration) }
    }

    @Test func theDefaultDatabasePathFollowsTheEnvironment() {
        #expect(Configuration.defaultDatabasePath(environment: ["PRAYKIT_DATABASE": "/x/p.sqlite"]) == "/x/p.sqlite")
        #expect(
            Configuration.defaultDatabasePath(
                environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"], application: "praykit")
                == "/d/praykit/praykit.sqlite")
        #expect(
            Configuration.defaultDatabasePath(
                environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"], application: "praykit")
                == "/h/.local/share/praykit/praykit.sqlite")
        // An app's database is its own, under its name, never the tool's
        #expect(
            Configuration.defaultDatabasePath(environment: ["HOME": "/h"], application: "org.example.Prayers")
                == "/h/.local/share/org.example.Prayers/praykit.sqlite")
        #expect(Configuration.applicationName == ProcessInfo.processInfo.processName)  // the test runner's name
    }

    @Test func theLevelCanComeFromTheEnvironment() {
        #expect(Configuration.logLevel(fromEnvironment: ["PRAYKIT_LOG_LEVEL": "DEBUG"]) == .debug)
        #expect(Configuration.logLevel(fromEnvironment: ["PRAYKIT_LOG_LEVEL": "loud"]) == nil)
        #expect(Configuration.logLevel(fromEnvironment: [:]) == nil)
    }

    @Test func theContainerUsesItsConfiguration() throws {
        TestContainer.configured
        #expect(PrayDependency.configuration.databasePath == TestContainer.databasePath)
        #expect(PrayDependency().log().minLevel == .info)
        #expect(PrayDependency().logServices().first as? LogServiceMemory === TestContainer.log)
        // The process's configuration is fixed: a different call throws, the same one is accepted.
        #expect(throws: PrayDependency.ConfigurationError.self) {
            try PrayDependency.configure(Configuration(databasePath: "/elsewhere.sqlite"))
        }
    }
}
