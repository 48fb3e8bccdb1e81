import Foundation
import PrayCore
import PrayServer
import Testing

/// The server's rules that every store shares: the shape of tokens, codes and cursors, and where a
/// page ends.
@Suite struct SyncServerRulesTests {
    @Test func tokensAre256RandomBitsInBase64URL() {
        // Given
        var random = SystemRandomNumberGenerator()
        let tokens = (0..<100).map { _ in SyncServerRules.newToken(using: &random) }
        // Then: pkd_ and 43 characters of 32 bytes, all different, each with its lookup prefix
        #expect(Set(tokens).count == 100)
        for token in tokens {
            #expect(token.hasPrefix("pkd_") && token.count == 47)
            #expect(Base64URL.decode(String(token.dropFirst(4)))?.count == 32)
            #expect(SyncServerRules.tokenLookup(token) == String(token.dropFirst(4).prefix(8)))
        }
        // Anything else has no lookup
        let token = tokens[0]
        for bad in [
            "", "pkd_", token + "A", String(token.dropLast()), "pkx_" + token.dropFirst(4),
            token.replacingOccurrences(of: "pkd_", with: "PKD_"),
        ] {
            #expect(SyncServerRules.tokenLookup(bad) == nil, "\(bad)")
        }
    }

    @Test func pairingCodesHave50BitsWithoutLookAlikes() {
        var random = SystemRandomNumberGenerator()
        let codes = (0..<200).map { _ in SyncServerRules.newPairingCode(using: &random) }
        #expect(Set(codes).count == 200)
        for code in codes {
            #expect(code.count == 11 && Array(code)[5] == "-")
            #expect(!code.contains { "01IO".contains($0) })
            #expect(SyncServerRules.normalizedPairingCode(code) == code.replacingOccurrences(of: "-", with: ""))
        }
        #expect(SyncServerRules.normalizedPairingCode(" abcde-fghjk ") == "ABCDEFGHJK")
        for bad in ["", "ABCDE", "ABCDE-FGHJ0", "ABCDE-FGHJKL", "ABCDE_FGHJK", String(repeating: "A", count: 1_000)] {
            #expect(SyncServerRules.normalizedPairingCode(bad) == nil, "\(bad)")
        }
    }

    @Test func cursorsNameTheirStore() throws {
        let cursor = SyncServerRules.cursor(storeID: "0123abcd", version: 42)
        #expect(cursor == "0123abcd.42")
        #expect(try SyncServerRules.version(ofCursor: cursor, storeID: "0123abcd", latest: 42) == 42)
        #expect(try SyncServerRules.version(ofCursor: "0", storeID: "0123abcd", latest: 0) == 0)
        #expect(
            throws: SyncServerError(
                .cursorExpired, message: "the cursor is not one this server gave: pull again from \"0\"")
        ) {
            try SyncServerRules.version(ofCursor: cursor, storeID: "ffff", latest: 42)
        }
        #expect(throws: SyncServerError.self) {
            try SyncServerRules.version(ofCursor: cursor, storeID: "0123abcd", latest: 41)
        }
        for bad in ["", "a.b", "a.1.2", "a.-1", "a.99999999999999999999", "é.1"] {
            #expect {
                try SyncServerRules.version(ofCursor: bad, storeID: "a", latest: 5)
            } throws: { ($0 as? SyncServerError)?.code == .badRequest }
        }
    }

    @Test(arguments: [
        ([Int64](), 3, SyncServerRules.PageCut.last(count: 0)),
        ([1, 2], 3, .last(count: 2)),
        ([1, 2, 3], 3, .last(count: 3)),
        ([1, 2, 3, 4], 3, .more(count: 3)),
        ([1, 2, 2, 2], 3, .more(count: 1)),
        ([1, 1, 2, 2], 3, .more(count: 2)),
        ([2, 2, 2, 2], 3, .wholeVersion(2)),
        ([7, 7], 1, .wholeVersion(7)),
        ([7, 8], 1, .more(count: 1)),
    ])
    func pagesNeverEndInsideAVersion(versions: [Int64], limit: Int, cut: SyncServerRules.PageCut) {
        #expect(SyncServerRules.pageCut(versions: versions, limit: limit) == cut)
    }

    @Test func errorsCarryTheirStatusAndBody() {
        #expect(SyncServerError.Code.allCases.allSatisfy { (400...503).contains($0.status) })
        let gap = SyncServerError(.mutationGap, message: "gap", lastMutationID: 7)
        #expect(
            gap.status == 409 && gap.body == SyncAPI.ErrorBody(error: "mutation_gap", message: "gap", lastMutationID: 7)
        )
        #expect(SyncServerError(.rateLimited, message: "wait", retryAfter: 0).retryAfter == 1)
        #expect(SyncServerError(.cursorExpired, message: "").status == 410)
        #expect(SyncServerError(.upgradeRequired, message: "").status == 426)
    }
}
