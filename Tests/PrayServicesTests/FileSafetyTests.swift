import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

#if canImport(Glibc)
    import Glibc
#endif

/// The database and the log file are the user's alone: created 0600 from their first moment, and
/// never a link, another user's file, or a file in a folder others can write.
@Suite struct FileSafetyTests {
    /// A fresh folder (0755, this user's) for one test.
    final class Folder {
        let url: URL
        var path: String { url.path }

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-safety-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            chmod(url.path, 0o755)
        }

        deinit {
            chmod(url.path, 0o755)
            try? FileManager.default.removeItem(at: url)
        }

        func file(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    /// The permission bits of `path` (not following a link), or `nil` when there is no such file.
    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
    }

    /// The user another file belongs to in these tests: `nobody`.
    static let otherUser: uid_t = 65534

    func store(_ path: String) -> PreferencesStoreSQLite {
        PreferencesStoreSQLite(database: SQLiteDatabase(path: path, log: .silent), log: .silent)
    }

    func kind(of error: any Error) -> StorageError.Kind? { (error as? StorageError)?.kind }

    // MARK: - The database

    @Test func aNewDatabaseIsNeverReadableByOthersEvenWhenOpeningFails() throws {
        // Given: a folder where SQLite can create the database but not its journal, so that opening
        // fails right after the file is created (the moment it used to exist as 0644)
        let folder = try Folder()
        defer { withExtendedLifetime(folder) {} }
        let path = folder.file("praykit.sqlite")
        try FileManager.default.createDirectory(atPath: path + "-journal", withIntermediateDirectories: false)
        // When
        #expect(throws: StorageError.self) { try store(path).update { try $0.set("isna", for: .method) } }
        // Then: the file exists, and only its owner may read it
        #expect(Self.mode(path) == 0o600)
    }

    @Test func theDatabaseAndItsWALFilesAreTheUsersOnly() throws {
        let folder = try Folder()
        defer { withExtendedLifetime(folder) {} }
        let path = folder.file("praykit.sqlite")
        let database = SQLiteDatabase(path: path, log: .silent)
        let store = PreferencesStoreSQLite(database: database, log: .silent)
        try store.update { try $0.set("isna", for: .method) }
        // While the connection is open, the -wal and -shm files exist: all three are 0600.
        for suffix in ["", "-wal", "-shm"] { #expect(Self.mode(path + suffix) == 0o600, "\(suffix)") }
        // An existing database others can read is made private when opened.
        database.close()
        for suffix in ["", "-wal", "-shm"] where Self.mode(path + suffix) != nil { chmod(path + suffix, 0o644) }
        #expect(try self.store(path).preferences()[.method] == "north-america")
        for suffix in ["", "-wal", "-shm"] where Self.mode(path + suffix) != nil {
            #expect(Self.mode(path + suffix) == 0o600, "\(suffix)")
        }
    }

    @Test func aDatabaseThatIsASymbolicLinkIsRefusedAndLeftAlone() throws {
        // Given: a real database elsewhere, and a link to it where PrayKit looks
        let folder = try Folder()
        defer { withExtendedLifetime(folder) {} }
        let real = folder.file("real.sqlite")
        try store(real).update { try $0.set("isna", for: .method) }
        let link = folder.file("praykit.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        // When / Then
        #expect { try store(link).preferences() } throws: { kind(of: $0) == .insecure }
        #expect { try store(link).update { try $0.set("mwl", for: .method) } } throws: { error in
            kind(of: error) == .insecure && "\(error)".contains("symbolic link")
        }
        #expect(try store(real).preferences()[.method] == "north-america")
        // A dangling link is not followed to create a file either.
        let target = folder.file("planted-target")
        let dangling = folder.file("dangling.sqlite")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: target)
        #expect { try store(dangling).update { try $0.set("mwl", for: .method) } } throws: { kind(of: $0) == .insecure }
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test func anotherUsersDatabaseOrWALFileIsRefused() throws {
        // Given: a database that belongs to another user
        let folder = try Folder()
        defer { withExtendedLifetime(folder) {} }
        let path = folder.file("praykit.sqlite")
        try store(path).update { try $0.set("isna", for: .method) }
        #expect(chown(path, Self.otherUser, Self.otherUser) == 0)
        // When / Then: refused, and the file is as it was
        #expect { try store(path).preferences() } throws: { error in
            kind(of: error) == .insecure && "\(error)".contains("belongs to another user")
        }
        // A -wal file planted by another user next to the user's own database is refused too.
        #expect(chown(path, geteuid(), getegid()) == 0)
        let wal = path + "-wal"
        if Self.mode(wal) == nil { _ = FileManager.default.createFile(atPath: wal, contents: nil) }
        #expect(chown(wal, Self.otherUser, Self.otherUser) == 0)
        #expect { try store(path).preferences() } throws: { error in
            kind(of: error) == .insecure && "\(error)".contains("-wal")
        }
    }

    @Test func aFolderOthersCanWriteIsRefused() throws {
        for mode: mode_t in [0o777, 0o1777, 0o775] {
            let folder = try Folder()
            defer { withExtendedLifetime(folder) {} }
            chmod(folder.path, mode)
            #expect {
                try store(folder.file("praykit.sqlite")).update { try $0.set("isna", for: .method) }
            } throws: { error in
                kind(of: error) == .insecure && "\(error)".contains("other users can write")
            }
            #expect(!FileManager.default.fileExists(atPath: folder.file("praykit.sqlite")), "\(String(mode, radix: 8))")
        }
    }

    // MARK: - The log file

    @Test func theLogFileIsNeverALinkOrAnotherUsersAndIsMadePrivate() throws {
        let folder = try Folder()
        defer { withExtendedLifetime(folder) {} }
        // A symbolic link is refused, and its target not created
        let link = folder.file("link.log")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.file("target.log"))
        #expect { try LogServiceFile(path: link) } throws: { error in
            "\(error)".contains("symbolic link")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("target.log")))
        // Another user's file is refused
        let theirs = folder.file("theirs.log")
        _ = FileManager.default.createFile(atPath: theirs, contents: Data("their line\n".utf8))
        #expect(chown(theirs, Self.otherUser, Self.otherUser) == 0)
        #expect { try LogServiceFile(path: theirs) } throws: { error in
            "\(error)".contains("belongs to another user")
        }
        // The user's own file that others could read is made 0600
        let mine = folder.file("mine.log")
        _ = FileManager.default.createFile(atPath: mine, contents: nil, attributes: [.posixPermissions: 0o644])
        _ = try LogServiceFile(path: mine)
        #expect(Self.mode(mine) == 0o600)
    }
}
