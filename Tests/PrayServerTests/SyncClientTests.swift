import Foundation
import PrayCore
import PrayMocks
import PrayServer
import Testing

@testable import PrayServices

/// The client of sync against the real store and routes, in one process: SYNC.md §4 and the
/// guarantees of §6 that do not need a killed process (those are in the CLI's sync tests).
@Suite(.tags(.concurrency)) struct SyncClientTests {
    /// 2026-11-29.
    let day = CivilDate(daysSince1970: 20_786)

    // MARK: - Two devices

    @Test func twoDevicesEndUpWithTheSameLogSettingsAndPlace() async throws {
        // Given: a laptop with a log and settings, and a phone with nothing
        let world = try SyncWorld()
        let laptop = world.device("laptop")
        let phone = world.device("phone")
        try laptop.log.record(.prayed, for: .fajr, on: day, note: "at the mosque")
        try laptop.log.record(.late, for: .dhuhr, on: day)
        try laptop.preferences.update { preferences in
            try preferences.set("umm-al-qura", for: .method)
            try preferences.set("21.4225", for: .latitude)
            try preferences.set("39.8262", for: .longitude)
            try preferences.set("Asia/Riyadh", for: .timeZone)
            try preferences.set("Makkah", for: .placeName)
            try preferences.set("12h", for: .clock)
        }
        // When: both log in (the laptop first) and sync
        try await laptop.login(world)
        try await phone.login(world)
        try await laptop.sync.syncNow()
        // Then: the phone has the log, the synced settings and the place; never the clock
        let phoneRows = try phone.syncedRows()
        #expect(phoneRows == (try laptop.syncedRows()))
        #expect(phoneRows["log/2026-11-29/fajr"]?.hasSuffix("|at the mosque") == true)
        #expect(try phone.preferences.preferences()[.clock] == nil)
        #expect(try phone.preferences.preferences()[.placeName] == "Makkah")
        #expect(try laptop.sync.unsyncedCount() == 0 && phone.sync.unsyncedCount() == 0)

        // When: the phone deletes an entry and changes the method; both sync
        try phone.log.delete([.dhuhr], on: day)
        try phone.preferences.update { try $0.set("isna", for: .method) }
        try await phone.sync.syncNow()
        try await laptop.sync.syncNow()
        // Then (I4): the delete and the change reached the laptop; the deleted entry does not come back
        #expect(try laptop.log.entries(from: day, through: day).map(\.prayer) == [.fajr])
        #expect(try laptop.preferences.preferences()[.method] == "north-america")
        try await laptop.sync.syncNow()
        try await phone.sync.syncNow()
        #expect(try phone.syncedRows() == laptop.syncedRows())
        #expect(try world.serverRows()["log/2026-11-29/dhuhr"]?.deleted == true)
    }

    /// Schema 2: a mosque's timetable month by month, and each announced month start on its own, so
    /// two devices' announcements of different months both stay; a removal reaches every device.
    @Test func mosquesAndAnnouncedMonthStartsSyncMonthByMonth() async throws {
        // Given: a laptop that kept a mosque's timetable (two months) and an announced start before
        // logging in, and a phone with nothing
        let world = try SyncWorld()
        let laptop = world.device("laptop")
        let phone = world.device("phone")
        let days = [day, day.adding(days: 2), day.adding(days: 5)].map { date in
            MosqueDay(date: date, adhan: [.fajr: 370, .dhuhr: 720], iqama: [.fajr: 390], jumuah: [780])
        }
        let mosque = MosqueTimetable(
            name: "East London Mosque", coordinates: try Coordinates(latitude: 51.5176, longitude: -0.0654),
            timeZone: "Europe/London", days: days)
        try laptop.mosques.replace(mosque)
        let ramadan = try HijriMonthStarts.Month(parsing: "1448-09")
        let shawwal = try HijriMonthStarts.Month(parsing: "1448-10")
        try laptop.preferences.update { try $0.set("1448-09=2027-02-08", for: .hijriStarts) }
        // When both log in and sync
        try await laptop.login(world)
        try await phone.login(world)
        try await laptop.sync.syncNow()
        try await phone.sync.syncNow()
        // Then the phone has the mosque's days and the start; the server has a row per month
        #expect(try phone.mosques.timetable(named: mosque.name, from: day, through: day.adding(days: 9)) == mosque)
        #expect(try phone.preferences.preferences().hijriMonthStarts[ramadan] == (try CivilDate(parsing: "2027-02-08")))
        let server = try world.serverRows()
        #expect(
            server.keys.filter { $0.hasPrefix("mosque/") }.sorted() == [
                "mosque/East London Mosque/2026-11", "mosque/East London Mosque/2026-12",
            ])
        // When, offline from each other, the laptop announces Shawwal and the phone moves Ramadan
        try laptop.preferences.update { try $0.set("1448-09=2027-02-08,1448-10=2027-03-09", for: .hijriStarts) }
        try phone.preferences.update { try $0.set("1448-09=2027-02-07", for: .hijriStarts) }
        try await laptop.sync.syncNow()
        try await phone.sync.syncNow()
        try await laptop.sync.syncNow()
        // Then both months stay on both devices: the phone's Ramadan (later) and the laptop's Shawwal
        for device in [laptop, phone] {
            let starts = try device.preferences.preferences().hijriMonthStarts
            #expect(starts[ramadan] == (try CivilDate(parsing: "2027-02-07")), "\(device.name)")
            #expect(starts[shawwal] == (try CivilDate(parsing: "2027-03-09")), "\(device.name)")
        }
        // When the phone imports the mosque again with December only, and later the laptop removes it
        try phone.mosques.replace(
            MosqueTimetable(
                name: mosque.name, coordinates: mosque.coordinates, timeZone: mosque.timeZone,
                days: Array(days.suffix(1))))
        try await phone.sync.syncNow()
        try await laptop.sync.syncNow()
        #expect(try laptop.mosques.mosques().map(\.days) == [1])
        try laptop.mosques.remove(named: mosque.name)
        try await laptop.sync.syncNow()
        try await phone.sync.syncNow()
        // Then it is gone everywhere, as tombstones on the server
        #expect(try phone.mosques.mosques().isEmpty)
        #expect(try world.serverRows().filter { $0.key.hasPrefix("mosque/") }.values.allSatisfy(\.deleted))
        #expect(try phone.syncedRows() == laptop.syncedRows())
    }

    /// Qada: make-ups recorded on two devices offline both count; the later opening wins; a removed
    /// make-up is removed everywhere.
    @Test func makeUpsFromTwoDevicesBothCountAndTheLaterOpeningWins() async throws {
        let world = try SyncWorld()
        let laptop = world.device("laptop")
        let phone = world.device("phone")
        try await laptop.login(world)
        try await phone.login(world)
        func entry(_ device: Device, _ kind: QadaEntry.Kind, _ count: Int) throws -> QadaEntry {
            try QadaEntry(
                id: kind == .opening ? QadaEntry.openingID(.fajr) : QadaEntry.newMadeUpID(), kind: kind, prayer: .fajr,
                count: count, date: day, source: kind == .opening ? "set" : nil, recordedAt: device.clock.now())
        }
        // Given: an opening of 100 on the laptop, synced to the phone
        try laptop.qada.save([try entry(laptop, .opening, 100)])
        try await laptop.sync.syncNow()
        try await phone.sync.syncNow()
        // When: offline from each other, each records make-ups, and each sets the opening again
        let made = [try entry(laptop, .madeUp, 3), try entry(phone, .madeUp, 2)]
        try laptop.qada.save([made[0]])
        try phone.qada.save([made[1]])
        laptop.clock.advance(by: 60)
        phone.clock.advance(by: 120)
        try laptop.qada.save([try entry(laptop, .opening, 90)])
        try phone.qada.save([try entry(phone, .opening, 80)])
        for device in [laptop, phone, laptop] { try await device.sync.syncNow() }
        // Then: both make-ups are on both devices, and the phone's later opening
        for device in [laptop, phone] {
            let entries = try device.qada.entries()
            #expect(Set(entries.filter { $0.kind == .madeUp }.map(\.count)) == [3, 2], "\(device.name)")
            #expect(entries.first { $0.kind == .opening }?.count == 80, "\(device.name)")
            let ledger = QadaLedger(entries: entries, log: [], today: day, timeZone: TimeZone(identifier: "UTC")!)
            #expect(ledger.accounts.first { $0.prayer == .fajr }?.balance == 75, "\(device.name)")
        }
        // When the laptop removes its make-up, the phone loses it too
        try laptop.qada.remove(id: made[0].id)
        try await laptop.sync.syncNow()
        try await phone.sync.syncNow()
        #expect(try phone.qada.entries().filter { $0.kind == .madeUp }.map(\.id) == [made[1].id])
        #expect(try phone.syncedRows() == laptop.syncedRows())
    }

    /// A first login sends what the device kept with stamps of when it was recorded: an older opening
    /// of qada does not replace the newer one the server has, and a fast kept only here is sent.
    @Test func aFirstLoginDoesNotReplaceNewerQadaWithOlder() async throws {
        let world = try SyncWorld()
        let laptop = world.device("laptop")
        let phone = world.device("phone")
        func opening(_ count: Int, at date: Date) throws -> QadaEntry {
            try QadaEntry(
                id: QadaEntry.openingID(.isha), kind: .opening, prayer: .isha, count: count, date: day, source: "set",
                recordedAt: date)
        }
        // Given: the phone set an opening of 40 an hour ago and kept a fast, before it ever synced;
        // the laptop sets 25 now and syncs
        try phone.qada.save([try opening(40, at: SyncWorld.start.addingTimeInterval(-3600))])
        try phone.fasts.record([try FastEntry(date: day, status: .voluntary, recordedAt: SyncWorld.start)])
        try await laptop.login(world)
        try laptop.qada.save([try opening(25, at: laptop.clock.now())])
        try await laptop.sync.syncNow()
        // When the phone logs in and both sync
        try await phone.login(world)
        try await laptop.sync.syncNow()
        // Then the laptop's newer opening stands on both, and the phone's fast reached the laptop
        for device in [laptop, phone] {
            #expect(try device.qada.entries().map(\.count) == [25], "\(device.name)")
        }
        #expect(try laptop.fasts.entries(from: day, through: day).map(\.status) == [.voluntary])
    }

    /// A device that synced with schema 1 (an earlier PrayKit) and kept a mosque's timetable then:
    /// its next cycle queues what the older schema could not send and pulls everything again.
    @Test func aDeviceOfTheOlderSchemaSendsWhatItKeptAndPullsAgain() async throws {
        let world = try SyncWorld()
        let laptop = world.device("laptop")
        let phone = world.device("phone")
        try await laptop.login(world)
        try await phone.login(world)
        try laptop.preferences.update { try $0.set("1448-09=2027-02-08", for: .hijriStarts) }
        try await laptop.sync.syncNow()
        try await phone.sync.syncNow()
        // Given: the phone as an older PrayKit left it: schema 1, its cursor past the month start's row
        // (which that server left out), no month start, a mosque kept without sync
        try phone.database.write { connection in
            try connection.execute(
                "DELETE FROM preferences WHERE key = 'hijri-starts'; DELETE FROM sync_rows WHERE collection = 'hijri-start'"
            )
            try MosqueTimetableStoreSQLite.store(
                MosqueTimetable(
                    name: "Masjid", coordinates: try Coordinates(latitude: 21.42, longitude: 39.82),
                    timeZone: "Asia/Riyadh", days: [MosqueDay(date: day, adhan: [.fajr: 300])]),
                importedAt: 0, connection)
            try SyncJournal.set(.schema, "1", connection)
            #expect(try SyncJournal.get(.cursor, connection) != "0")
        }
        #expect(try phone.preferences.preferences()[.hijriStarts] == nil)
        // When it syncs (with this PrayKit)
        try await phone.sync.syncNow()
        try await laptop.sync.syncNow()
        // Then it has the laptop's month start, and the laptop its mosque
        #expect(try phone.preferences.preferences()[.hijriStarts] == "1448-09=2027-02-08")
        #expect(try laptop.mosques.mosques().map(\.name) == ["Masjid"])
        #expect(try phone.syncedRows() == laptop.syncedRows())
    }

    @Test func preferServerKeepsTheServersSettingsAndSendsOnlyWhatItLacks() async throws {
        // Given: the server has the laptop's method; the desktop has another method and a madhab
        let world = try SyncWorld()
        let laptop = world.device("laptop")
        try laptop.preferences.update { try $0.set("umm-al-qura", for: .method) }
        try await laptop.login(world)
        let desktop = world.device("desktop")
        try desktop.preferences.update { preferences in
            try preferences.set("egyptian", for: .method)
            try preferences.set("hanafi", for: .madhab)
        }
        // When: the desktop logs in preferring the server
        try await desktop.login(world, prefer: .server)
        try await laptop.sync.syncNow()
        // Then: the server's method won everywhere, and the madhab it lacked came from the desktop
        #expect(try desktop.preferences.preferences()[.method] == "umm-al-qura")
        #expect(try laptop.preferences.preferences()[.madhab] == "hanafi")
        // and the desktop's method is not silently gone: it is its one conflict (I15)
        let replaced = try desktop.sync.conflicts()
        #expect(replaced.map(\.key) == ["method"] && replaced.first?.reason == .serverPreferred)
        #expect(replaced.first?.localValue == .pref(SyncPrefValue(value: "egyptian")))
        #expect(replaced.first?.winningValue == .pref(SyncPrefValue(value: "umm-al-qura")))
        #expect(try desktop.sync.currentStatus().conflictCount == 1 && laptop.sync.conflicts().isEmpty)

        // When: a third device prefers its own settings
        let tablet = world.device("tablet", clockOffset: 60)
        try tablet.preferences.update { try $0.set("karachi", for: .method) }
        try await tablet.login(world, prefer: .local)
        try await laptop.sync.syncNow()
        // Then: its method won
        #expect(try laptop.preferences.preferences()[.method] == "karachi")
    }

    @Test func twoEditsOfOneSettingOfflineEndWithOneValueEverywhereAndOneVisibleConflict() async throws {
        // Given: a laptop and a phone in sync, both offline
        let world = try SyncWorld()
        let laptop = world.device("laptop")
        let phone = world.device("phone")
        try await laptop.login(world)
        try await phone.login(world)
        // When: the phone changes the method, then the laptop changes it later; the laptop syncs first
        try phone.preferences.update { try $0.set("isna", for: .method) }
        laptop.clock.advance(by: 60)
        try laptop.preferences.update { try $0.set("muslim-world-league", for: .method) }
        try await laptop.sync.syncNow()
        try await phone.sync.syncNow()
        try await laptop.sync.syncNow()
        // Then: the later change won on both, and the phone keeps what it lost, nothing silent (I15)
        #expect(try phone.preferences.preferences()[.method] == "muslim-world-league")
        #expect(try laptop.preferences.preferences()[.method] == "muslim-world-league")
        let conflicts = try phone.sync.conflicts()
        #expect(conflicts.count == 1 && conflicts.first?.reason == .newerElsewhere, "\(conflicts)")
        #expect(conflicts.first?.localValue == .pref(SyncPrefValue(value: "north-america")))
        #expect(conflicts.first?.winningValue == .pref(SyncPrefValue(value: "muslim-world-league")))
        #expect(try laptop.sync.conflicts().isEmpty)
        // When: the phone keeps its value
        let id = try #require(conflicts.first?.id)
        try phone.sync.keepConflict(id: id)
        try await phone.sync.syncNow()
        try await laptop.sync.syncNow()
        // Then: it is the value everywhere, and the conflict is gone; dismissing an unknown one is refused
        #expect(try laptop.preferences.preferences()[.method] == "north-america")
        #expect(try phone.sync.conflicts().isEmpty)
        #expect(throws: ValidationError.self) { try phone.sync.dismissConflict(id: id) }
    }

    // MARK: - Outbox and acknowledgement

    @Test func aChangeWaitsInTheOutboxUntilTheServerAcknowledgesItAndChangesTheServerOnce() async throws {
        // Given: a logged-in device
        let world = try SyncWorld()
        let phone = world.device("phone")
        try await phone.login(world)
        // When: a record is pushed but the answer is lost (I6: the entry stays), then the next cycle
        try phone.log.record(.prayed, for: .isha, on: day)
        #expect(try phone.sync.unsyncedCount() == 1)
        phone.network.fail(.loseAnswer)
        await #expect(throws: NetworkError.self) { try await phone.sync.syncNow() }
        #expect(try phone.sync.unsyncedCount() == 1)
        let versionAfterFirst = try world.store.users().first?.version
        try await phone.sync.syncNow()
        // Then (I2): the retry changed nothing more on the server, and the outbox is empty
        #expect(try world.store.users().first?.version == versionAfterFirst)
        #expect(try phone.sync.unsyncedCount() == 0)
        #expect(try world.serverRows()["log/2026-11-29/isha"]?.deleted == false)
    }

    @Test func aLostRequestAndAnOfflineServerLoseNothing() async throws {
        let world = try SyncWorld()
        let phone = world.device("phone")
        try await phone.login(world)
        phone.network.setPartitioned(true)
        for prayer in Prayer.obligatory { try phone.log.record(.prayed, for: prayer, on: day) }
        await #expect(throws: NetworkError.self) { try await phone.sync.syncNow() }
        #expect(try phone.sync.currentStatus().phase == .offline)
        #expect(try phone.sync.currentStatus().unsyncedCount == 5)
        // A write made while offline is acknowledged at once: it never waits for the server.
        #expect(await phone.sync.syncAfterWrite() == nil)
        phone.network.setPartitioned(false)
        let report = try await phone.sync.syncNow()
        #expect(report.pushed == 5)
        #expect(try phone.sync.currentStatus().phase == .idle)
        #expect(try world.serverRows().keys.filter { $0.hasPrefix("log/") }.count == 5)
    }

    @Test func theStoreThatWritesAnOutboxEntryIsWhatAsksForTheAfterWriteSync() async throws {
        // Given: a logged-in phone whose stores and sync service share one journal, all caught up
        let world = try SyncWorld()
        let phone = world.device("phone")
        try await phone.login(world)
        try await phone.sync.syncNow()
        #expect(!phone.sync.needsSyncAfterWrite)
        // When: reads only — nothing waits, and the after-write sync sends no request
        _ = try phone.log.entries(from: day, through: day)
        _ = try phone.preferences.preferences()
        let before = world.traffic.withLock { $0.requests }
        #expect(await phone.sync.syncAfterWrite() == nil)
        #expect(world.traffic.withLock { $0.requests } == before)
        // When: a store writes (the log, then a fast) — the change is what asks for the sync
        try phone.log.record(.prayed, for: .fajr, on: day)
        #expect(phone.sync.needsSyncAfterWrite)
        let report = await phone.sync.syncAfterWrite()
        #expect(report?.pushed == 1)
        #expect(!phone.sync.needsSyncAfterWrite)
        try phone.fasts.record([try FastEntry(date: day, status: .fasted, recordedAt: phone.clock.now(), note: nil)])
        #expect(phone.sync.needsSyncAfterWrite)
        #expect(await phone.sync.syncAfterWrite()?.pushed == 1)
        #expect(try world.serverRows().keys.contains("fast/\(day)"))
    }

    @Test func everyCollectionHasExactlyOneHomeOnTheDevice() {
        // The registration of DESIGN §1: each collection of SyncCollection.all is kept by one home.
        var homes: [SyncCollection: Int] = [:]
        for home in SyncedCollections.all {
            for collection in home.collections { homes[collection, default: 0] += 1 }
        }
        #expect(Set(homes.keys) == Set(SyncCollection.all))
        #expect(homes.values.allSatisfy { $0 == 1 }, "\(homes)")
        for collection in SyncCollection.all {
            #expect(SyncedCollections.home(of: collection) != nil, "\(collection)")
            #expect(collection.valueType.collection == collection, "\(collection)")
            #expect(SyncCollection(rawValue: collection.rawValue) == collection)
        }
    }

    // MARK: - Identity

    @Test func aCopiedDatabaseKeepsEveryChangeAndSendsItAfterALogin() async throws {
        // Given: a device that synced, then its database copied to another machine
        let world = try SyncWorld()
        let laptop = world.device("laptop")
        try laptop.log.record(.prayed, for: .fajr, on: day)
        try await laptop.login(world)
        laptop.machine.identity = "another-machine"
        // When: the copy writes and tries to sync
        try laptop.log.record(.missed, for: .asr, on: day)
        // Then (I8): the write succeeded, sync says to log in again, nothing is lost
        #expect(try laptop.sync.currentStatus().phase == .needsLogin)
        await #expect {
            try await laptop.sync.syncNow()
        } throws: { ($0 as? SyncError)?.kind == .copiedDatabase }
        #expect(!FileManager.default.fileExists(atPath: laptop.sync.tokenPath))
        #expect(try laptop.sync.unsyncedCount() == 1)
        // When: it logs in again
        let status = try await laptop.login(world)
        // Then: the change went under the new client ID, numbered from 1
        #expect(status.phase == .idle && status.unsyncedCount == 0)
        #expect(try world.serverRows()["log/2026-11-29/asr"] != nil)
    }

    @Test func aRevokedDeviceStopsAndKeepsItsChanges() async throws {
        let world = try SyncWorld()
        let phone = world.device("phone")
        try await phone.login(world)
        let device = try #require(try world.store.devices().first { $0.name == "phone" })
        try world.store.revokeDevice(device.id, now: world.serverClock.now())
        try phone.log.record(.prayed, for: .maghrib, on: day)
        // I9: 401, the outbox kept, the status says to log in again
        await #expect {
            try await phone.sync.syncNow()
        } throws: { ($0 as? SyncError)?.kind == .unauthorized }
        #expect(try phone.sync.currentStatus().phase == .loggedOut)
        #expect(try phone.sync.unsyncedCount() == 1)
        try await phone.login(world)
        #expect(try phone.sync.unsyncedCount() == 0)
        #expect(try world.serverRows()["log/2026-11-29/maghrib"] != nil)
    }

    @Test func theTokenIsAPrivateFileAndNowhereElse() async throws {
        let world = try SyncWorld()
        let phone = world.device("phone")
        try await phone.login(world)
        let attributes = try FileManager.default.attributesOfItem(atPath: phone.sync.tokenPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let token = try String(contentsOfFile: phone.sync.tokenPath, encoding: .utf8)
        #expect(token.hasPrefix("pkd_"))
        // Not in the database, not in an export, not in the server's log.
        let database = try Data(contentsOf: URL(fileURLWithPath: phone.database.path))
        #expect(database.range(of: Data(token.utf8)) == nil)
        #expect(try phone.backup.exportData().encoded().range(of: Data(token.utf8)) == nil)
        #expect(
            !world.memory.events.contains { event in
                event.message.contains(token) || event.metadata.values.contains { $0.contains(token) }
            })
    }

    // MARK: - Conflicts and clocks

    @Test func aClockSixHoursAheadIsCorrectedAndDoesNotWinLater() async throws {
        // Given: a phone whose clock is 6 h fast, a laptop on time
        let world = try SyncWorld()
        let laptop = world.device("laptop")
        let phone = world.device("phone", clockOffset: 6 * 3600)
        try await laptop.login(world)
        try await phone.login(world)
        // When: the phone records (stamped 6 h ahead) and syncs
        try phone.log.record(.late, for: .fajr, on: day)
        try await phone.sync.syncNow()
        // Then: the server refused the stamp (clock_ahead), the phone learned the offset and restamped
        let row = try #require(try world.serverRows()["log/2026-11-29/fajr"])
        #expect(row.hlc.milliseconds <= PrayerLogEntry.milliseconds(world.serverClock.now()) + 1_000)
        // When: the laptop, having seen it, records the same prayer a minute later
        try await laptop.sync.syncNow()
        laptop.clock.advance(by: 60)
        world.serverClock.advance(by: 60)
        try laptop.log.record(.qada, for: .fajr, on: day)
        try await laptop.sync.syncNow()
        // Then (I5): the later write wins everywhere, although the phone's clock is still ahead
        try await phone.sync.syncNow()
        #expect(try phone.log.entries(from: day, through: day).first?.status == .qada)
        // A phone write made after seeing the laptop's orders after it too
        try phone.log.record(.prayed, for: .fajr, on: day)
        try await phone.sync.syncNow()
        try await laptop.sync.syncNow()
        #expect(try laptop.log.entries(from: day, through: day).first?.status == .prayed)
    }

    @Test func concurrentEditsOfOneRowEndTheSameEverywhere() async throws {
        let world = try SyncWorld()
        let a = world.device("a")
        let b = world.device("b")
        try await a.login(world)
        try await b.login(world)
        try a.log.record(.prayed, for: .asr, on: day)
        b.clock.advance(by: 1)
        try b.log.record(.missed, for: .asr, on: day)
        try await a.sync.syncNow()
        try await b.sync.syncNow()
        try await a.sync.syncNow()
        #expect(try a.syncedRows() == b.syncedRows())
        #expect(try a.log.entries(from: day, through: day).first?.status == .missed)
    }

    // MARK: - Failures, import, logout

    @Test func aNewerClientSchemaIsRefusedWithTheOutboxKept() async throws {
        let world = try SyncWorld()
        let phone = world.device("phone")
        try await phone.login(world)
        try phone.log.record(.prayed, for: .fajr, on: day)
        // The server answers 426 as one older than the client would (I11).
        let refusing = SyncServiceHTTP(
            database: phone.database, network: UpgradeRequiredNetwork(), clock: phone.clock, log: .silent,
            journal: SyncJournal(machineIdentity: { phone.machine.identity }))
        await #expect {
            try await refusing.syncNow()
        } throws: { ($0 as? SyncError)?.kind == .upgradeRequired }
        #expect(try phone.sync.unsyncedCount() == 1)
    }

    @Test func anImportUnderSyncIsPutsAndDeletes() async throws {
        let world = try SyncWorld()
        let laptop = world.device("laptop")
        try laptop.log.record(.prayed, for: .fajr, on: day)
        try laptop.log.record(.prayed, for: .dhuhr, on: day)
        try await laptop.login(world)
        let backup = UserData(
            preferences: try Preferences(storedValues: ["method": "karachi"]),
            prayerLog: [try PrayerLogEntry(date: day, prayer: .isha, status: .late, recordedAt: SyncWorld.start)])
        try laptop.backup.importData(backup, keeping: [])
        try await laptop.sync.syncNow()
        let rows = try world.serverRows()
        #expect(rows["log/2026-11-29/fajr"]?.deleted == true && rows["log/2026-11-29/dhuhr"]?.deleted == true)
        #expect(rows["log/2026-11-29/isha"]?.deleted == false)
        #expect(rows["pref/method"]?.value == .pref(SyncPrefValue(value: "karachi")))
    }

    @Test func logoutRefusesWhileChangesWaitAndSaysHowMany() async throws {
        let world = try SyncWorld()
        let phone = world.device("phone")
        try await phone.login(world)
        phone.network.setPartitioned(true)
        try phone.log.record(.prayed, for: .fajr, on: day)
        try phone.log.record(.prayed, for: .dhuhr, on: day)
        #expect {
            try phone.sync.logout(force: false)
        } throws: { error in
            (error as? SyncError)?.kind == .unsyncedChanges
                && (error as? SyncError)?.message.hasPrefix("2 changes") == true
        }
        // A deletion waits too: of the three, it is what a forced logout loses.
        try phone.log.delete([.dhuhr], on: day)
        #expect(try phone.sync.logout(force: true) == 1)
        #expect(try phone.sync.currentStatus() == .off)
        #expect(!FileManager.default.fileExists(atPath: phone.sync.tokenPath))
        // The log stays, and the next login sends it: the forced logout lost nothing else.
        #expect(try phone.log.entries(from: day, through: day).map(\.prayer) == [.fajr])
        phone.network.setPartitioned(false)
        try await phone.login(world)
        #expect(try world.serverRows().keys.contains("log/\(day)/fajr"))
    }

    /// A logout retires the device on the server where it is reached: the token stops working there
    /// and the operator's list shows it revoked; a second retirement (its answer lost) is no error, and
    /// a device where sync is off has nothing to retire.
    @Test func retiringTheDeviceRevokesItOnTheServer() async throws {
        let world = try SyncWorld()
        let phone = world.device("phone")
        let laptop = world.device("laptop")
        try await phone.login(world)
        try await laptop.login(world)
        #expect(try await phone.sync.retireDevice())
        let devices = try world.store.devices()
        #expect(devices.first { $0.name == "phone" }?.isRevoked == true)
        #expect(devices.first { $0.name == "laptop" }?.isRevoked == false)
        #expect(try await phone.sync.retireDevice())
        #expect(try phone.sync.logout(force: false) == 0)
        #expect(try await phone.sync.retireDevice() == false)
        try await laptop.sync.syncNow()
    }

    // MARK: - Refused changes

    /// A change the server refuses (here a setting an older server does not sync) is set aside as
    /// failed without holding up the others; `retryFailed` sends it again, `dropFailed` forgets it.
    @Test func aRefusedChangeIsSetAsideAndCanBeRetriedOrDropped() async throws {
        let world = try SyncWorld()
        let laptop = world.device("laptop")
        try await laptop.login(world)
        try laptop.log.record(.prayed, for: .fajr, on: day)
        try laptop.database.write { [journal = laptop.journal, now = laptop.clock.now()] connection in
            try journal.append(
                .pref, "future-setting", value: .pref(SyncPrefValue(value: "on")), now: now, connection)
        }
        try laptop.log.record(.late, for: .dhuhr, on: day)
        #expect(try laptop.sync.unsyncedCount() == 3)

        let report = try await laptop.sync.syncNow()
        #expect(report.rejected == 1)
        #expect(report.pushed == 2)
        let failed = try laptop.sync.failedChanges()
        #expect(failed.map(\.key) == ["future-setting"])
        #expect(failed.first?.reason.contains("future-setting") == true)
        #expect(try laptop.sync.unsyncedCount() == 0)
        #expect(try laptop.sync.currentStatus().failedCount == 1)
        // The changes around it reached the server.
        let server = try world.serverRows()
        #expect(server["log/2026-11-29/fajr"] != nil && server["log/2026-11-29/dhuhr"] != nil)
        #expect(server["pref/future-setting"] == nil)

        // Retry: sent again, refused again, still one failed change.
        #expect(try laptop.sync.retryFailed() == 1)
        #expect(try laptop.sync.unsyncedCount() == 1)
        #expect(try await laptop.sync.syncNow().rejected == 1)
        #expect(try laptop.sync.failedChanges().count == 1)

        // Drop: forgotten, and the next cycle pulls everything again without bringing it back.
        #expect(try laptop.sync.dropFailed() == 1)
        #expect(try laptop.sync.failedChanges().isEmpty)
        #expect(try laptop.sync.currentStatus().failedCount == 0)
        try await laptop.sync.syncNow()
        #expect(try laptop.log.entries(from: day, through: day).map(\.prayer) == [.fajr, .dhuhr])
        #expect(try laptop.sync.failedChanges().isEmpty)
    }

    // MARK: - Many devices

    /// I1, I3, I12: five devices of one user make a few hundred random changes while partitions come
    /// and go and answers are lost; once every device is joined again, two rounds of `sync now` (each
    /// device in turn) leave every device with exactly the server's rows, and nothing unsynced.
    @Test func fiveDevicesUnderRandomPartitionsAndLostAnswersConverge() async throws {
        let seed = SeededGenerator.seed(default: 0x5EED_0021)
        var random = SeededGenerator(seed: seed)
        let world = try SyncWorld()
        let names = ["phone", "watch", "laptop", "desktop", "tablet"]
        var devices: [Device] = []
        for (index, name) in names.enumerated() {
            // Clocks a little apart, one of them minutes behind.
            let device = world.device(name, clockOffset: index == 4 ? -300 : Double(index) * 7)
            try await device.login(world)
            devices.append(device)
        }
        let days = (0..<6).map { day.adding(days: -$0) }
        let methods: [CalculationMethod] = [.ummAlQura, .muslimWorldLeague, .egyptian, .northAmerica, .karachi]
        let places: [(String, Double, Double, String)] = [
            ("Makkah", 21.4225, 39.8262, "Asia/Riyadh"), ("London", 51.5072, -0.1276, "Europe/London"),
            ("Jakarta", -6.2088, 106.8456, "Asia/Jakarta"),
        ]
        var failedCycles = 0
        var planned: [SyncCollection: Int] = [:]
        for _ in 0..<300 {
            let device = devices.randomElement(using: &random)!
            for other in devices { other.clock.advance(by: Double(Int.random(in: 1...90, using: &random))) }
            world.serverClock.advance(by: 30)
            switch Int.random(in: 0..<140, using: &random) {
            case 0..<40:
                let status = [PrayerStatus.prayed, .late, .missed, .qada].randomElement(using: &random)!
                let note = Bool.random(using: &random) ? "note \(Int.random(in: 0..<1000, using: &random))" : nil
                try device.log.record(
                    status, for: Prayer.obligatory.randomElement(using: &random)!,
                    on: days.randomElement(using: &random)!, note: note)
            case 40..<55:
                try device.log.delete(
                    [Prayer.obligatory.randomElement(using: &random)!], on: days.randomElement(using: &random)!)
            case 55..<65:
                let method = methods.randomElement(using: &random)!
                try device.preferences.update { try $0.set(method.rawValue, for: .method) }
            case 65..<70:
                let madhab = Madhab.allCases.randomElement(using: &random)!
                if Bool.random(using: &random) {
                    try device.preferences.update { try $0.set(madhab.rawValue, for: .madhab) }
                } else {
                    try device.preferences.update { $0.unset(.madhab) }
                }
            case 70..<75:
                let place = places.randomElement(using: &random)!
                try device.preferences.update { preferences in
                    try preferences.set(place.0, for: .placeName)
                    try preferences.set(String(place.1), for: .latitude)
                    try preferences.set(String(place.2), for: .longitude)
                    try preferences.set(place.3, for: .timeZone)
                }
            case 75..<85:
                device.network.setPartitioned(Bool.random(using: &random))
            case 85..<90:
                device.network.fail(Bool.random(using: &random) ? .loseAnswer : .loseRequest)
            case 100..<110:
                planned[.hijriStart, default: 0] += 1
                // An announced month start, or its removal, for one of three months.
                let month = try HijriMonthStarts.Month(year: 1448, month: Int.random(in: 8...10, using: &random))
                let start = HijriMonthStarts.tabularStart(of: month).adding(
                    days: Int.random(in: -1...1, using: &random))
                try device.preferences.update { preferences in
                    var starts = preferences.hijriMonthStarts
                    starts[month] = Bool.random(using: &random) ? start : nil
                    if starts.isEmpty {
                        preferences.unset(.hijriStarts)
                    } else {
                        try preferences.set(starts.description, for: .hijriStarts)
                    }
                }
            case 120..<130:
                planned[.qada, default: 0] += 1
                // A make-up recorded, an opening set, or a make-up removed.
                let prayer = Prayer.obligatory.randomElement(using: &random)!
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    try device.qada.save([
                        try QadaEntry(
                            id: QadaEntry.openingID(prayer), kind: .opening, prayer: prayer,
                            count: Int.random(in: 0...500, using: &random), date: day, source: "set",
                            recordedAt: device.clock.now())
                    ])
                case 1:
                    if let entry = try device.qada.entries().filter({ $0.kind == .madeUp }).randomElement(
                        using: &random)
                    {
                        try device.qada.remove(id: entry.id)
                    }
                default:
                    try device.qada.save([
                        try QadaEntry(
                            id: "made-up/" + SyncID.hex(count: 16, using: &random), kind: .madeUp, prayer: prayer,
                            count: Int.random(in: 1...3, using: &random), date: day, source: nil,
                            recordedAt: device.clock.now())
                    ])
                }
            case 130..<140:
                // A fast recorded or removed on one of the days.
                planned[.fast, default: 0] += 1
                let date = days.randomElement(using: &random)!
                if Int.random(in: 0..<4, using: &random) == 0 {
                    try device.fasts.delete(on: date)
                } else {
                    try device.fasts.record([
                        try FastEntry(
                            date: date, status: FastStatus.allCases.randomElement(using: &random)!,
                            recordedAt: device.clock.now(), note: Bool.random(using: &random) ? "travel" : nil)
                    ])
                }
            case 110..<120:
                planned[.mosque, default: 0] += 1
                // A mosque's timetable imported again (some of three months) or removed.
                let name = ["East London Mosque", "Masjid al-Noor"].randomElement(using: &random)!
                if Int.random(in: 0..<4, using: &random) == 0 {
                    try device.mosques.remove(named: name)
                } else {
                    let months = (0..<3).filter { _ in Bool.random(using: &random) }
                    let fajr = Int.random(in: 300...400, using: &random)
                    let days = months.flatMap { offset in
                        (0..<3).map { index in
                            MosqueDay(
                                date: CivilDate(daysSince1970: day.daysSince1970 + offset * 31 + index),
                                adhan: [.fajr: fajr, .dhuhr: 720], iqama: [.fajr: fajr + 15])
                        }
                    }
                    if !days.isEmpty {
                        try device.mosques.replace(
                            MosqueTimetable(
                                name: name, coordinates: try Coordinates(latitude: 51.5, longitude: -0.07),
                                timeZone: "Europe/London", days: days))
                    }
                }
            default:
                do { try await device.sync.syncNow() } catch { failedCycles += 1 }
            }
        }
        // Heal: every device joined, no faults left; two rounds of sync, each device in turn.
        for device in devices { device.network.heal() }
        for _ in 0..<2 {
            for device in devices {
                world.serverClock.advance(by: 1)
                try await device.sync.syncNow()
            }
        }
        let server = try world.serverRows()
        let expected = try devices[0].syncedRows()
        #expect(expected.keys.filter { $0.hasPrefix("log/") }.count > 10, "the plan left a log to compare")
        #expect([.hijriStart, .mosque, .qada, .fast].allSatisfy { planned[$0, default: 0] > 5 }, "\(planned)")
        for device in devices {
            #expect(try device.syncedRows() == expected, "device \(device.name), seed \(seed)")
            #expect(try device.sync.unsyncedCount() == 0, "device \(device.name), seed \(seed)")
        }
        // The server's live rows are the devices' rows: the same log keys with the same statuses and
        // notes, the same synced settings, the same place.
        var serverView: [String: String] = [:]
        for (key, row) in server where !row.deleted {
            guard let value = row.value else { continue }
            if let log = value.payload(as: SyncLogValue.self) {
                serverView[key] = "\(log.status)|\(PrayerLogEntry.timestamp(log.recordedAt))|\(log.note ?? "")"
            } else if let pref = value.payload(as: SyncPrefValue.self) {
                serverView[key] = pref.value
            } else if let place = value.payload(as: SyncPlaceValue.self) {
                serverView["place/\(place.name ?? "")"] = "\(place.latitude),\(place.longitude)"
            } else if let start = value.payload(as: SyncHijriStartValue.self) {
                serverView[key] = start.start.description
            } else {
                serverView[key] = try Device.text(value)
            }
        }
        let deviceView = expected.filter { !$0.key.hasPrefix("place/") }
        #expect(serverView.filter { !$0.key.hasPrefix("place/") } == deviceView, "seed \(seed)")
        let placeName = expected["place/\(Preferences.Key.placeName.rawValue)"]
        #expect(serverView.keys.filter { $0.hasPrefix("place/") } == (placeName.map { ["place/\($0)"] } ?? []))
        #expect(world.traffic.withLock { $0.lostAfter } > 0, "the plan lost answers after the server acted")
        #expect(failedCycles > 0, "some cycles ran into a partition or a lost answer")
    }

    // MARK: - Scheduler

    /// The scheduler (which `praykit notify` runs) pulls what another device pushed and pushes what
    /// this one records, without anyone asking; cancelling its task ends it.
    @Test(.timeLimit(.minutes(1))) func theSchedulerKeepsADeviceInSyncUntilCancelled() async throws {
        let world = try SyncWorld()
        let laptop = world.device("laptop")
        let phone = world.device("phone")
        try await laptop.login(world)
        try await phone.login(world)
        let scheduler = Task { await phone.sync.runScheduler() }
        // The laptop's entry reaches the phone at one of the scheduler's cycles.
        try laptop.log.record(.prayed, for: .fajr, on: day)
        try await laptop.sync.syncNow()
        for await entries in phone.log.entriesSequence(from: day, through: day) where !entries.isEmpty {
            #expect(entries.map(\.prayer) == [.fajr])
            break
        }
        // The phone's entry reaches the server a moment after it is recorded.
        try phone.log.record(.late, for: .dhuhr, on: day)
        for await status in phone.sync.status() where status.unsyncedCount == 0 && status.phase == .idle {
            if try world.serverRows()["log/2026-11-29/dhuhr"] != nil { break }
        }
        scheduler.cancel()
        await scheduler.value
        #expect(try world.serverRows()["log/2026-11-29/dhuhr"] != nil)
    }

    // MARK: - Observation

    @Test(.timeLimit(.minutes(1))) func theStatusAndTheLogSequencesYieldAfterASync() async throws {
        let world = try SyncWorld()
        let laptop = world.device("laptop")
        let phone = world.device("phone")
        try await laptop.login(world)
        try await phone.login(world)
        var statuses = phone.sync.status().makeAsyncIterator()
        var entries = phone.log.entriesSequence(from: day, through: day).makeAsyncIterator()
        let first = await statuses.next()
        #expect(first?.phase == .idle)
        #expect(await entries.next() == [])
        try laptop.log.record(.prayed, for: .fajr, on: day)
        try await laptop.sync.syncNow()
        // A minute on, so that the phone's status after its sync differs from the first: the stream
        // yields only a change, and at the fake clock's same instant the sync's end would be the first
        // status again, yielded only if a read happened to fall inside the sync (it hung 1 run in 40 on
        // two busy cores when none did).
        phone.clock.advance(by: 60)
        try await phone.sync.syncNow()
        // The pulled entry comes through the log's sequence, as a local write would.
        var seen: [PrayerLogEntry] = []
        while seen.isEmpty, let next = await entries.next() { seen = next }
        #expect(seen.map(\.prayer) == [.fajr])
        var last: SyncStatus?
        while let status = await statuses.next() {
            last = status
            if status.phase == .idle, let synced = status.lastSynced, synced > first?.lastSynced ?? .distantPast {
                break
            }
        }
        #expect(last?.unsyncedCount == 0)
    }
}

/// A network whose server is older than the client: every request gets 426.
private struct UpgradeRequiredNetwork: NetworkService {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = Data(#"{"error":"upgrade_required","message":"this server speaks schema 1"}"#.utf8)
        return HTTPResponse(status: 426, headers: [:], body: body, url: request.url, duration: 0)
    }
}
