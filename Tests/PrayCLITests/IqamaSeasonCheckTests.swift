import Foundation
import PrayCore
import PrayServices
import Testing

@testable import PrayCLI

/// Iqama saved as fixed clock times, checked against a year of London's times.
@Suite struct IqamaSeasonCheckTests {
    @Test func fixedIqamaOutsideItsPrayersTimeIsNamedWithTheFirstDay() throws {
        // Given: London's year from December; fajr at 06:00 (before December's adhan, after summer's
        // sunrise), dhuhr at 13:45 (past December's asr), asr ten minutes after its adhan
        let schedules = try JumuahSeasonCheckTests.londonYear()
        let settings = try IqamaSettings(parsing: "fajr=06:00,dhuhr=13:45,asr=+10")
        // When
        let findings = IqamaSeasonCheck.findings(settings, in: schedules)
        // Then: fajr both ways, dhuhr after asr in winter; asr's rule follows its adhan and is not checked
        #expect(findings.map(\.prayer) == [.fajr, .dhuhr])
        let fajr = try #require(findings.first)
        #expect(fajr.beforeAdhan > 0 && fajr.firstBeforeAdhan?.date.month == 12)
        #expect(fajr.afterEnd > 0 && fajr.firstAfterEnd.map { (3...9).contains($0.date.month) } == true)
        let dhuhr = try #require(findings.last)
        #expect(dhuhr.beforeAdhan == 0 && dhuhr.afterEnd > 0 && dhuhr.firstAfterEnd?.date.month == 12)
        let text = IqamaSeasonCheck.warning(findings)
        #expect(text.contains("Warning: fajr's iqama at 06:00 is before its adhan on"), "\(text)")
        #expect(text.contains("and at or after sunrise on"), "\(text)")
        #expect(text.contains("Warning: dhuhr's iqama at 13:45 is at or after asr on"), "\(text)")
        // A fixed time inside its prayer's time all year says nothing.
        let fine = try IqamaSettings(parsing: "dhuhr=13:15,isha=+15")
        #expect(IqamaSeasonCheck.warning(IqamaSeasonCheck.findings(fine, in: schedules)).isEmpty)
    }

    @Test func configSetIqamaWarnsOnceItIsSaved() async throws {
        // Given: London saved (the stores keep it between the runs of one dependency)
        let dependency = CLI.dependency()
        let saved = await CLI.run(["config", "set", "city", "London"], dependency: dependency)
        #expect(saved.status == 0, "\(saved.stderr)")
        // When: a fixed fajr iqama is saved (the clock's now is 2026-11-29)
        let result = await CLI.run(["config", "set", "iqama", "fajr=06:00"], dependency: dependency)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("iqama = fajr=06:00"))
        #expect(result.stderr.contains("fajr's iqama at 06:00 is"), "\(result.stderr)")
    }
}
