import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayServer

/// Mosque spaces end to end between devices (SYNC.md §8): an owner publishes a timetable, an editor and
/// a follow-code screen follow it; roles, removal (I14) and conflicts (I15) as a person meets them.
@Suite struct SyncSpaceClientTests {
    /// 2026-11-29.
    let day = CivilDate(daysSince1970: 20_786)

    /// The owner's device, logged in, with the mosque's timetable imported and published.
    func publishedMosque(_ world: SyncWorld) async throws -> (owner: Device, space: SyncSpaceInfo) {
        let owner = world.device("laptop")
        let days = [day, day.adding(days: 1), day.adding(days: 3)].map { date in
            MosqueDay(date: date, adhan: [.fajr: 370, .dhuhr: 720, .asr: 840], iqama: [.fajr: 390], jumuah: [780])
        }
        try owner.mosques.replace(
            MosqueTimetable(
                name: "East London Mosque", coordinates: try Coordinates(latitude: 51.5176, longitude: -0.0654),
                timeZone: "Europe/London", days: days))
        try await owner.login(world)
        let space = try await owner.sync.createMosque(named: "East London Mosque")
        var settings = SyncMosqueSettingsValue(latitude: 51.5176, longitude: -0.0654, timeZone: "Europe/London")
        settings.iqama = ["asr": "+10"]
        settings.jumuah = [780, 840]
        try owner.mosques.setSettings(settings, of: "East London Mosque")
        try owner.mosques.putNotice(
            MosqueNotice(
                id: "janazah",
                notice: SyncNoticeValue(
                    title: "Janazah after Dhuhr", text: "<b>Brother Yusuf</b>", start: SyncWorld.start,
                    end: SyncWorld.start.addingTimeInterval(86_400), priority: .urgent)),
            of: "East London Mosque")
        try await owner.sync.syncNow()
        return (owner, space)
    }

    /// A phone of another user, bilal, who joined the owner's mosque as an editor.
    func editor(_ world: SyncWorld, invitedBy owner: Device) async throws -> Device {
        let phone = world.device("phone")
        try await phone.login(world, user: "bilal")
        _ = try await phone.sync.join(
            code: try await owner.sync.invite(to: "East London Mosque", role: .editor, expiresIn: 3_600).code)
        return phone
    }

