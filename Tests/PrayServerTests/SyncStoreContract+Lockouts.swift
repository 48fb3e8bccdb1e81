import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServer

/// The contract's cases of failure counts that spare everyone else (SYNC.md §7, the wave-3 security
/// review): a valid token works from an address locked out for bad ones, one client is one counter
/// whatever the spelling of its address or the address it takes in its /64, and a pairing code is
/// kept as an HMAC under the store's secret. Run by both stores.
extension SyncStoreContract {
    static let lockoutCases: [SyncStoreContractCase] = [
        .init(name: "a valid token works from a locked-out address", run: { try $0.validTokenWorksWhenLocked() }),
        .init(name: "spellings of one address share a counter", run: { try $0.spellingsOfOneAddressShareACounter() }),
        .init(name: "an IPv6 /64 shares a counter", run: { try $0.anIPv6NetworkSharesACounter() }),
        .init(name: "pairing codes are kept as HMACs", run: { try $0.pairingCodesAreKeptAsHMACs() }),
    ]

    // MARK: - Lockouts

    func validTokenWorksWhenLocked() throws {
        // Given: one client behind a NAT sends 5 bad tokens (the limit)
        let (store, token, _) = try storeWithDevice(limits: SyncStoreLimits(maximumAuthenticationFailuresPerAddress: 5))
        for _ in 0..<5 {
            #expect(
                refusal { try store.authenticate(token: "pkd_bad", address: "203.0.113.1", now: Self.now) }
                    == SyncServerRules.unauthorized)
        }
        // Then: its next bad token is rate limited, a valid token behind the same address still works
        let limited = refusal { try store.authenticate(token: "pkd_bad", address: "203.0.113.1", now: Self.now) }
        #expect(limited?.code == .rateLimited && (limited?.retryAfter ?? 0) > 0)
        #expect(try store.authenticate(token: token, address: "203.0.113.1", now: Self.now).user == "amina")
        // And nothing more is counted while locked: the window still ends 15 minutes after the first
        let later = Self.now.addingTimeInterval(15 * 60)
        #expect(
            refusal { try store.authenticate(token: "pkd_bad", address: "203.0.113.1", now: later) }
                == SyncServerRules.unauthorized)
    }

    func spellingsOfOneAddressShareACounter() throws {
        // Given: one IPv4 client, forwarded in five spellings (the review saw five counters)
        let (store, _, _) = try storeWithDevice(
            limits: SyncStoreLimits(maximumPairingFailuresPerAddress: 5, maximumAuthenticationFailuresPerAddress: 5))
        let spellings = [
            "203.0.113.1", "::ffff:203.0.113.1", "[::ffff:203.0.113.1]", "0:0:0:0:0:ffff:cb00:7101",
            "::FFFF:CB00:7101",
        ]
        // When: a bad token and a wrong code from each
        for spelling in spellings {
            _ = refusal { try store.authenticate(token: "pkd_bad", address: spelling, now: Self.now) }
            _ = refusal {
                try store.pair(.init(code: "ZZZZZ-ZZZZZ", deviceName: "x"), address: spelling, now: Self.now)
            }
        }
        // Then: the sixth, in any spelling, is over the limit of one counter
        for spelling in spellings {
            #expect(
                refusal { try store.authenticate(token: "pkd_bad", address: spelling, now: Self.now) }?.code
                    == .rateLimited, "\(spelling)")
            #expect(
                refusal {
                    try store.pair(.init(code: "ZZZZZ-ZZZZZ", deviceName: "x"), address: spelling, now: Self.now)
                }?
                .code == .rateLimited, "\(spelling)")
        }
        // Another address is not
        #expect(
            refusal { try store.authenticate(token: "pkd_bad", address: "203.0.113.2", now: Self.now) }
                == SyncServerRules.unauthorized)
    }

    func anIPv6NetworkSharesACounter() throws {
        // Given: a client that takes a new address of its /64 for each bad token
        let (store, _, _) = try storeWithDevice(limits: SyncStoreLimits(maximumAuthenticationFailuresPerAddress: 5))
        for host in 1...5 {
            _ = refusal { try store.authenticate(token: "pkd_bad", address: "2001:db8:1:2::\(host)", now: Self.now) }
        }
        // Then: its /64 is counted once, another /64 apart
        #expect(
            refusal {
                try store.authenticate(token: "pkd_bad", address: "2001:db8:1:2:aaaa:bbbb:cccc:dddd", now: Self.now)
            }?
            .code == .rateLimited)
        #expect(
            refusal { try store.authenticate(token: "pkd_bad", address: "2001:db8:1:3::1", now: Self.now) }
                == SyncServerRules.unauthorized)
    }

    // MARK: - Pairing codes

    func pairingCodesAreKeptAsHMACs() throws {
        // Given: a code made by the store
        let store = try make(.standard)
        let code = try store.addUser(named: "amina", now: Self.now)
        let normalized = try #require(SyncServerRules.normalizedPairingCode(code.code))
        // Then: what is kept is an HMAC under the store's own secret, not the code's plain SHA-256
        let stored = try StoreRecords.rows(store, "SELECT code_hash FROM pairing_codes")
        let key = try StoreRecords.rows(
            store, "SELECT value FROM store WHERE key = $1", [.text(SyncServerRules.pairingKeyName)])
        let secret = try #require(key.first?.first.flatMap { $0 }.flatMap(SyncServerRules.pairingKey(hex:)))
        #expect(stored.count == 1)
        #expect(stored.first?.first == SyncServerRules.pairingCodeHash(normalized, key: secret))
        #expect(stored.first?.first != SHA256.hexHash(normalized))
        // A second code uses the same secret
        _ = try store.newPairingCode(forUser: "amina", now: Self.now)
        #expect(
            try StoreRecords.rows(
                store, "SELECT value FROM store WHERE key = $1", [.text(SyncServerRules.pairingKeyName)])
                == key)
        // A code kept as a plain SHA-256 by an older PrayKit works until it expires
        let legacy = try store.newPairingCode(forUser: "amina", now: Self.now)
        let legacyCode = try #require(SyncServerRules.normalizedPairingCode(legacy.code))
        try StoreRecords.run(
            store, "UPDATE pairing_codes SET code_hash = $1 WHERE code_hash = $2",
            [.text(SHA256.hexHash(legacyCode)), .text(SyncServerRules.pairingCodeHash(legacyCode, key: secret))])
        #expect(
            try store.pair(.init(code: legacy.code, deviceName: "old"), address: Self.address, now: Self.now).user
                == "amina")
        // And the HMAC-kept one works
        #expect(
            try store.pair(.init(code: code.code, deviceName: "new"), address: Self.address, now: Self.now).user
                == "amina")
    }
}
