import Foundation
import PrayCore
import PrayMocks
import Testing

@Suite(.tags(.concurrency)) struct LogManagerTests {
    @Test func recordsOnlyAtOrAboveTheMinimumLevel() {
        let memory = LogServiceMemory()
        let log = LogManager(services: [memory], minLevel: .notice, now: { Date(timeIntervalSince1970: 0) })
        log.info("not recorded")
        log.notice("recorded", metadata: ["prayer.days": "3"])
        #expect(memory.events.map(\.message) == ["recorded"])
        #expect(memory.events.first?.metadata["prayer.days"] == "3")
        #expect(memory.events.first?.timestamp == Date(timeIntervalSince1970: 0))
    }

    @Test func buildsNothingWhenTheLevelIsOff() {
        let memory = LogServiceMemory()
        let log = LogManager(services: [memory], minLevel: .error)
        var built = false
        func message() -> String {
            built = true
            return "expensive"
        }
        log.debug(message())
        #expect(!built)
        #expect(memory.events.isEmpty)
    }
}
