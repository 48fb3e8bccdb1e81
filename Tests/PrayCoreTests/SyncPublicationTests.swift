import Foundation
import PrayCore
import Testing

/// The rules of a published mosque's slug, the last word of its pages' address.
@Suite struct SyncPublicationTests {
    @Test func aSlugIsThreeToSixtyLowerCaseLettersDigitsAndSingleHyphens() {
        for good in ["elm", "east-london-mosque", "masjid-2", "123", String(repeating: "a", count: 60)] {
            #expect((try? SyncRules.checkSlug(good)) != nil, "\(good)")
        }
        for bad in [
            "", "el", "East", "east london", "east--london", "-elm", "elm-", "élm", "el_m", "elm/x", "elm.json",
            String(repeating: "a", count: 61), "مسجد",
        ] {
            #expect(throws: ValidationError.self, "\(bad)") { try SyncRules.checkSlug(bad) }
        }
    }

    @Test func theDefaultSlugIsTheNameWithoutAccentsCutAtAWord() {
        #expect(SyncRules.defaultSlug(name: "East London Mosque", space: "s_0") == "east-london-mosque")
        #expect(SyncRules.defaultSlug(name: "Masjid al-Aqṣā (Jerusalem)", space: "s_0") == "masjid-al-aqsa-jerusalem")
        #expect(SyncRules.defaultSlug(name: "  Ümraniye   Camii!! ", space: "s_0") == "umraniye-camii")
        let long = SyncRules.defaultSlug(name: String(repeating: "Masjid ", count: 20), space: "s_0")
        #expect(long.count <= 60 && !long.hasSuffix("-") && long.hasPrefix("masjid-masjid"))
        // A name without Latin letters: the same slug for the same space, another for another.
        let first = SyncRules.defaultSlug(name: "مسجد النور", space: "s_0123456789abcdef")
        #expect(first.wholeMatch(of: /mosque-[0-9a-f]{6}/) != nil)
        #expect(SyncRules.defaultSlug(name: "مسجد النور", space: "s_0123456789abcdef") == first)
        #expect(SyncRules.defaultSlug(name: "مسجد النور", space: "s_fedcba9876543210") != first)
        for name in ["East London Mosque", "مسجد", "a", "Ab", String(repeating: "x", count: 200)] {
            #expect((try? SyncRules.checkSlug(SyncRules.defaultSlug(name: name, space: "s_1"))) != nil, "\(name)")
        }
    }

    @Test func aPublicationNamesItsPages() {
        let publication = SyncAPI.Publication(space: "s_0123456789abcdef", slug: "elm")
        #expect(publication.paths.map(\.path) == ["/m/elm/display", "/m/elm/month", "/m/elm.json", "/m/elm.ics"])
    }
}