    @Test func aPublishedMosqueReachesAnEditorAndAScreenAndOnlyTheEditorWrites() async throws {
        let world = try SyncWorld()
        let (owner, space) = try await publishedMosque(world)
        #expect(space.space.role == .owner && space.localName == "East London Mosque")
        // The months left the owner's own data for the space: the person's rows hold none.
        let personal = try world.serverRows()
        #expect(personal.filter { $0.key.hasPrefix("mosque/") }.allSatisfy { $0.value.deleted })
        // An editor joins with a code; a screen follows with a viewer's code and no account.
        let phone = world.device("phone")
        try await phone.login(world, user: "bilal")
        let editorCode = try await owner.sync.invite(to: "East London Mosque", role: .editor, expiresIn: 3_600)
        let joined = try await phone.sync.join(code: editorCode.code)
        #expect(joined.space.role == .editor && joined.localName == "East London Mosque")
        let screen = world.device("screen")
        let viewerCode = try await owner.sync.invite(to: "East London Mosque", role: .viewer, expiresIn: 86_400)
        try await screen.sync.login(SyncLogin(server: SyncWorld.serverURL, code: viewerCode.code, deviceName: "door"))
        for device in [phone, screen] {
            let timetable = try device.mosques.timetable(
                named: "East London Mosque", from: day, through: day.adding(days: 5))
            #expect(timetable?.days.count == 3)
            #expect(try device.mosques.settings(of: "East London Mosque")?.iqama == ["asr": "+10"])
            #expect(try device.mosques.notices(of: "East London Mosque").map(\.notice.text) == ["<b>Brother Yusuf</b>"])
        }
        #expect(try screen.sync.spaces().map(\.space.role) == [.viewer])
        // The editor changes iqama; everyone has it after a sync. The screen cannot write.
        var settings = try #require(try phone.mosques.settings(of: "East London Mosque"))
        settings.iqama["asr"] = "+15"
        try phone.mosques.setSettings(settings, of: "East London Mosque")
        try await phone.sync.syncNow()
        try await screen.sync.syncNow()
        try await owner.sync.syncNow()
        for device in [owner, screen] {
            #expect(try device.mosques.settings(of: "East London Mosque")?.iqama["asr"] == "+15")
        }
        #expect {
            try screen.mosques.setSettings(settings, of: "East London Mosque")
        } throws: { ($0 as? SyncError)?.kind == .readOnly }
        #expect(try screen.sync.unsyncedCount() == 0)
        // A screen's own log entries are not journaled: it has no data of its own on the server.
        try screen.log.record(.prayed, for: .fajr, on: day)
        #expect(try screen.sync.unsyncedCount() == 0)
    }

    @Test func aMonthStartTheMosqueAnnouncesMovesItsFollowersHijriDates() async throws {
        let world = try SyncWorld()
        let (owner, _) = try await publishedMosque(world)
        let screen = world.device("screen")
        let code = try await owner.sync.invite(to: "East London Mosque", role: .viewer, expiresIn: 86_400)
        try await screen.sync.login(SyncLogin(server: SyncWorld.serverURL, code: code.code, deviceName: "door"))
        _ = try screen.preferences.update { try $0.set("East London Mosque", for: .mosque) }
        // On Umm al-Qura 1 Ramadan 1448 is 2027-02-08; the mosque announces the 7th.
        let ramadan = try HijriMonthStarts.Month(parsing: "1448-09")
        let announced = try CivilDate(parsing: "2027-02-07")
        let calendar = try HijriCalendarChoice(saved: screen.preferences.preferences(), mosques: screen.mosques)
        #expect(calendar.mosque == "East London Mosque" && calendar.starts.isEmpty)
        try owner.mosques.setHijriMonthStart(announced, for: ramadan, of: "East London Mosque")
        try await owner.sync.syncNow()
        try await screen.sync.syncNow()
        // The screen follows it: its chosen mosque's start counts, beside the calendar of its settings.
        #expect(try screen.mosques.hijriMonthStarts(of: "East London Mosque")[ramadan] == announced)
        let choice = try HijriCalendarChoice(saved: screen.preferences.preferences(), mosques: screen.mosques)
        #expect(choice.mosque == "East London Mosque" && choice.starts[ramadan] == announced)
        let hijri = HijriServiceUmmAlQura(prayerService: PrayerServiceAstronomical(log: .silent), log: .silent)
        let first = try hijri.following(choice.starts).days(
            for: HijriAPI.Request(date: announced, calendar: choice.calendar, offset: choice.offset))
        #expect(first.first?.hijri.description == "1448-09-01")
        // A viewer cannot announce one; the owner can take it back, and the screen hears that too.
        #expect {
            try screen.mosques.setHijriMonthStart(announced.adding(days: 1), for: ramadan, of: "East London Mosque")
        } throws: { ($0 as? SyncError)?.kind == .readOnly }
        try owner.mosques.setHijriMonthStart(nil, for: ramadan, of: "East London Mosque")
        try await owner.sync.syncNow()
        try await screen.sync.syncNow()
        #expect(try screen.mosques.hijriMonthStarts(of: "East London Mosque").isEmpty)
    }

    @Test(.timeLimit(.minutes(2))) func aFollowersMosqueSequenceYieldsWhatASyncBrings() async throws {
        let world = try SyncWorld()
        let (owner, _) = try await publishedMosque(world)
        let screen = world.device("screen")
        let code = try await owner.sync.invite(to: "East London Mosque", role: .viewer, expiresIn: 86_400)
        try await screen.sync.login(SyncLogin(server: SyncWorld.serverURL, code: code.code, deviceName: "door"))
        var updates = screen.mosques.mosqueSequence(named: "East London Mosque").makeAsyncIterator()
        let first = try #require(await updates.next())
        #expect(first.notices.map(\.id) == ["janazah"] && first.settings?.iqama == ["asr": "+10"])
        #expect(first.timetable?.days == 3)
        // The owner moves Asr's iqama and adds a notice; the screen's sync brings both, and the
        // sequence yields them without being asked.
        var settings = try #require(try owner.mosques.settings(of: "East London Mosque"))
        settings.iqama["asr"] = "+15"
        try owner.mosques.setSettings(settings, of: "East London Mosque")
        try owner.mosques.putNotice(
            MosqueNotice(
                id: "eid",
                notice: SyncNoticeValue(
                    title: "Eid prayer at 07:30", text: "", start: SyncWorld.start,
                    end: SyncWorld.start.addingTimeInterval(86_400))),
            of: "East London Mosque")
        try await owner.sync.syncNow()
        try await screen.sync.syncNow()
        var latest = first
        while latest.notices.count < 2 || latest.settings?.iqama["asr"] != "+15" {
            latest = try #require(await updates.next())
        }
        #expect(latest.notices.map(\.id).sorted() == ["eid", "janazah"])
    }

    @Test func twoOfflineEditorsMakeOneVisibleConflict() async throws {
        let world = try SyncWorld()
        let (owner, _) = try await publishedMosque(world)
        let phone = try await editor(world, invitedBy: owner)
        var mine = try #require(try owner.mosques.settings(of: "East London Mosque"))
        mine.iqama["asr"] = "+20"
        try owner.mosques.setSettings(mine, of: "East London Mosque")
        phone.clock.advance(by: 5)
        var theirs = mine
        theirs.iqama["asr"] = "+25"
        try phone.mosques.setSettings(theirs, of: "East London Mosque")
        try await phone.sync.syncNow()
        try await owner.sync.syncNow()
        try await phone.sync.syncNow()
        // One wins everywhere (the later stamp); the other's value is in the conflicts list.
        for device in [owner, phone] {
            #expect(try device.mosques.settings(of: "East London Mosque")?.iqama["asr"] == "+25")
        }
        let conflicts = try owner.sync.conflicts()
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.localValue?.payload(as: SyncMosqueSettingsValue.self)?.iqama["asr"] == "+20")
    }

    @Test func aBackupRestoredOnAFollowerKeepsItsOwnMosquesDetailsAndLeavesTheSpacesAlone() async throws {
        // Given a screen that follows the mosque, and a backup from a device without sync that holds
        // other details for a mosque of the same name and for a mosque of its own
        let world = try SyncWorld()
        let (owner, _) = try await publishedMosque(world)
        let screen = world.device("screen")
        let code = try await owner.sync.invite(to: "East London Mosque", role: .viewer, expiresIn: 86_400)
        try await screen.sync.login(SyncLogin(server: SyncWorld.serverURL, code: code.code, deviceName: "door"))
        let spaceSettings = try screen.mosques.settings(of: "East London Mosque")
        let other = world.device("old-phone")
        var stale = try #require(spaceSettings)
        stale.iqama["asr"] = "+45"
        try other.mosques.setSettings(stale, of: "East London Mosque")
        try other.mosques.setSettings(stale, of: "Masjid an-Nur")
        let backup = try UserData.decoded(from: try other.backup.exportData().encoded())
        #expect(backup.mosqueDetails?.map(\.name) == ["East London Mosque", "Masjid an-Nur"])
        // When the screen imports it
        try screen.backup.importData(backup)
        // Then the followed mosque is as its space gave it, the mosque of its own as the backup has it,
        // and nothing of either was queued for the space.
        #expect(try screen.mosques.settings(of: "East London Mosque") == spaceSettings)
        #expect(try screen.mosques.notices(of: "East London Mosque").map(\.id) == ["janazah"])
        let timetable = try screen.mosques.timetable(
            named: "East London Mosque", from: day, through: day.adding(days: 5))
        #expect(timetable?.days.count == 3)
        #expect(try screen.mosques.settings(of: "Masjid an-Nur")?.iqama["asr"] == "+45")
        #expect(try screen.sync.unsyncedCount() == 0)
        // An editor's import sends the space nothing either: no month deleted, no settings replaced.
        let phone = try await editor(world, invitedBy: owner)
        try phone.backup.importData(backup)
        try await phone.sync.syncNow()
        try await owner.sync.syncNow()
        #expect(try owner.mosques.settings(of: "East London Mosque") == spaceSettings)
        let kept = try owner.mosques.timetable(named: "East London Mosque", from: day, through: day.adding(days: 5))
        #expect(kept?.days.count == 3)
    }

    @Test func aSpaceDeletedWhileAnEditorWasOfflineRefusesItsChangeAndKeepsTheRest() async throws {
        // Given an editor who, offline, changes the mosque's iqama and records a prayer of their own
        let world = try SyncWorld()
        let (owner, _) = try await publishedMosque(world)
        let phone = try await editor(world, invitedBy: owner)
        var settings = try #require(try phone.mosques.settings(of: "East London Mosque"))
        settings.iqama["asr"] = "+30"
        try phone.mosques.setSettings(settings, of: "East London Mosque")
        try phone.log.record(.prayed, for: .fajr, on: day)
        #expect(try phone.sync.unsyncedCount() == 2)
        // When the owner deletes the space before the phone syncs
        try await owner.sync.deleteMosque("East London Mosque")
        let report = try await phone.sync.syncNow()
        // Then the phone is told the mosque is no longer updated and keeps its copy with its change;
        // the change for the space is refused, visible in the failed list, never silently gone; the
        // prayer of its own reached the server.
        #expect(report.gone == ["East London Mosque"])
        #expect(try phone.mosques.settings(of: "East London Mosque")?.iqama["asr"] == "+30")
        #expect(try phone.sync.unsyncedCount() == 0)
        let failed = try phone.sync.failedChanges()
        #expect(failed.count == 1 && failed.first?.collection == .mosqueSettings, "\(failed)")
        #expect(try world.serverRows(user: "bilal").keys.contains { $0.hasPrefix("log/") })
    }

    @Test func aRemovedMemberKeepsTheCopyAndIsToldOnce() async throws {
        let world = try SyncWorld()
        let (owner, _) = try await publishedMosque(world)
        let phone = try await editor(world, invitedBy: owner)
        #expect(try await owner.sync.members(of: "East London Mosque").map(\.user) == ["amina", "bilal"])
        try await owner.sync.removeMember("bilal", from: "East London Mosque")
        let report = try await phone.sync.syncNow()
        #expect(report.gone == ["East London Mosque"])
        #expect(try phone.sync.currentStatus().spacesNoLongerUpdated == ["East London Mosque"])
        #expect(try phone.sync.spaces().first?.isGone == true)
        // The copy stays; the next cycle says nothing more.
        #expect(try phone.mosques.timetable(named: "East London Mosque", from: day, through: day)?.days.count == 1)
        #expect(try await phone.sync.syncNow().gone.isEmpty)
        // Kept as the person's own: it syncs as their data now.
        try await phone.sync.leave("East London Mosque", keepCopy: true)
        #expect(try phone.sync.spaces().isEmpty)
        try await phone.sync.syncNow()
        #expect(try world.serverRows(user: "bilal")["mosque/East London Mosque/2026-11"]?.deleted == false)
        // A deleted space: the owner keeps the copy as their own, too.
        try await owner.sync.deleteMosque("East London Mosque")
        #expect(try owner.sync.spaces().isEmpty)
        #expect(try owner.mosques.timetable(named: "East London Mosque", from: day, through: day)?.days.count == 1)
    }
}
