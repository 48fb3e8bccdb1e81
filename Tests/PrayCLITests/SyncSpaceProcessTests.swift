import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

#if canImport(CCurl)
    /// Mosque spaces between real processes (SYNC.md §8): an owner publishes a timetable and its iqama
    /// through `praykit mosque`, a member and a screen that follows with a code see them in `times`
    /// after `sync now`; the server killed (SIGKILL) right after it committed an editor's push to the
    /// space loses nothing and applies it once; the screen's write is refused. Nothing here measures
    /// time: the processes are waited for.
    @Suite(.tags(.process, .binary, .server), .serialized, .needsMicroHTTPD) struct SyncSpaceProcessTests {
        static let timetable = """
            date,fajr,sunrise,dhuhr,asr,maghrib,isha,fajr_iqama,dhuhr_iqama,jumuah
            2026-12-04,06:10,07:50,11:55,13:40,15:52,17:40,06:40,13:00,12:30
            2026-12-05,06:11,07:51,11:55,13:40,15:52,17:40,06:40,13:00,

            """

        /// `praykit` as `home`, which must succeed.
        @discardableResult
        func run(_ home: Home, _ arguments: [String]) async throws -> String {
            let result = try await home.run(arguments)
            guard result.status == 0 else {
                throw TestFailure("\(home.name): praykit \(arguments.joined(separator: " ")): \(result.stderr)")
            }
            return result.stdout
        }

        /// The asr of the congregation table of `times` on 2026-12-05.
        func asrIqama(_ home: Home) async throws -> String? {
            let text = try await run(home, ["times", "--date", "2026-12-05"])
            let rows = text.split(separator: "\n").drop { !$0.hasPrefix("Congregation") }
            guard let header = rows.dropFirst().first, let row = rows.dropFirst(2).first else { return nil }
            let columns = header.split(separator: " ", omittingEmptySubsequences: true)
            let values = row.split(separator: " ", omittingEmptySubsequences: true)
            return columns.firstIndex(of: "Asr").flatMap { values.indices.contains($0) ? String(values[$0]) : nil }
        }

        /// An owner in London who imported the timetable and created the mosque space on `server`;
        /// what `mosque create` printed.
        func ownerWithMosque(on server: SyncServer) async throws -> (home: Home, created: String) {
            let owner = try Home("owner")
            let file = owner.folder.path("elm.csv")
            try Data(Self.timetable.utf8).write(to: URL(fileURLWithPath: file))
            try await run(owner, ["config", "set", "city", "London"])
            try await run(owner, ["timetable", "import", file, "--mosque", "East London Mosque"])
            try await owner.login(server)
            return (owner, try await run(owner, ["mosque", "create", "East London Mosque"]))
        }

        @Test func aMosquePublishesAndItsMemberAndScreenFollowThroughAServerKill() async throws {
            let server = try await SyncServer.start()
            defer { server.stop() }
            let (owner, created) = try await ownerWithMosque(on: server)
            #expect(created.contains("Its timetable (2 days) is published"))
            try await run(owner, ["mosque", "set", "East London Mosque", "--iqama", "asr=+10", "--jumuah", "12:30"])
            try await run(owner, ["config", "set", "mosque", "East London Mosque"])
            try await run(owner, ["sync", "now"])
            func code(_ role: String) async throws -> String {
                let text = try await run(owner, ["mosque", "invite", "East London Mosque", "--role", role])
                return try #require(text.firstMatch(of: /[A-Z0-9]{5}-[A-Z0-9]{5}/).map { String($0.output) })
            }
            // A member with an account, as an editor; a screen with no account, through the proxy.
            let phone = try Home("phone")
            try await run(phone, ["config", "set", "city", "London"])
            try await run(phone, ["sync", "login", "--server", server.url, "--code", try server.code(for: "bilal")])
            try await run(phone, ["mosque", "follow", try await code("editor")])
            try await run(phone, ["config", "set", "mosque", "East London Mosque"])
            let screen = try Home("screen")
            let followed = try await screen.run([
                "mosque", "follow", try await code("viewer"), "--server", server.url, "--device-name", "door",
            ])
            #expect(followed.status == 0, "\(followed.stderr)")
            #expect(followed.stdout.contains("it now uses the mosque's (Europe/London) and its times"))
            let screenAsr = try await asrIqama(screen)
            let phoneAsr = try await asrIqama(phone)
            #expect(screenAsr == "13:50" && phoneAsr == "13:50")
            // The editor moves asr's iqama; the server dies right after it committed that push, and the
            // phone's next sync after the restart is told it has it (the change applied once).
            try await server.restart(crashPoint: "server-push-committed")
            _ = try await phone.run(["mosque", "set", "East London Mosque", "--iqama", "asr=+15"])
            #expect(try await server.waitUntilKilled(), "the server was never sent the push")
            try await server.restart()
            try await run(phone, ["sync", "now"])
            let status = try await run(phone, ["sync", "status", "--format", "json"])
            let object = try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any]
            #expect(object?["unsynced"] as? Int == 0, "\(status)")
            try await run(screen, ["sync", "now"])
            try await run(owner, ["sync", "now"])
            let movedOnScreen = try await asrIqama(screen)
            let movedOnOwner = try await asrIqama(owner)
            #expect(movedOnScreen == "13:55" && movedOnOwner == "13:55")
            // The screen writes nothing: refused here, before anything is sent.
            let refused = try await screen.run(["mosque", "set", "East London Mosque", "--iqama", "asr=+30"])
            #expect(refused.status == 1 && refused.stderr.contains("as a viewer"))
        }

        @Test func anEditorsChangeStartsFromTheServersCopyOfTheSettings() async throws {
            let server = try await SyncServer.start()
            defer { server.stop() }
            let owner = try await ownerWithMosque(on: server).home
            try await run(owner, ["mosque", "set", "East London Mosque", "--iqama", "fajr=+20", "--jumuah", "12:30"])
            let invitation = try await run(owner, ["mosque", "invite", "East London Mosque", "--role", "editor"])
            let code = try #require(invitation.firstMatch(of: /[A-Z0-9]{5}-[A-Z0-9]{5}/).map { String($0.output) })
            let phone = try Home("phone")
            try await run(phone, ["config", "set", "city", "London"])
            try await run(phone, ["sync", "login", "--server", server.url, "--code", try server.code(for: "bilal")])
            try await run(phone, ["mosque", "follow", code])
            // The owner moves fajr's iqama; the editor's copy still says +20 when it changes Jumu'ah
            // alone, then announces a month's start (which leaves the settings as they are). The
            // settings are one record, written whole: each edit starts from the server's copy.
            try await run(owner, ["mosque", "set", "East London Mosque", "--iqama", "fajr=+25"])
            let moved = try await run(phone, ["mosque", "set", "East London Mosque", "--jumuah", "13:05"])
            #expect(moved.contains("fajr=+25"), "\(moved)")
            try await run(owner, ["mosque", "set", "East London Mosque", "--iqama", "fajr=+30"])
            try await run(phone, ["mosque", "set", "East London Mosque", "--hijri-start", "1448-09=2027-02-08"])
            try await run(owner, ["sync", "now"])
            let shown = try await run(owner, ["mosque", "show", "East London Mosque"])
            #expect(shown.contains("fajr=+30") && shown.contains("13:05"), "\(shown)")
            let conflicts = try await run(owner, ["sync", "conflicts"])
            #expect(conflicts.contains("No conflicts"), "\(conflicts)")
        }
    }
#endif
