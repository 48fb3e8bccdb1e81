import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// The identity that tells a copied database from the one that logged in (SYNC.md §4): stable on a
/// machine without `/etc/machine-id` (Apple platforms, containers), never the host name.
@Suite final class MachineIdentityTests {
    /// The folders this test made, removed with it.
    private var folders: [URL] = []

    deinit {
        folders.forEach(TemporaryFolders.remove)
    }

    /// A new empty folder.
    func makeFolder(_ name: String) throws -> URL {
        let url = try TemporaryFolders.make("praykit-\(name)")
        folders.append(url)
        return url
    }

    @Test func withoutAMachineIDFileTheIdentityIsKeptAndOutlivesAHostNameChange() throws {
        // Given: no machine-id file at all, and a state folder of this test's
        let folder = try makeFolder("machine-identity")
        let environment = ["XDG_STATE_HOME": folder.path, "HOME": folder.path]
        // When: two processes (two calls) read the identity, the host name changing in between is
        // nothing it reads
        let first = SyncJournal.machineIdentity(environment: environment, systemFiles: [])
        let second = SyncJournal.machineIdentity(environment: environment, systemFiles: [])
        // Then: the same identity, kept in the state folder, private, and not the host name
        #expect(first == second && first.hasPrefix("kept:") && first.count == 37)
        #expect(!first.contains(SyncLogin.localHostName()))
        let path = folder.path + "/praykit/machine-id"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // and another state folder (another machine) gets another
        let other = try makeFolder("machine-identity-other")
        #expect(SyncJournal.machineIdentity(environment: ["XDG_STATE_HOME": other.path], systemFiles: []) != first)
    }

    @Test func theMachinesOwnFileWinsAndTheTestVariableWinsOverIt() throws {
        let folder = try makeFolder("machine-identity-files")
        let system = folder.appendingPathComponent("machine-id").path
        let test = folder.appendingPathComponent("test-id").path
        try "0123456789abcdef\n".write(toFile: system, atomically: true, encoding: .utf8)
        try "test-machine\nrest\n".write(toFile: test, atomically: true, encoding: .utf8)
        let state = ["XDG_STATE_HOME": folder.path]
        #expect(SyncJournal.machineIdentity(environment: state, systemFiles: [system]) == "0123456789abcdef")
        let environment = state.merging(["PRAYKIT_MACHINE_ID_FILE": test]) { $1 }
        #expect(SyncJournal.machineIdentity(environment: environment, systemFiles: [system]) == "test-machine")
    }
}
