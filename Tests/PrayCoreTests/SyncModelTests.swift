import Foundation
import PrayCore
import Synchronization
import Testing

/// The synced row model of SYNC.md: stamps that sort as text, the merge rule, the validators and
/// the wire shapes, shared by the client and the server.
@Suite struct SyncModelTests {
    let client = "c_0123456789abcdef0123456789abcdef"
    let other = "c_ffffffffffffffffffffffffffffffff"

    @Test func stampsSortAsTheirTextAndReadBack() throws {
        let early = try HLC(milliseconds: 1_795_953_600_000, counter: 0, clientID: other)
        let late = try HLC(milliseconds: 1_795_953_600_000, counter: 1, clientID: client)
        #expect(early.description == "001795953600000:0000:\(other)")
        #expect(early < late && early.description < late.description)
        #expect(try HLC(parsing: late.description) == late)
        for bad in ["1795953600000:0000:\(client)", "001795953600000:00000:\(client)", "001795953600000:0000:x"] {
            #expect(throws: ValidationError.self) { try HLC(parsing: bad) }
        }
    }

    @Test func theClockNeverGoesBackAndFollowsWhatItSees() throws {
        // Given: a wall clock that stands still, then jumps back an hour
        let now = Mutex(Date(timeIntervalSince1970: 1_795_953_600))
        let clock = try HLCClock(clientID: client, now: { now.withLock { $0 } })
        let first = clock.next()
        let second = clock.next()
        now.withLock { $0 = $0.addingTimeInterval(-3600) }
        let third = clock.next()
        // Then: each later than the one before, whatever the wall clock did
        #expect(first < second && second < third)
        #expect(second.counter == 1 && third.milliseconds == first.milliseconds)
        // A stamp seen from another device, a day ahead, raises the floor
        let seen = try HLC(milliseconds: first.milliseconds + 86_400_000, counter: 7, clientID: other)
        clock.observe(seen)
        let fourth = clock.next()
        #expect(fourth > seen && fourth.clientID == client)
    }

    @Test func theOffsetIsHalfTheRoundTripFromTheServersTime() throws {
        let clock = try HLCClock(clientID: client, now: { Date(timeIntervalSince1970: 1000) })
        clock.learnOffset(
            serverTime: Date(timeIntervalSince1970: 1010), sent: Date(timeIntervalSince1970: 999),
            received: Date(timeIntervalSince1970: 1001))
        #expect(clock.offsetMilliseconds == 10_000)
        #expect(clock.physicalMilliseconds == 1_010_000)
    }

    @Test func theMergeRuleTakesOnlyAGreaterStamp() throws {
        let older = SyncRow(
            collection: .log, key: "2026-12-01/fajr", hlc: try HLC(milliseconds: 1, counter: 0, clientID: client),
            deleted: false, value: .log(SyncLogValue(status: .prayed, recordedAt: Date(timeIntervalSince1970: 0))))
        var tombstone = older
        tombstone.hlc = try HLC(milliseconds: 2, counter: 0, clientID: other)
        tombstone.deleted = true
        tombstone.value = nil
        #expect(tombstone.replaces(older) && !older.replaces(tombstone) && older.replaces(nil))
        #expect(!older.replaces(older))
    }

