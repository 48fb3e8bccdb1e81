import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// A backup's mosque details read from the database: damage is said, never left out unseen.
@Suite struct MosqueSpaceRowsExportTests {
    @Test func aDamagedRowOfAMosqueStopsTheExportSayingWhichRow() throws {
        // Given a mosque's notice whose stored JSON no longer reads (a damaged file)
        let test = try TestDatabase()
        let mosques = MosqueTimetableStoreSQLite(database: test.database, log: .silent)
        let start = Date(timeIntervalSince1970: 1_795_953_600)
        let notice = SyncNoticeValue(title: "Class", text: "After isha", start: start, end: start + 3_600)
        try mosques.putNotice(MosqueNotice(id: "class", notice: notice), of: "East London Mosque")
        _ = try #require(try test.backup.exportData().mosqueDetails?.first)
        try test.database.write { try $0.execute("UPDATE mosque_space_rows SET value = '{\"title\":' ") }
        // When exported, then the export fails naming the mosque and the row
        #expect {
            try test.backup.exportData()
        } throws: { error in
            (error as? StorageError)?.kind == .invalidData && "\(error)".contains("class")
                && "\(error)".contains("East London Mosque")
        }
    }
}
