import Foundation
import PrayCore
import PrayMocks
import Testing

/// `praykit mosque …` in-process, on a mock sync service and a fake store: what a person reads, what
/// is asked of sync, and what is refused before anything is sent. (Spaces end to end between devices:
/// SyncSpaceClientTests; the store's rules: the spaces cases of SyncStoreContract.)
@Suite struct MosqueCommandTests {
    let space = SyncSpaceInfo(
        space: SyncSpace(id: "s_0123456789abcdef", kind: .mosque, name: "East London Mosque", role: .owner),
        localName: "East London Mosque")

    func dependency(_ sync: SyncServiceMock, store: MosqueTimetableStoreFake = MosqueTimetableStoreFake())
        -> PrayDependencyMock
    {
        var dependency = CLI.dependency()
        dependency.sync = sync
        dependency.mosqueTimetableStore = store
        return dependency
    }

    @Test func listSaysTheRoleAndWhetherEachIsUpdated() async throws {
        let sync = SyncServiceMock.off()
        var gone = space
        gone.localName = "Masjid al-Noor"
        gone.space.role = .viewer
        gone.goneAt = CLI.now
        sync.onSpaces { [space, gone] in [space, gone] }
        let text = await CLI.run(["mosque", "list"], dependency: dependency(sync))
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("East London Mosque  owner   updated"))
        #expect(text.stdout.contains("Masjid al-Noor      viewer  no longer updated"))
        let json = await CLI.run(["mosque", "--format", "json"], dependency: dependency(sync))
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(items.map { $0["updated"] as? Bool } == [true, false])
        let none = await CLI.run(["mosque"], dependency: dependency(SyncServiceMock.off()))
        #expect(none.stdout.contains("follows no mosque"))
    }

    @Test func inviteChecksTheRoleAndLifetimeBeforeAsking() async throws {
        let sync = SyncServiceMock.off()
        sync.onInvite { mosque, role, lifetime in
            SyncInvitation(
                code: "ARJC8-Y67Y7", role: role, expiresAt: CLI.now.addingTimeInterval(lifetime), mosque: mosque)
        }
        let viewer = await CLI.run(
            ["mosque", "invite", "East London Mosque", "--role", "viewer", "--expires", "7d"],
            dependency: dependency(sync))
        #expect(viewer.status == 0, "\(viewer.stderr)")
        #expect(viewer.stdout.contains("Code for a viewer of East London Mosque: ARJC8-Y67Y7"))
        #expect(viewer.stdout.contains("praykit mosque follow ARJC8-Y67Y7 --server"))
        #expect(sync.inviteCalls.map(\.2) == [7 * 86_400])
        for bad in [
            ["--role", "owner"], ["--role", "editor", "--expires", "5m"], ["--role", "viewer", "--expires", "8d"],
        ] {
            let refused = await CLI.run(["mosque", "invite", "East London Mosque"] + bad, dependency: dependency(sync))
            #expect(refused.status == 64, "\(bad): \(refused.stderr)")
        }
        #expect(sync.inviteCalls.count == 1)
    }

    @Test func setKeepsWhatIsNotGivenAndRefusesWhatTheRulesDo() async throws {
        let store = MosqueTimetableStoreFake()
        try store.setSettings(
            SyncMosqueSettingsValue(latitude: 51.5176, longitude: -0.0654, timeZone: "Europe/London", jumuah: [780]),
            of: "East London Mosque")
        let sync = SyncServiceMock.off()
        let set = await CLI.run(
            [
                "mosque", "set", "East London Mosque", "--iqama", "fajr=+20,dhuhr=13:30", "--eid",
                "1448-10-01=2027-03-10@07:30+09:00",
            ], dependency: dependency(sync, store: store))
        #expect(set.status == 0, "\(set.stderr)")
        let settings = try #require(store.settings(of: "East London Mosque"))
        #expect(settings.iqama == ["fajr": "+20", "dhuhr": "13:30"] && settings.jumuah == [780])
        let eid = try CivilDate(parsing: "2027-03-10")
        #expect(settings.eid.first?.prayers == [450, 540] && settings.eid.first?.date == eid)
        for bad in [
            ["--jumuah", "12:30,13:00,13:30,14:00"], ["--iqama", "asr=-5"], ["--eid", "1448-09-01=2027-02-09@08:00"],
            ["--iqama", "sunrise=+5"], ["--eid", "1448-10-01=2027-06-10@08:00"],  // Shawwal is in March
        ] {
            let refused = await CLI.run(
                ["mosque", "set", "East London Mosque"] + bad, dependency: dependency(sync, store: store))
            #expect(refused.status != 0 && !refused.stderr.isEmpty, "\(bad)")
        }
        #expect(store.settings(of: "East London Mosque") == settings)
    }

    @Test func theChosenMosquesAnnouncedStartMovesTheHijriDatesOfEveryCommand() async throws {
        // Given: a person in London who chose the East London Mosque, which follows Umm al-Qura
        // (1 Ramadan 1448 on 2027-02-08 there)
        let store = MosqueTimetableStoreFake()
        var saved = Preferences()
        for (key, value) in [
            (Preferences.Key.latitude, "51.5176"), (.longitude, "-0.0654"), (.timeZone, "Europe/London"),
        ] {
            try saved.set(value, for: key)
        }
        var dependency = dependency(SyncServiceMock.off(), store: store)
        dependency.preferenceStore = PreferencesStoreFake(saved)
        let set = await CLI.run(
            ["mosque", "set", "East London Mosque", "--hijri-start", "1448-09=2027-02-07"], dependency: dependency)
        #expect(set.status == 0 && set.stdout.contains("Announced month starts: 1448-09 2027-02-07."), "\(set.stderr)")
        let before = await CLI.run(["hijri", "--date", "2027-02-07", "--days", "1"], dependency: dependency)
        #expect(before.stdout.contains("30 Sha'ban 1448"), "\(before.stdout)")
        // When: the mosque is chosen
        let chosen = await CLI.run(["config", "set", "mosque", "East London Mosque"], dependency: dependency)
        #expect(chosen.status == 0, "\(chosen.stderr)")
        // Then: `hijri`, `times` and `mosque show` count Ramadan from the mosque's day
        let hijri = await CLI.run(["hijri", "--date", "2027-02-07", "--days", "1"], dependency: dependency)
        #expect(hijri.stdout.contains("1 Ramadan 1448"), "\(hijri.stdout)")
        #expect(hijri.stdout.contains("(as East London Mosque follows it)"), "\(hijri.stdout)")
        // Another calendar chosen for one command is not the mosque's, and is not said to be.
        let civil = await CLI.run(
            ["hijri", "--date", "2027-02-07", "--days", "1", "--calendar", "civil"], dependency: dependency)
        #expect(civil.stdout.hasPrefix("Calendar: tabular (civil)") && !civil.stdout.contains("follows it"))
        let times = await CLI.run(["times", "--date", "2027-02-07", "--format", "json"], dependency: dependency)
        #expect(
            times.stdout.contains("\"hijri\" : \"1448-09-01\"") || times.stdout.contains("\"hijri\": \"1448-09-01\""))
        let show = await CLI.run(["mosque", "show", "East London Mosque"], dependency: dependency)
        #expect(show.stdout.contains("Ramadan 1448 starts 2027-02-07, as announced"), "\(show.stdout)")
        // A start no calendar allows, an offset out of range and a month that does not read are refused.
        for bad in [
            ["--hijri-start", "1448-09=2027-06-01"], ["--hijri-offset", "3"], ["--hijri-start", "1448-13=x"],
        ] {
            let refused = await CLI.run(["mosque", "set", "East London Mosque"] + bad, dependency: dependency)
            #expect(refused.status == 64 && !refused.stderr.isEmpty, "\(bad): \(refused.stderr)")
        }
        // Taken back, the calendar's own day counts again.
        _ = await CLI.run(
            ["mosque", "set", "East London Mosque", "--hijri-start", "1448-09=none"], dependency: dependency)
        let after = await CLI.run(["hijri", "--date", "2027-02-07", "--days", "1"], dependency: dependency)
        #expect(after.stdout.contains("30 Sha'ban 1448"), "\(after.stdout)")
    }

    @Test func noticesAreAddedListedAndRemovedAsText() async throws {
        let store = MosqueTimetableStoreFake()
        let sync = SyncServiceMock.off()
        let added = await CLI.run(
            [
                "mosque", "notice", "add", "East London Mosque", "--title", "Janazah after Dhuhr", "--text",
                "<script>alert(1)</script>", "--priority", "urgent", "--id", "janazah",
            ], dependency: dependency(sync, store: store))
        #expect(added.status == 0, "\(added.stderr)")
        #expect(store.notices(of: "East London Mosque").map(\.notice.text) == ["<script>alert(1)</script>"])
        let listed = await CLI.run(
            ["mosque", "notice", "East London Mosque"], dependency: dependency(sync, store: store))
        #expect(listed.stdout.contains("janazah  urgent") && listed.stdout.contains("Janazah after Dhuhr"))
        let big = await CLI.run(
            [
                "mosque", "notice", "add", "East London Mosque", "--title", "Big", "--text",
                String(repeating: "x", count: 5_000),
            ],
            dependency: dependency(sync, store: store))
        #expect(big.status != 0 && big.stderr.contains("4096"))
        let removed = await CLI.run(
            ["mosque", "notice", "remove", "East London Mosque", "janazah"], dependency: dependency(sync, store: store))
        #expect(removed.status == 0 && store.notices(of: "East London Mosque").isEmpty)
    }

    @Test func followJoinsWhenLoggedInAndLeaveKeepsTheCopyUnlessDropped() async throws {
        let sync = SyncServiceMock.off()
        sync.onJoin { [space] _ in space }
        sync.onLeave { _, _ in }
        let followed = await CLI.run(["mosque", "follow", "ARJC8-Y67Y7"], dependency: dependency(sync))
        #expect(followed.status == 0, "\(followed.stderr)")
        #expect(followed.stdout.contains("Following East London Mosque as an owner."))
        let left = await CLI.run(["mosque", "leave", "East London Mosque"], dependency: dependency(sync))
        #expect(left.stdout.contains("stays here as your own mosque"))
        let dropped = await CLI.run(["mosque", "leave", "East London Mosque", "--drop"], dependency: dependency(sync))
        #expect(dropped.stdout.contains("removed from this device"))
        #expect(sync.leaveCalls.map(\.1) == [true, false])
        let notAMember = SyncServiceMock.off()
        notAMember.onMembers { name in
            throw SyncError(.notAMember, message: "this device follows no mosque named \(name)")
        }
        let members = await CLI.run(["mosque", "members", "Elsewhere"], dependency: dependency(notAMember))
        #expect(members.status == 1 && members.stderr.contains("follows no mosque named Elsewhere"))
    }

    @Test func aRefusedCodeSaysWhoMakesAMosquesCode() async throws {
        let sync = SyncServiceMock.off()
        sync.onJoin { _ in
            throw SyncError(.pairingRefused, message: "the invitation code is wrong, expired or already used")
        }
        let refused = await CLI.run(["mosque", "follow", "SAARU-YCZWB"], dependency: dependency(sync))
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("'praykit mosque invite NAME --role viewer'"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("serve sync pair"), "\(refused.stderr)")
    }
}
