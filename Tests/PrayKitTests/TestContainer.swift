import Foundation
import PrayKit
import PrayMocks

/// The process-wide configuration of the real container in these tests: a throwaway database and
/// an in-memory log. Every test that touches `PrayDependency` reads ``configured`` first, so the
/// container never opens the developer's own database.
enum TestContainer {
    /// The log the container writes to.
    static let log = LogServiceMemory()
    /// The database file, in a fresh temporary folder removed when the process exits.
    static let databasePath = TemporaryFolders.path("praykit-container") + "/praykit.sqlite"

    /// Configures the container once, with the README's `configurePrayKit`; read it before using
    /// `PrayDependency`. A refused configuration stops the run: every later result would be wrong.
    static let configured: Void = {
        do {
            try configurePrayKit(databasePath: databasePath, logDestinations: [.service(name: "memory", log)])
        } catch {
            preconditionFailure("the test container's configuration was refused: \(error)")
        }
    }()
}
