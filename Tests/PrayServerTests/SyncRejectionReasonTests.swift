import Foundation
import PrayCore
import Testing

@testable import PrayServer

/// A rejection's reason says what is wrong with a mutation without repeating its value.
@Suite struct SyncRejectionReasonTests {
    @Test func aReasonNeverRepeatsWhatWasPushed() throws {
        let hlc = try HLC(milliseconds: 1, counter: 0, clientID: "c_" + String(repeating: "a", count: 32))
        let mutation = SyncAPI.Mutation(
            id: 1, collection: .pref, key: "iqama", op: .put, hlc: hlc, value: .pref(.init(value: "fajr=Secret9")))
        for message in [
            "fajr-angle must be a number, got 'Secret9'", "Secret9 is not a coordinate",
            "the place's key is 'current'", "iqama fajr=Secret9 must look like fajr=+20",
        ] {
            let reason = SyncServerRules.redactedReason(message, of: mutation)
            #expect(!reason.contains("Secret9"), "\(reason)")
        }
        #expect(SyncServerRules.cutQuotedAndGot("the place's key is 'current'") == "the place's key is '…'")
        #expect(SyncServerRules.cutQuotedAndGot("must be 1 to 12, got 13") == "must be 1 to 12, got …")
        #expect(
            SyncServerRules.cutQuotedAndGot("a note has at most 500 characters") == "a note has at most 500 characters")
    }

    @Test func theKeyIsNamedTheValueIsNot() throws {
        let hlc = try HLC(milliseconds: 1, counter: 0, clientID: "c_" + String(repeating: "a", count: 32))
        let mutation = SyncAPI.Mutation(
            id: 1, collection: .pref, key: "future-setting", op: .put, hlc: hlc, value: .pref(.init(value: "Secret9")))
        #expect(
            SyncServerRules.redactedReason("'future-setting' is not a setting that syncs", of: mutation)
                == "'future-setting' is not a setting that syncs")
        #expect(
            SyncServerRules.redactedReason("future-setting must be a number, got 'Secret9'", of: mutation)
                == "future-setting must be a number, got …")
    }
}