    @Test func rowsAreValidatedByTheCoreRules() throws {
        let log = SyncValue.log(SyncLogValue(status: .qada, recordedAt: Date(timeIntervalSince1970: 0), note: "late"))
        try SyncRules.validate(collection: .log, key: "2026-12-01/fajr", value: log)
        try SyncRules.validate(collection: .pref, key: "method", value: .pref(SyncPrefValue(value: "isna")))
        try SyncRules.validate(
            collection: .place, key: "current",
            value: .place(
                SyncPlaceValue(name: "Makkah", latitude: 21.4, longitude: 39.8, elevation: nil, timeZone: "Asia/Riyadh")
            ))
        let refused: [(SyncCollection, String, SyncValue?)] = [
            (.log, "2026-12-01/sunrise", log), (.log, "2026-02-30/fajr", log), (.log, "fajr", nil),
            (
                .log, "2026-12-01/fajr",
                .log(SyncLogValue(status: .prayed, recordedAt: Date(), note: String(repeating: "x", count: 501)))
            ),
            (.pref, "notify-hook", .pref(SyncPrefValue(value: "rm -rf ~"))), (.pref, "clock", nil),
            (.pref, "method", .pref(SyncPrefValue(value: "nonsense"))), (.pref, "madhab", log),
            (.place, "home", nil),
            (
                .place, "current",
                .place(SyncPlaceValue(name: nil, latitude: 91, longitude: 0, elevation: nil, timeZone: nil))
            ),
            (
                .place, "current",
                .place(SyncPlaceValue(name: nil, latitude: 1, longitude: 0, elevation: nil, timeZone: "Mars/Olympus"))
            ),
        ]
        for (collection, key, value) in refused {
            #expect(throws: ValidationError.self, "\(collection) \(key)") {
                try SyncRules.validate(collection: collection, key: key, value: value)
            }
        }
        #expect(
            !SyncRules.syncedPreferenceKeys.contains(.notifyHook) && !SyncRules.syncedPreferenceKeys.contains(.clock))
        #expect(SyncRules.syncedPreferenceKeys.isSuperset(of: Preferences.calculationKeys))
    }

    /// Schema 2's collections: qada openings and make-ups, fasts, announced month starts and mosques'
    /// months, checked alike on both sides.
    @Test func theCollectionsOfSchema2AreValidatedByTheCoreRules() throws {
        let day = try CivilDate(parsing: "2026-12-01")
        let stamp = Date(timeIntervalSince1970: 1_795_953_600.123)
        func qada(_ kind: String, _ prayer: String, _ count: Int, source: String? = nil) -> SyncValue {
            .qada(
                SyncQadaValue(
                    kind: kind, prayer: prayer, count: count, date: day, source: source, recordedAt: stamp, note: nil))
        }
        let madeUpKey = "made-up/0123456789abcdef0123456789abcdef"
        let mosqueDay = MosqueDay(date: day, adhan: [.fajr: 360, .dhuhr: 720], iqama: [.fajr: 380], jumuah: [])
        func mosque(_ days: [MosqueDay], zone: String = "Europe/London") -> SyncValue {
            .mosque(SyncMosqueValue(latitude: 51.5, longitude: -0.07, elevation: 10, timeZone: zone, days: days))
        }
        try SyncRules.validate(
            collection: .qada, key: "opening/fajr", value: qada("opening", "fajr", 120, source: "set"))
        try SyncRules.validate(collection: .qada, key: madeUpKey, value: qada("made-up", "asr", 3))
        try SyncRules.validate(collection: .qada, key: madeUpKey, value: nil)
        try SyncRules.validate(
            collection: .fast, key: "2027-02-08",
            value: .fast(SyncFastValue(status: "made-up", recordedAt: stamp, note: "a day of last Ramadan")))
        try SyncRules.validate(collection: .mosque, key: "East London Mosque/2026-12", value: mosque([mosqueDay]))
        try SyncRules.validate(
            collection: .mosque, key: String(repeating: "م", count: 100) + "/2026-12", value: nil)
        #expect(try SyncRules.parseMosqueKey("A/B mosque/2026-12") == ("A/B mosque", 2026, 12))
        #expect(SyncCollection.allCases.filter { $0.schema == 2 } == [.qada, .fast, .hijriStart, .mosque])
        let late = MosqueDay(date: day, adhan: [.fajr: 360, .sunrise: 350])
        let refused: [(SyncCollection, String, SyncValue?)] = [
            (.qada, "opening/sunrise", nil), (.qada, "made-up/123", nil), (.qada, "fajr", nil),
            (.qada, "opening/fajr", qada("opening", "dhuhr", 1, source: "set")),
            (.qada, "opening/fajr", qada("opening", "fajr", 100_001, source: "set")),
            (.qada, "opening/fajr", qada("opening", "fajr", 5, source: "guess")),
            (.qada, "opening/fajr", qada("made-up", "fajr", 5)), (.qada, madeUpKey, qada("made-up", "fajr", 0)),
            (.qada, madeUpKey, qada("made-up", "fajr", 1_001)), (.qada, madeUpKey, qada("made-up", "sunrise", 1)),
            (.fast, "2027-02-30", nil),
            (.fast, "2027-02-08", .fast(SyncFastValue(status: "ate", recordedAt: stamp, note: nil))),
            (.hijriStart, "1448-13", nil),
            (.hijriStart, "1448-09", .fast(SyncFastValue(status: "fasted", recordedAt: stamp, note: nil))),
            (.mosque, "no month", nil), (.mosque, " padded/2026-12", nil), (.mosque, "M/2026-13", nil),
            (.mosque, "M/2026-11", mosque([mosqueDay])), (.mosque, "M/2026-12", mosque([])),
            (.mosque, "M/2026-12", mosque([mosqueDay, mosqueDay])), (.mosque, "M/2026-12", mosque([late])),
            (.mosque, "M/2026-12", mosque([mosqueDay], zone: "Mars/Olympus")),
            (.mosque, String(repeating: "x", count: 101) + "/2026-12", nil),
        ]
        for (collection, key, value) in refused {
            #expect(throws: ValidationError.self, "\(collection) \(key)") {
                try SyncRules.validate(collection: collection, key: key, value: value)
            }
        }
        // A pulled mosque day is checked as it decodes: a time outside the day does not read.
        let bad = Data(#"{"date":"2026-12-01","adhan":{"fajr":1500},"iqama":{},"jumuah":[]}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(MosqueDay.self, from: bad) }
        let round = try JSONDecoder().decode(MosqueDay.self, from: try JSONEncoder().encode(mosqueDay))
        #expect(round == mosqueDay)
    }

    @Test func theWireShapesAreSYNCmdsAndIgnoreUnknownFields() throws {
        // The push of SYNC.md §3, with a field a newer client might add
        let text = """
            {"protocol": 1, "schema": 1, "clientID": "\(client)", "extra": true, "mutations": [
              {"id": 41, "collection": "log", "key": "2026-12-01/fajr", "op": "put", "hlc": "001795953600000:0000:\(client)",
               "value": {"status": "qada", "recordedAt": "2026-12-01T05:41:12.345Z", "note": null, "mood": "good"}},
              {"id": 42, "collection": "log", "key": "2026-11-30/isha", "op": "delete", "hlc": "001795953600001:0000:\(client)"}]}
            """
        let push = try JSONDecoder().decode(SyncAPI.PushRequest.self, from: Data(text.utf8))
        #expect(push.mutations.map(\.id) == [41, 42])
        let value = try #require(push.mutations[0].value?.payload(as: SyncLogValue.self), "a log value")
        #expect(value.status == .qada && SyncAPI.timestamp(value.recordedAt) == "2026-12-01T05:41:12.345Z")
        #expect(push.mutations[1].row.deleted && push.mutations[1].value == nil)
        // A pulled row round-trips, a tombstone with a null value
        let rows = push.mutations.map { SyncAPI.PulledRow($0.row) }
        let data = try JSONEncoder().encode(rows)
        #expect(try JSONDecoder().decode([SyncAPI.PulledRow].self, from: data) == rows)
        #expect(String(decoding: data, as: UTF8.self).contains("\"value\":null"))
    }
}
