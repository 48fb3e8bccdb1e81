import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayKit

/// The set-once rules of `PrayDependency.configure(_:)` and `PrayLogging.configure(services:minLevel:)`,
/// on private stores (the process's own is set once by ``TestContainer``).
@Suite struct ConfigurationTests {
    let configuration = PrayDependency.Configuration(minLogLevel: .info, databasePath: "/tmp/a.sqlite")

    @Test func theSameConfigurationTwiceIsAccepted() {
        let store = ConfigurationStore()
        #expect(store.set(configuration))
        #expect(store.set(configuration))
        #expect(store.freeze() == configuration)
    }

    @Test func aDifferentSecondConfigurationIsRefusedAndTheFirstStays() {
        let store = ConfigurationStore()
        #expect(store.set(configuration))
        var other = configuration
        other.databasePath = "/tmp/b.sqlite"
        #expect(!store.set(other))
        #expect(store.freeze().databasePath == "/tmp/a.sqlite")
    }

    @Test func nothingIsAcceptedAfterFirstUse() {
        let store = ConfigurationStore()
        #expect(store.freeze() == PrayDependency.Configuration())
        #expect(!store.set(configuration))
        #expect(!store.setLogging(services: [LogServiceMemory()], minLevel: .debug))
    }

    @Test func loggingOverridesTheConfigurationsLogging() {
        let store = ConfigurationStore()
        let memory = LogServiceMemory()
        #expect(store.setLogging(services: [memory], minLevel: .trace))
        #expect(store.setLogging(services: [LogServiceMemory()], minLevel: .trace))
        #expect(!store.setLogging(services: [LogServiceConsole()], minLevel: .trace))
        #expect(store.set(configuration))
        let frozen = store.freeze()
        #expect(frozen.minLogLevel == .trace)
        #expect(frozen.logServices.first as? LogServiceMemory === memory)
        #expect(frozen.databasePath == "/tmp/a.sqlite")
    }

    @Test func theDefaultDatabasePathFollowsTheEnvironment() {
        typealias Configuration = PrayDependency.Configuration
        #expect(Configuration.defaultDatabasePath(environment: ["PRAYKIT_DATABASE": "/x/p.sqlite"]) == "/x/p.sqlite")
        #expect(
            Configuration.defaultDatabasePath(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"])
                == "/d/praykit/praykit.sqlite")
        #expect(
            Configuration.defaultDatabasePath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"])
                == "/h/.local/share/praykit/praykit.sqlite")
    }

    @Test func theLevelCanComeFromTheEnvironment() {
        #expect(PrayLogging.levelFromEnvironment(["PRAYKIT_LOG_LEVEL": "DEBUG"]) == .debug)
        #expect(PrayLogging.levelFromEnvironment(["PRAYKIT_LOG_LEVEL": "loud"]) == nil)
        #expect(PrayLogging.levelFromEnvironment([:]) == nil)
    }

    @Test func theContainerUsesItsConfiguration() {
        TestContainer.configured
        #expect(PrayDependency.configuration.databasePath == TestContainer.databasePath)
        #expect(PrayDependency().log().minLevel == .info)
        #expect(PrayDependency().logServices().first as? LogServiceMemory === TestContainer.log)
    }
}
