import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServer

/// The contract's cases of what a push may carry (SYNC.md §2, §7, the wave-3 security review): a
/// mutation stamped with another client's ID is rejected, and a rejection's reason never repeats the
/// value pushed. Run by both stores.
extension SyncStoreContract {
    static let pushRuleCases: [SyncStoreContractCase] = [
        .init(name: "a stamp of another client is rejected", run: { try $0.aStampOfAnotherClientIsRejected() }),
        .init(name: "a rejection never repeats the value", run: { try $0.aRejectionNeverRepeatsTheValue() }),
    ]

    // MARK: - Pushed values

    func aStampOfAnotherClientIsRejected() throws {
        // Given: client A's device
        let (store, _, device) = try storeWithDevice()
        // When: a push of client A with one mutation stamped as client B's
        let forged = try Self.put(2, "2026-12-01/isha", at: 10, client: Self.clientB)
        let response = try store.push(
            .init(
                clientID: Self.clientA, mutations: [try Self.put(1), forged, try Self.put(3, "2026-12-01/asr", at: 11)]),
            from: device, now: Self.now)
        // Then: that one alone is rejected, and counts
        #expect(response.lastMutationID == 3)
        #expect(response.rejected.map(\.id) == [2])
        #expect(response.rejected.first?.reason.contains("another client") == true)
        #expect(try allRows(store, device).rows.map(\.key).sorted() == ["2026-12-01/asr", "2026-12-01/fajr"])
    }

    func aRejectionNeverRepeatsTheValue() throws {
        // Given: invalid mutations whose values each carry the marker where a validator would repeat it
        let (store, _, device) = try storeWithDevice()
        let hlc = try Self.stamp(0)
        func pref(_ id: Int, _ key: String, _ value: String) -> SyncAPI.Mutation {
            SyncAPI.Mutation(id: id, collection: .pref, key: key, op: .put, hlc: hlc, value: .pref(.init(value: value)))
        }
        let marker = "Zq9Marker"
        let mutations = [
            pref(1, "future-setting", marker),
            pref(2, "fajr-angle", "\(marker)"),
            pref(3, "madhab", "\(marker)"),
            pref(4, "iqama", "fajr=\(marker)"),
            pref(5, "method", "\(marker)"),
            try Self.put(6, "2026-13-01/fajr", note: marker),
            try Self.put(7, "2026-12-01/fajr", note: marker + String(repeating: "n", count: 500)),
            SyncAPI.Mutation(
                id: 8, collection: .place, key: "current", op: .put, hlc: hlc,
                value: .place(.init(name: marker, latitude: 91, longitude: 0, elevation: nil, timeZone: marker))),
            SyncAPI.Mutation(
                id: 9, collection: .place, key: "current", op: .put, hlc: hlc,
                value: .place(
                    .init(name: marker, latitude: 21, longitude: 39, elevation: nil, timeZone: "Asia/\(marker)"))),
            pref(10, "hijri-offset", "\(marker)"),
            pref(11, "jumuah", "\(marker)"),
            pref(12, "reminder-minutes", "\(marker)"),
        ]
        // When
        let response = try store.push(.init(clientID: Self.clientA, mutations: mutations), from: device, now: Self.now)
        // Then: every one is rejected with a reason, and no reason repeats the value pushed (a key,
        // the client's own, may be named: it says which row)
        #expect(response.rejected.map(\.id) == Array(1...12))
        #expect(response.rejected.first?.reason.contains("future-setting") == true)
        for rejection in response.rejected {
            #expect(!rejection.reason.isEmpty)
            #expect(
                rejection.reason.range(of: marker, options: .caseInsensitive) == nil,
                "\(rejection.id): \(rejection.reason)")
        }
    }
}
