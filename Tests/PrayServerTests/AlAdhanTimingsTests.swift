import Foundation
import PrayCore
import Testing

@testable import PrayServer

/// The `timings` object's writer: its inline store of a day's instants.
@Suite struct AlAdhanTimingsTests {
    @Test func theInstantsHoldOneTimeForEachName() {
        // Given: the names AlAdhan writes, and a store of their instants
        #expect(AlAdhanTimings.Instants.count == AlAdhanTimings.names.count)
        var instants = AlAdhanTimings.Instants()
        // When: every other time is set, the others left missing (the smallest and largest instants of
        // years 1 to 9999 among them)
        let values = [-62_135_596_800, 253_402_300_799, 0, 1_796_042_096, -1, 60]
        for index in 0..<AlAdhanTimings.Instants.count where index % 2 == 0 {
            instants[index] = values[index / 2]
        }
        // Then: each reads back as set, and a missing one as nil
        for index in 0..<AlAdhanTimings.Instants.count {
            #expect(instants[index] == (index % 2 == 0 ? values[index / 2] : nil), "index \(index)")
        }
        instants[4] = nil
        #expect(instants[4] == nil && instants[2] == values[1])
    }
}
