import Foundation
import PrayCore
import Testing

@testable import PrayServer

/// The keys of the published pages' cache: one answer per space version, page, query and quarter hour.
@Suite struct PageCacheTests {
    let space = SyncPublishedSpace(id: "s1", name: "East London Mosque", slug: "elm", version: 7, rows: [])
    let now = Date(timeIntervalSince1970: 1_796_042_096)

    @Test func aValueThatSpellsAnotherParameterIsNotThatParameter() {
        let smuggled = PageCache.key(
            space: space, page: "month.json", query: ["lang": "ar&month=2027-02"], now: now)
        let two = PageCache.key(
            space: space, page: "month.json", query: ["lang": "ar", "month": "2027-02"], now: now)
        #expect(smuggled != two)
    }

    @Test func theSameQueryInAnyOrderIsOneKeyAndAnotherVersionOrQuarterAnother() {
        let key = PageCache.key(space: space, page: "month.json", query: ["month": "2027-02", "lang": "ar"], now: now)
        #expect(
            key == PageCache.key(space: space, page: "month.json", query: ["lang": "ar", "month": "2027-02"], now: now))
        let newer = SyncPublishedSpace(id: "s1", name: "East London Mosque", slug: "elm", version: 8, rows: [])
        #expect(
            key != PageCache.key(space: newer, page: "month.json", query: ["month": "2027-02", "lang": "ar"], now: now))
        #expect(
            key
                != PageCache.key(
                    space: space, page: "month.json", query: ["month": "2027-02", "lang": "ar"],
                    now: now.addingTimeInterval(900)))
    }
}
