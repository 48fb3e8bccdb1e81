import Foundation
import PrayCore
import PrayMocks
import PrayServer
import Testing

/// Makes an empty store with the given limits. Each call gives a new, separate store.
typealias SyncStoreFactory = @Sendable (SyncStoreLimits) throws -> any SyncStore

/// One requirement of ``SyncStore`` that every store must meet (guarantee I10): the SQLite store runs
/// them all below; a PostgreSQL store runs the same list with its own factory.
struct SyncStoreContractCase: Sendable, CustomTestStringConvertible {
    let name: String
    let run: @Sendable (SyncStoreContract) throws -> Void

    var testDescription: String { name }
}

/// The contract of ``SyncStore`` (SYNC.md §3, §5, §6, §7), as functions of a store factory.
struct SyncStoreContract: Sendable {
    let make: SyncStoreFactory

    /// 2026-11-29 12:00:00 UTC: "now" for every call unless a test moves it.
    static let now = Date(timeIntervalSince1970: 1_795_953_600)
    static let clientA = "c_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    static let clientB = "c_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
    static let address = "192.0.2.7"

    /// Every case, in the order they are listed in test reports.
    static let cases: [SyncStoreContractCase] =
        coreCases + boundsCases + lockoutCases + pushRuleCases + spaceCases + publishingCases

    /// The cases of the protocol's rules.
    static let coreCases: [SyncStoreContractCase] = [
        .init(name: "a pairing code works once", run: { try $0.pairingCodeWorksOnce() }),
        .init(name: "a pairing code expires", run: { try $0.pairingCodeExpires() }),
        .init(name: "wrong codes are limited per address", run: { try $0.wrongCodesAreLimitedPerAddress() }),
        .init(name: "wrong codes delay their code, never spend it", run: { try $0.wrongCodesDelayTheirCode() }),
        .init(name: "administration", run: { try $0.administration() }),
        .init(name: "tokens: good, unknown, malformed, revoked", run: { try $0.tokens() }),
        .init(name: "a device's last-seen time, to the minute", run: { try $0.lastSeenToTheMinute() }),
        .init(name: "tokens of every length get the same error", run: { try $0.tokensOfEveryLength() }),
        .init(name: "refused tokens are limited per address", run: { try $0.refusedTokensAreLimited() }),
        .init(name: "push applies, skips retries, reports last", run: { try $0.pushAppliesAndSkips() }),
        .init(name: "push with a gap is refused", run: { try $0.pushGap() }),
        .init(name: "invalid mutations are rejected and counted", run: { try $0.invalidMutationsAreRejected() }),
        .init(name: "a known ID with another payload conflicts", run: { try $0.clientIDConflict() }),
        .init(name: "a stamp ahead of the clock refuses the push", run: { try $0.clockAhead() }),
        .init(name: "a newer schema or protocol gets 426", run: { try $0.upgradeRequired() }),
        .init(name: "too many mutations or rows get 413", run: { try $0.tooLarge() }),
        .init(name: "an older schema's client never sees newer collections", run: { try $0.olderSchema() }),
        .init(name: "the merge rule", run: { try $0.mergeRule() }),
        .init(name: "versions and pages", run: { try $0.versionsAndPages() }),
        .init(name: "a version larger than the limit comes whole", run: { try $0.largeVersionComesWhole() }),
        .init(name: "cursors come only from this store", run: { try $0.cursors() }),
        .init(name: "another device's client ID is forbidden", run: { try $0.anotherDevicesClientID() }),
        .init(name: "I2: a push replayed 5 times changes the server once", run: { try $0.replayedPush() }),
        .init(name: "a refused push leaves the store unchanged", run: { try $0.refusedPushChangesNothing() }),
        .init(name: "a revoked device can neither push nor pull", run: { try $0.revokedDevice() }),
        .init(name: "users see only their own rows", run: { try $0.usersAreSeparate() }),
    ]

    // MARK: - Helpers

    /// A store with a user `amina` and one paired device.
    func storeWithDevice(
        limits: SyncStoreLimits = .standard
    ) throws -> (store: any SyncStore, token: String, device: SyncDeviceIdentity) {
        let store = try make(limits)
        let code = try store.addUser(named: "amina", now: Self.now)
        let paired = try store.pair(.init(code: code.code, deviceName: "phone"), address: Self.address, now: Self.now)
        let device = try store.authenticate(token: paired.token, address: Self.address, now: Self.now)
        return (store, paired.token, device)
    }

    /// Pairs another device of `user`.
    func pairDevice(_ store: any SyncStore, user: String = "amina", name: String) throws -> SyncDeviceIdentity {
        let code = try store.newPairingCode(forUser: user, now: Self.now)
        let paired = try store.pair(.init(code: code.code, deviceName: name), address: Self.address, now: Self.now)
        return try store.authenticate(token: paired.token, address: Self.address, now: Self.now)
    }

    /// A stamp `milliseconds` after "now".
    static func stamp(_ milliseconds: Int64, counter: Int = 0, client: String = clientA) throws -> HLC {
        try HLC(milliseconds: 1_795_953_600_000 + milliseconds, counter: counter, clientID: client)
    }

    /// A put of a log entry.
    static func put(
        _ id: Int, _ key: String = "2026-12-01/fajr", at milliseconds: Int64 = 0, status: PrayerStatus = .prayed,
        note: String? = nil, client: String = clientA
    ) throws -> SyncAPI.Mutation {
        SyncAPI.Mutation(
            id: id, collection: .log, key: key, op: .put, hlc: try stamp(milliseconds, client: client),
            value: .log(SyncLogValue(status: status, recordedAt: now, note: note)))
    }

    /// A tombstone of a log entry.
    static func delete(
        _ id: Int, _ key: String = "2026-12-01/fajr", at milliseconds: Int64 = 0, client: String = clientA
    ) throws -> SyncAPI.Mutation {
        SyncAPI.Mutation(
            id: id, collection: .log, key: key, op: .delete, hlc: try stamp(milliseconds, client: client), value: nil)
    }

    /// Every row of the device's user, page after page from the start, with the versions seen.
    func allRows(
        _ store: any SyncStore, _ device: SyncDeviceIdentity, client: String = clientA, limit: Int = 1_000
    ) throws -> (rows: [SyncRow], pages: [SyncAPI.PullResponse]) {
        var cursor = "0"
        var rows: [SyncRow] = []
        var pages: [SyncAPI.PullResponse] = []
        for _ in 0..<10_000 {
            let page = try store.pull(
                .init(clientID: client, cursor: cursor, limit: limit), from: device, now: Self.now)
            pages.append(page)
            rows += page.rows.map(\.row)
            cursor = page.cursor
            if !page.hasMore { break }
        }
        return (rows, pages)
    }

    /// The refusal `body` throws, or `nil` when it succeeds or throws something else.
    func refusal(_ body: () throws -> some Any) -> SyncServerError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? SyncServerError
        }
    }

    /// What the store shows of itself: users, devices and every user's rows.
    func snapshot(_ store: any SyncStore, _ devices: [SyncDeviceIdentity]) throws -> String {
        var text = "\(try store.users())\n\(try store.devices())\n"
        for device in devices {
            let pulled = try store.pull(
                .init(clientID: "c_00000000000000000000000000000000", cursor: "0", limit: 1_000), from: device,
                now: Self.now)
            text += "\(device.user): \(pulled.cursor) \(pulled.rows)\n"
            for client in [Self.clientA, Self.clientB] {
                let last = try? store.pull(.init(clientID: client, cursor: "0", limit: 1), from: device, now: Self.now)
                text += "\(client): \(last?.lastMutationID ?? -1)\n"
            }
        }
        return text
    }
}

// MARK: - Pairing

extension SyncStoreContract {
    func pairingCodeWorksOnce() throws {
        // Given
        let store = try make(.standard)
        let code = try store.addUser(named: "amina", now: Self.now)
        // Then: 10 symbols of the alphabet without look-alikes, ≥ 40 bits, shown as ABCDE-FGHJK
        let symbols = code.code.replacingOccurrences(of: "-", with: "")
        #expect(symbols.count == 10 && symbols.allSatisfy { "23456789ABCDEFGHJKLMNPQRSTUVWXYZ".contains($0) })
        #expect(code.user == "amina" && code.expiresAt == Self.now.addingTimeInterval(15 * 60))
        // When: redeemed, typed in lower case with a space
        let typed = symbols.prefix(5).lowercased() + " " + symbols.dropFirst(5).lowercased()
        let paired = try store.pair(.init(code: typed, deviceName: " phone "), address: Self.address, now: Self.now)
        // Then: a token of 256 bits in base64url, a device ID, the user
        #expect(paired.token.hasPrefix("pkd_") && paired.token.count == 47)
        #expect(Base64URL.decode(String(paired.token.dropFirst(4)))?.count == 32)
        #expect(paired.deviceID.hasPrefix("d_") && paired.deviceID.count == 34 && paired.user == "amina")
        #expect(try store.devices().map(\.name) == ["phone"])
        // A second redemption is the same error as a wrong code
        let again = refusal {
            try store.pair(.init(code: code.code, deviceName: "tablet"), address: "198.51.100.1", now: Self.now)
        }
        #expect(again == SyncServerRules.wrongPairingCode)
        #expect(again?.status == 401)
        let wrong = refusal {
            try store.pair(.init(code: "ABCDE-FGHJK", deviceName: "x"), address: "198.51.100.2", now: Self.now)
        }
        #expect(wrong == again)
        #expect(
            refusal { try store.pair(.init(code: "", deviceName: "x"), address: "198.51.100.3", now: Self.now) }
                == again)
        // Tokens differ from one device to the next
        let second = try store.newPairingCode(forUser: "amina", now: Self.now)
        let tablet = try store.pair(
            .init(code: second.code, deviceName: "tablet"), address: Self.address, now: Self.now)
        #expect(tablet.token != paired.token && tablet.deviceID != paired.deviceID)
        // A device name that is empty or holds control characters is a bad request
        let third = try store.newPairingCode(forUser: "amina", now: Self.now)
        for name in ["", "   ", "evil\u{1B}[2J", "left\u{202E}right", String(repeating: "n", count: 101)] {
            let error = refusal {
                try store.pair(.init(code: third.code, deviceName: name), address: Self.address, now: Self.now)
            }
            #expect(error?.code == .badRequest, "\(name.debugDescription)")
        }
        #expect(
            try store.pair(.init(code: third.code, deviceName: "laptop"), address: Self.address, now: Self.now).user
                == "amina")
    }

    func pairingCodeExpires() throws {
        // Given
        let store = try make(.standard)
        let first = try store.addUser(named: "amina", now: Self.now)
        let second = try store.newPairingCode(forUser: "amina", now: Self.now)
        // Then: a second before the end it works, a second after it does not
        let late = Self.now.addingTimeInterval(15 * 60 + 1)
        #expect(
            refusal { try store.pair(.init(code: first.code, deviceName: "x"), address: Self.address, now: late) }
                == SyncServerRules.wrongPairingCode)
        let inTime = Self.now.addingTimeInterval(15 * 60 - 1)
        #expect(
            try store.pair(.init(code: second.code, deviceName: "x"), address: Self.address, now: inTime).user
                == "amina")
    }

    func wrongCodesAreLimitedPerAddress() throws {
        // Given: 10 wrong codes from one address
        let store = try make(.standard)
        let code = try store.addUser(named: "amina", now: Self.now)
        // Wrong codes that do not share the right one's first characters (so it is not spent)
        let wrong = code.code.hasPrefix("ZZ") ? "YYYYY-YYYYY" : "ZZZZZ-ZZZZZ"
        for attempt in 0..<10 {
            let error = refusal {
                try store.pair(
                    .init(code: wrong, deviceName: "x"), address: "203.0.113.9",
                    now: Self.now.addingTimeInterval(Double(attempt)))
            }
            #expect(error == SyncServerRules.wrongPairingCode)
        }
        // Then: the address is refused, even with the right code, until the window ends
        let limited = refusal {
            try store.pair(
                .init(code: code.code, deviceName: "x"), address: "203.0.113.9", now: Self.now.addingTimeInterval(60))
        }
        #expect(limited?.code == .rateLimited && limited?.status == 429)
        #expect(limited?.retryAfter == 15 * 60 - 60)
        // Another address is not
        #expect(
            try store.pair(.init(code: code.code, deviceName: "x"), address: "203.0.113.10", now: Self.now).user
                == "amina")
        // After the window, the address may try again
        let later = Self.now.addingTimeInterval(15 * 60 + 1)
        let fresh = try store.newPairingCode(forUser: "amina", now: later)
        #expect(
            try store.pair(.init(code: fresh.code, deviceName: "y"), address: "203.0.113.9", now: later).user == "amina"
        )
    }

    func wrongCodesDelayTheirCode() throws {
        // Given: a code, and 3 wrong attempts that share its first characters, each from another address
        let store = try make(SyncStoreLimits(maximumAttemptsPerCode: 3))
        let code = try store.addUser(named: "amina", now: Self.now)
        let symbols = Array(code.code.replacingOccurrences(of: "-", with: ""))
        for attempt in 0..<3 {
            var wrong = symbols
            wrong[9] = wrong[9] == "Z" ? "Y" : "Z"
            wrong[8] = Array("234")[attempt]
            let error = refusal {
                try store.pair(
                    .init(code: String(wrong), deviceName: "x"), address: "203.0.113.\(attempt)", now: Self.now)
            }
            #expect(error == SyncServerRules.wrongPairingCode)
        }
        // Then: within the code's minute, every attempt at it waits, the right one too, from any address
        // (counted per code, apart from the addresses, none of which is locked)
        let delayed = refusal {
            try store.pair(.init(code: code.code, deviceName: "x"), address: "203.0.113.50", now: Self.now)
        }
        #expect(delayed?.code == .rateLimited && delayed?.retryAfter == 60)
        // Codes of other first characters are not delayed
        let other = try store.newPairingCode(forUser: "amina", now: Self.now)
        if other.code.prefix(2) != code.code.prefix(2) {
            #expect(
                try store.pair(.init(code: other.code, deviceName: "y"), address: "203.0.113.0", now: Self.now).user
                    == "amina")
        }
        // After the minute the code still works: wrong guesses never spend it
        let later = Self.now.addingTimeInterval(60)
        #expect(
            try store.pair(.init(code: code.code, deviceName: "x"), address: "203.0.113.50", now: later).user
                == "amina")
    }

    func administration() throws {
        // Given
        let store = try make(.standard)
        _ = try store.addUser(named: "zaid", now: Self.now)
        _ = try store.addUser(named: "amina", now: Self.now.addingTimeInterval(1))
        // Then: names are checked and unique
        #expect(refusal { try store.addUser(named: "amina", now: Self.now) }?.code == .userExists)
        for bad in ["", "-rf", "a b", "amina/..", String(repeating: "a", count: 65), "émile"] {
            #expect(refusal { try store.addUser(named: bad, now: Self.now) }?.code == .badRequest, "\(bad)")
        }
        #expect(refusal { try store.newPairingCode(forUser: "nobody", now: Self.now) }?.code == .notFound)
        // Devices are listed with their user, name, times and revocation
        let phone = try pairDevice(store, name: "phone")
        let laptop = try pairDevice(store, user: "zaid", name: "laptop")
        try store.revokeDevice(laptop.deviceID, now: Self.now.addingTimeInterval(60))
        try store.revokeDevice(laptop.deviceID, now: Self.now.addingTimeInterval(120))
        #expect(refusal { try store.revokeDevice("d_unknown", now: Self.now) }?.code == .notFound)
        let devices = try store.devices()
        #expect(devices.map(\.user) == ["amina", "zaid"] && devices.map(\.id) == [phone.deviceID, laptop.deviceID])
        #expect(devices[0].name == "phone" && devices[0].createdAt == Self.now && devices[0].lastSeen == Self.now)
        #expect(!devices[0].isRevoked && devices[1].revokedAt == Self.now.addingTimeInterval(60))
        let users = try store.users()
        #expect(users.map(\.name) == ["amina", "zaid"] && users.map(\.deviceCount) == [1, 1])
        #expect(users[0].createdAt == Self.now.addingTimeInterval(1) && users[0].version == 0 && users[0].rowCount == 0)
    }
}

// MARK: - Tokens

extension SyncStoreContract {
    func lastSeenToTheMinute() throws {
        // Given: a device paired (and seen) now
        let (store, token, device) = try storeWithDevice()
        func lastSeen() throws -> Date? { try store.devices().first { $0.id == device.deviceID }?.lastSeen }
        // When / Then: seen again within the minute, the time stays; a minute later or more, it moves
        _ = try store.authenticate(token: token, address: Self.address, now: Self.now.addingTimeInterval(59))
        #expect(try lastSeen() == Self.now)
        _ = try store.authenticate(token: token, address: Self.address, now: Self.now.addingTimeInterval(90))
        #expect(try lastSeen() == Self.now.addingTimeInterval(90))
        // A request with an older clock (another server's) never moves it back.
        _ = try store.authenticate(token: token, address: Self.address, now: Self.now.addingTimeInterval(30))
        #expect(try lastSeen() == Self.now.addingTimeInterval(90))
    }

    func tokens() throws {
        // Given
        let (store, token, device) = try storeWithDevice()
        let tablet = try pairDevice(store, name: "tablet")
        #expect(device.user == "amina" && device.deviceID.hasPrefix("d_"))
        // Then: unknown (well formed), malformed and revoked tokens give one error
        let unknown = "pkd_" + Base64URL.encode([UInt8](repeating: 7, count: 32))
        var samePrefix = Array(token)
        samePrefix[samePrefix.count - 2] = samePrefix[samePrefix.count - 2] == "A" ? "B" : "A"
        let malformed = [token + "A", String(token.dropLast()), token.uppercased(), "Bearer " + token, "pkd_", ""]
        for candidate in [unknown, String(samePrefix)] + malformed {
            let error = refusal { try store.authenticate(token: candidate, address: Self.address, now: Self.now) }
            #expect(error == SyncServerRules.unauthorized)
            #expect(!(error?.message.contains("pkd_") ?? true))
        }
        try store.revokeDevice(device.deviceID, now: Self.now)
        #expect(
            refusal { try store.authenticate(token: token, address: Self.address, now: Self.now) }
                == SyncServerRules.unauthorized)
        // The other device is unaffected
        #expect(try store.devices().first { $0.id == tablet.deviceID }?.isRevoked == false)
    }

    func tokensOfEveryLength() throws {
        // Given
        let (store, token, _) = try storeWithDevice(
            limits: SyncStoreLimits(maximumAuthenticationFailuresPerAddress: 10_000))
        var random = SeededGenerator(seed: SeededGenerator.seed(default: 21))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ .")
        // Then: every length from 0 to 100, random or the real token's prefix and extension, one error
        for length in 0...100 {
            let randomToken = String(
                (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] })
            let prefixed = String(("pkd_" + randomToken).prefix(length))
            let cut = String((token + randomToken).prefix(length))
            for candidate in [randomToken, prefixed, cut] where candidate != token {
                let error = refusal { try store.authenticate(token: candidate, address: Self.address, now: Self.now) }
                #expect(error == SyncServerRules.unauthorized, "length \(length)")
            }
        }
        #expect(try store.authenticate(token: token, address: Self.address, now: Self.now).user == "amina")
    }

    func refusedTokensAreLimited() throws {
        // Given: 5 refused tokens from one address
        let (store, token, _) = try storeWithDevice(limits: SyncStoreLimits(maximumAuthenticationFailuresPerAddress: 5))
        for _ in 0..<5 { _ = refusal { try store.authenticate(token: "pkd_x", address: "203.0.113.1", now: Self.now) } }
        // Then: the address's refused tokens are rate limited; a good token is not, nor another address
        let limited = refusal { try store.authenticate(token: "pkd_x", address: "203.0.113.1", now: Self.now) }
        #expect(limited?.code == .rateLimited && (limited?.retryAfter ?? 0) > 0)
        #expect(try store.authenticate(token: token, address: "203.0.113.1", now: Self.now).user == "amina")
        #expect(
            refusal { try store.authenticate(token: "pkd_x", address: "203.0.113.2", now: Self.now) }
                == SyncServerRules.unauthorized)
        // And it may come back after the window
        let later = Self.now.addingTimeInterval(15 * 60)
        #expect(
            refusal { try store.authenticate(token: "pkd_x", address: "203.0.113.1", now: later) }
                == SyncServerRules.unauthorized)
    }
}

// MARK: - Push

extension SyncStoreContract {
    func pushAppliesAndSkips() throws {
        // Given
        let (store, _, device) = try storeWithDevice()
        let mutations = try [
            Self.put(1, "2026-12-01/fajr"), Self.put(2, "2026-12-01/dhuhr"), Self.delete(3, "2026-12-01/asr"),
        ]
        // When
        let first = try store.push(.init(clientID: Self.clientA, mutations: mutations), from: device, now: Self.now)
        // Then
        #expect(first.lastMutationID == 3 && first.rejected.isEmpty && first.serverTime == SyncAPI.timestamp(Self.now))
        #expect(try store.users()[0].version == 1 && store.users()[0].rowCount == 3)
        // A retry is skipped; a push that overlaps applies only the new ones
        let retry = try store.push(.init(clientID: Self.clientA, mutations: mutations), from: device, now: Self.now)
        #expect(try store.users()[0].version == 1 && retry.lastMutationID == 3)
        let overlap = try store.push(
            .init(
                clientID: Self.clientA,
                mutations: [mutations[1], mutations[2], try Self.put(4, "2026-12-01/isha", at: 5)]),
            from: device, now: Self.now)
        #expect(try store.users()[0].version == 2 && overlap.lastMutationID == 4)
        let rows = try allRows(store, device).rows
        #expect(rows.map(\.key) == ["2026-12-01/asr", "2026-12-01/dhuhr", "2026-12-01/fajr", "2026-12-01/isha"])
        #expect(rows.map(\.deleted) == [true, false, false, false] && rows[0].value == nil)
        #expect(rows[2].value == mutations[0].value && rows[2].hlc == mutations[0].hlc)
        // An empty push registers the client and answers its last
        let empty = try store.push(.init(clientID: Self.clientB, mutations: []), from: device, now: Self.now)
        #expect(empty.lastMutationID == 0)
        #expect(
            try store.pull(.init(clientID: Self.clientA, cursor: "0"), from: device, now: Self.now).lastMutationID == 4)
    }

    func pushGap() throws {
        // Given: the server has 1…2
        let (store, _, device) = try storeWithDevice()
        _ = try store.push(
            .init(clientID: Self.clientA, mutations: [try Self.put(1), try Self.put(2, at: 1)]), from: device,
            now: Self.now)
        // When: 3 and 5, or 4 alone
        for mutations in [[try Self.put(3, at: 2), try Self.put(5, at: 3)], [try Self.put(4, at: 3)]] {
            let error = refusal {
                try store.push(.init(clientID: Self.clientA, mutations: mutations), from: device, now: Self.now)
            }
            // Then: 409 with the last the server has, and nothing of the push applied
            #expect(error?.code == .mutationGap && error?.status == 409 && error?.lastMutationID == 2)
            #expect(error?.body.lastMutationID == 2 && error?.body.error == "mutation_gap")
        }
        #expect(try allRows(store, device).pages[0].lastMutationID == 2)
        #expect(try store.users()[0].version == 1)
        // IDs begin at 1
        #expect(
            refusal {
                try store.push(.init(clientID: Self.clientB, mutations: [try Self.put(0)]), from: device, now: Self.now)
            }?
            .code == .badRequest)
    }

    func invalidMutationsAreRejected() throws {
        // Given
        let (store, _, device) = try storeWithDevice()
        let hlc = try Self.stamp(0)
        let mutations = [
            try Self.put(1, "2026-12-01/tahajjud"),
            try Self.put(2, "2026-12-01/sunrise"),
            try Self.put(3, "2026-02-30/fajr"),
            try Self.put(4, "2026-12-01/fajr", note: String(repeating: "n", count: 501)),
            SyncAPI.Mutation(
                id: 5, collection: .pref, key: "notify-hook", op: .put, hlc: hlc, value: .pref(.init(value: "rm -rf /"))
            ),
            SyncAPI.Mutation(
                id: 6, collection: .pref, key: "clock", op: .put, hlc: hlc, value: .pref(.init(value: "24h"))),
            SyncAPI.Mutation(
                id: 7, collection: .place, key: "current", op: .put, hlc: hlc,
                value: .place(.init(name: "X", latitude: 91, longitude: 0, elevation: nil, timeZone: nil))),
            SyncAPI.Mutation(
                id: 8, collection: .log, key: "2026-12-01/fajr", op: .put, hlc: hlc, value: .pref(.init(value: "x"))),
            SyncAPI.Mutation(id: 9, collection: .log, key: "2026-12-01/fajr", op: .put, hlc: hlc, value: nil),
            try Self.put(10, "2026-12-01/maghrib", note: String(repeating: "n", count: 500)),
            SyncAPI.Mutation(
                id: 11, collection: .pref, key: "method", op: .put, hlc: hlc, value: .pref(.init(value: "umm-al-qura"))),
        ]
        // When
        let response = try store.push(.init(clientID: Self.clientA, mutations: mutations), from: device, now: Self.now)
        // Then: each invalid one is rejected with a reason, and still counts
        #expect(response.lastMutationID == 11)
        #expect(response.rejected.map(\.id) == Array(1...9))
        #expect(response.rejected.allSatisfy { !$0.reason.isEmpty })
        #expect(response.rejected[3].reason.contains("500"))
        let rows = try allRows(store, device).rows
        #expect(rows.map(\.key).sorted() == ["2026-12-01/maghrib", "method"])
    }

    func clientIDConflict() throws {
        // Given: mutation 1 applied
        let (store, _, device) = try storeWithDevice()
        let original = try Self.put(1, status: .prayed)
        _ = try store.push(.init(clientID: Self.clientA, mutations: [original]), from: device, now: Self.now)
        // When: mutation 1 again with another payload
        let reused = try Self.put(1, status: .missed)
        let error = refusal {
            try store.push(
                .init(clientID: Self.clientA, mutations: [reused, try Self.put(2, at: 1)]), from: device, now: Self.now)
        }
        // Then: 409 client_id_conflict, and mutation 2 was not applied
        #expect(error?.code == .clientIDConflict && error?.status == 409)
        #expect(try allRows(store, device).pages[0].lastMutationID == 1)
        // The same payload is a retry; within one push, a repeated ID must repeat its payload too
        #expect(
            try store.push(.init(clientID: Self.clientA, mutations: [original]), from: device, now: Self.now)
                .lastMutationID == 1)
        let twice = refusal {
            try store.push(
                .init(clientID: Self.clientA, mutations: [try Self.put(2), try Self.put(2, status: .late)]),
                from: device, now: Self.now)
        }
        #expect(twice?.code == .clientIDConflict)
    }

    func clockAhead() throws {
        // Given
        let (store, _, device) = try storeWithDevice()
        let lead = SyncAPI.maximumClockLead
        // When: mutation 1 is fine, mutation 2 is 5 min and 1 ms ahead
        let error = refusal {
            try store.push(
                .init(
                    clientID: Self.clientA,
                    mutations: [try Self.put(1), try Self.put(2, "2026-12-01/isha", at: lead + 1)]), from: device,
                now: Self.now)
        }
        // Then: the whole push is refused, with the server's time
        #expect(error?.code == .clockAhead && error?.status == 409 && error?.serverTime == SyncAPI.timestamp(Self.now))
        #expect(try allRows(store, device).rows.isEmpty && store.users()[0].version == 0)
        // Exactly 5 min ahead is accepted
        let response = try store.push(
            .init(clientID: Self.clientA, mutations: [try Self.put(1), try Self.put(2, "2026-12-01/isha", at: lead)]),
            from: device, now: Self.now)
        #expect(response.lastMutationID == 2)
    }

    func upgradeRequired() throws {
        // Given
        let (store, _, device) = try storeWithDevice()
        var push = SyncAPI.PushRequest(clientID: Self.clientA, mutations: [try Self.put(1)])
        push.schema = SyncAPI.schemaVersion + 1
        #expect(refusal { try store.push(push, from: device, now: Self.now) }?.status == 426)
        push.schema = SyncAPI.schemaVersion
        push.protocol = SyncAPI.protocolVersion + 1
        #expect(refusal { try store.push(push, from: device, now: Self.now) }?.code == .upgradeRequired)
        var pull = SyncAPI.PullRequest(clientID: Self.clientA, cursor: "0")
        pull.schema = SyncAPI.schemaVersion + 1
        #expect(refusal { try store.pull(pull, from: device, now: Self.now) }?.code == .upgradeRequired)
        // A malformed client ID or an old protocol is a bad request
        push.protocol = 0
        #expect(refusal { try store.push(push, from: device, now: Self.now) }?.code == .badRequest)
        #expect(
            refusal { try store.push(.init(clientID: "c_XYZ", mutations: []), from: device, now: Self.now) }?.code
                == .badRequest)
        #expect(try allRows(store, device).rows.isEmpty)
    }

    func olderSchema() throws {
        // Given: a schema-2 client puts a log entry, an announced month start and a mosque's month
        let (store, _, device) = try storeWithDevice()
        let day = try CivilDate(parsing: "2026-12-01")
        let mosque = SyncMosqueValue(
            latitude: 51.5, longitude: -0.07, elevation: 0, timeZone: "Europe/London",
            days: [MosqueDay(date: day, adhan: [.fajr: 360])])
        let start = SyncHijriStartValue(start: try CivilDate(parsing: "2027-02-08"))
        _ = try store.push(
            .init(
                clientID: Self.clientA,
                mutations: [
                    try Self.put(1),
                    .init(
                        id: 2, collection: .hijriStart, key: "1448-09", op: .put, hlc: try Self.stamp(1),
                        value: .hijriStart(start)),
                    .init(
                        id: 3, collection: .mosque, key: "ELM/2026-12", op: .put, hlc: try Self.stamp(2),
                        value: .mosque(mosque)),
                ]), from: device, now: Self.now)
        // When a schema-1 client of another device pulls
        let other = try pairDevice(store, name: "old phone")
        var pull = SyncAPI.PullRequest(clientID: Self.clientB, cursor: "0")
        pull.schema = 1
        let page = try store.pull(pull, from: other, now: Self.now)
        // Then it gets the log entry only, and its cursor has passed the rest
        #expect(page.rows.map(\.row.collection) == [.log] && !page.hasMore)
        pull.cursor = page.cursor
        #expect(try store.pull(pull, from: other, now: Self.now).rows.isEmpty)
        // while a schema-2 pull gets all three
        #expect(try allRows(store, device).rows.count == 3)
        // A schema-1 push of a schema-2 collection is rejected, not applied
        var push = SyncAPI.PushRequest(
            clientID: Self.clientB,
            mutations: [
                .init(
                    id: 1, collection: .hijriStart, key: "1448-10", op: .put,
                    hlc: try Self.stamp(3, client: Self.clientB), value: .hijriStart(start))
            ])
        push.schema = 1
        let answer = try store.push(push, from: other, now: Self.now)
        #expect(answer.lastMutationID == 1 && answer.rejected.map(\.id) == [1])
        #expect(try allRows(store, device).rows.count == 3)
    }

    func tooLarge() throws {
        // Given: a user may keep 3 rows
        let (store, _, device) = try storeWithDevice(limits: SyncStoreLimits(maximumRowsPerUser: 3))
        // Then: 501 mutations are too many for one push
        let many = try (1...501).map { try Self.put($0, at: Int64($0)) }
        let error = refusal {
            try store.push(.init(clientID: Self.clientA, mutations: many), from: device, now: Self.now)
        }
        #expect(error?.code == .tooLarge && error?.status == 413)
        #expect(
            try store.push(
                .init(clientID: Self.clientA, mutations: Array(many.prefix(500))), from: device, now: Self.now
            ).lastMutationID == 500)
        // A fourth row is refused, the push with it whole; changing the rows kept is not
        let days = ["2026-12-02/fajr", "2026-12-03/fajr", "2026-12-04/fajr"]
        let quota = refusal {
            try store.push(
                .init(
                    clientID: Self.clientA,
                    mutations: try days.enumerated().map { try Self.put(501 + $0.offset, $0.element, at: 1_000) }),
                from: device, now: Self.now)
        }
        #expect(quota?.code == .tooLarge && quota?.message.contains("3") == true)
        #expect(try store.users()[0].rowCount == 1)
        let fits = try days.prefix(2).enumerated().map { try Self.put(501 + $0.offset, $0.element, at: 1_000) }
        #expect(
            try store.push(
                .init(clientID: Self.clientA, mutations: fits + [try Self.delete(503, at: 2_000)]), from: device,
                now: Self.now
            ).lastMutationID == 503)
        #expect(try store.users()[0].rowCount == 3)
    }
}

// MARK: - Merge, versions and pages

extension SyncStoreContract {
    func mergeRule() throws {
        // Given: a put at t=10 from client A
        let (store, _, device) = try storeWithDevice()
        let tablet = try pairDevice(store, name: "tablet")
        func push(_ client: String, _ device: SyncDeviceIdentity, _ mutations: [SyncAPI.Mutation]) throws {
            _ = try store.push(.init(clientID: client, mutations: mutations), from: device, now: Self.now)
        }
        func fajr() throws -> SyncRow? { try allRows(store, device).rows.first { $0.key == "2026-12-01/fajr" } }
        try push(Self.clientA, device, [try Self.put(1, at: 10, status: .prayed)])
        // When: an older put from B
        try push(Self.clientB, tablet, [try Self.put(1, at: 5, status: .missed, client: Self.clientB)])
        // Then: it does not replace, and changes no version
        #expect(try fajr()?.value == .log(SyncLogValue(status: .prayed, recordedAt: Self.now)))
        #expect(try store.users()[0].version == 1)
        // When: a delete at t=20, then an older put at t=15
        try push(Self.clientB, tablet, [try Self.delete(2, at: 20, client: Self.clientB)])
        try push(Self.clientA, device, [try Self.put(2, at: 15, status: .late)])
        // Then: it stays deleted
        #expect(try fajr()?.deleted == true && fajr()?.value == nil)
        // When: a later re-record at t=30, then it revives
        try push(Self.clientA, device, [try Self.put(3, at: 30, status: .qada)])
        #expect(
            try fajr()?.deleted == false && fajr()?.value == .log(SyncLogValue(status: .qada, recordedAt: Self.now)))
        // Equal stamps do not replace; at the same time, the counter and then the client decide
        try push(Self.clientB, tablet, [try Self.put(3, at: 30, status: .missed, client: Self.clientA)])
        #expect(try fajr()?.value == .log(SyncLogValue(status: .qada, recordedAt: Self.now)))
        let counted = SyncAPI.Mutation(
            id: 4, collection: .log, key: "2026-12-01/fajr", op: .put,
            hlc: try Self.stamp(30, counter: 1, client: Self.clientB),
            value: .log(SyncLogValue(status: .late, recordedAt: Self.now)))
        try push(Self.clientB, tablet, [counted])
        #expect(try fajr()?.hlc == counted.hlc)
    }

    func versionsAndPages() throws {
        // Given: pushes of 1, 3, 2, 4 and 1 rows: versions 1…5; one row rewritten later moves to version 6
        let (store, _, device) = try storeWithDevice()
        var id = 0
        var keys: [[String]] = []
        for (index, size) in [1, 3, 2, 4, 1].enumerated() {
            let push = try (0..<size).map { offset -> SyncAPI.Mutation in
                id += 1
                return try Self.put(
                    id, "2026-12-\(String(format: "%02d", index + 1))/\(["fajr", "dhuhr", "asr", "maghrib"][offset])",
                    at: Int64(id))
            }
            keys.append(push.map(\.key))
            _ = try store.push(.init(clientID: Self.clientA, mutations: push), from: device, now: Self.now)
        }
        id += 1
        _ = try store.push(
            .init(clientID: Self.clientA, mutations: [try Self.put(id, "2026-12-02/dhuhr", at: 100)]), from: device,
            now: Self.now)
        #expect(try store.users()[0].version == 6)
        let everything = try allRows(store, device, limit: 1_000)
        #expect(everything.rows.count == 11 && everything.pages.count == 1 && !everything.pages[0].hasMore)
        // When: pulled 3 at a time
        let paged = try allRows(store, device, limit: 3)
        // Then: no row skipped or repeated, in version order, and no page ends inside a version
        #expect(paged.rows == everything.rows)
        #expect(Set(paged.rows.map(\.key)).count == 11)
        #expect(paged.rows.last?.key == "2026-12-02/dhuhr")
        let sizes = paged.pages.map(\.rows.count)
        // Versions: 1 (1 row), 2 (2 rows left: dhuhr moved to 6), 3 (2), 4 (4), 5 (1), 6 (1)
        #expect(sizes == [3, 2, 4, 2])
        #expect(paged.pages.dropLast().allSatisfy(\.hasMore) && paged.pages.last?.hasMore == false)
        #expect(paged.pages.allSatisfy { $0.rows.count <= 3 || Set($0.rows.map { $0.row.key.prefix(10) }).count == 1 })
        // The last cursor has nothing after it, until a push
        let end = try store.pull(
            .init(clientID: Self.clientA, cursor: paged.pages.last?.cursor ?? "", limit: 3), from: device, now: Self.now
        )
        #expect(end.rows.isEmpty && !end.hasMore && end.cursor == paged.pages.last?.cursor)
        _ = try store.push(
            .init(clientID: Self.clientA, mutations: [try Self.delete(id + 1, "2026-12-01/fajr", at: 200)]),
            from: device, now: Self.now)
        let next = try store.pull(
            .init(clientID: Self.clientA, cursor: end.cursor, limit: 3), from: device, now: Self.now)
        #expect(
            next.rows.map(\.row.key) == ["2026-12-01/fajr"] && next.rows[0].row.deleted && next.lastMutationID == id + 1
        )
        // A limit above 1000 counts as 1000; below 1 is a bad request
        #expect(
            try store.pull(.init(clientID: Self.clientA, cursor: "0", limit: 5_000), from: device, now: Self.now).rows
                .count == 11)
        #expect(
            refusal {
                try store.pull(.init(clientID: Self.clientA, cursor: "0", limit: 0), from: device, now: Self.now)
            }?.code == .badRequest)
    }

    func largeVersionComesWhole() throws {
        // Given: one push of 5 rows, then one of 1
        let (store, _, device) = try storeWithDevice()
        let big = try (1...5).map { try Self.put($0, "2026-12-0\($0)/fajr", at: Int64($0)) }
        _ = try store.push(.init(clientID: Self.clientA, mutations: big), from: device, now: Self.now)
        _ = try store.push(
            .init(clientID: Self.clientA, mutations: [try Self.put(6, "2026-12-09/isha", at: 9)]), from: device,
            now: Self.now)
        // When: pulled 2 at a time
        let paged = try allRows(store, device, limit: 2)
        // Then: the 5 rows of version 1 come in one page, then the last
        #expect(paged.pages.map(\.rows.count) == [5, 1])
        #expect(paged.pages.map(\.hasMore) == [true, false])
        #expect(paged.rows.count == 6)
    }

    func cursors() throws {
        // Given: two stores, each with rows
        let (store, _, device) = try storeWithDevice()
        let (other, _, otherDevice) = try storeWithDevice()
        for (store, device) in [(store, device), (other, otherDevice)] {
            _ = try store.push(.init(clientID: Self.clientA, mutations: [try Self.put(1)]), from: device, now: Self.now)
        }
        let mine = try store.pull(.init(clientID: Self.clientA, cursor: "0"), from: device, now: Self.now).cursor
        let theirs = try other.pull(.init(clientID: Self.clientA, cursor: "0"), from: otherDevice, now: Self.now).cursor
        #expect(mine != theirs)
        // Then: a cursor of the other store is expired; a malformed one is a bad request
        let expired = refusal {
            try store.pull(.init(clientID: Self.clientA, cursor: theirs), from: device, now: Self.now)
        }
        #expect(expired?.code == .cursorExpired && expired?.status == 410)
        for malformed in [
            "", "abc", "1", "-1", "x.y", ".1", "\(mine).1", String(repeating: "9", count: 40), "0.0\u{0}",
        ] {
            let error = refusal {
                try store.pull(.init(clientID: Self.clientA, cursor: malformed), from: device, now: Self.now)
            }
            #expect(error?.code == .badRequest || error?.code == .cursorExpired, "\(malformed)")
        }
        // A cursor of this store ahead of its versions (a restored backup) is expired
        let storeID = mine.split(separator: ".")[0]
        #expect(
            refusal {
                try store.pull(.init(clientID: Self.clientA, cursor: "\(storeID).99"), from: device, now: Self.now)
            }?.code == .cursorExpired)
        #expect(try store.pull(.init(clientID: Self.clientA, cursor: mine), from: device, now: Self.now).rows.isEmpty)
    }

    func anotherDevicesClientID() throws {
        // Given: client A is the phone's
        let (store, _, phone) = try storeWithDevice()
        let tablet = try pairDevice(store, name: "tablet")
        _ = try store.push(.init(clientID: Self.clientA, mutations: [try Self.put(1)]), from: phone, now: Self.now)
        // Then: the tablet may neither push nor pull as client A
        let push = refusal {
            try store.push(.init(clientID: Self.clientA, mutations: [try Self.put(2)]), from: tablet, now: Self.now)
        }
        #expect(push?.code == .forbidden && push?.status == 403)
        #expect(
            refusal { try store.pull(.init(clientID: Self.clientA, cursor: "0"), from: tablet, now: Self.now) }?.code
                == .forbidden)
        #expect(try allRows(store, phone).pages[0].lastMutationID == 1)
    }

    func replayedPush() throws {
        // Given
        let (store, _, device) = try storeWithDevice()
        let push = SyncAPI.PushRequest(
            clientID: Self.clientA,
            mutations: [
                try Self.put(1), try Self.delete(2, "2026-12-01/isha", at: 1), try Self.put(3, "fajr-angle-not-a-key"),
            ])
        // When: sent 5 times, as after dropped responses
        let responses = try (0..<5).map { _ in try store.push(push, from: device, now: Self.now) }
        // Then: one version, the same rows, the same last; the first answer alone reports the rejection
        #expect(responses.map(\.lastMutationID) == [3, 3, 3, 3, 3])
        #expect(responses[0].rejected.map(\.id) == [3] && responses.dropFirst().allSatisfy(\.rejected.isEmpty))
        let users = try store.users()
        #expect(users[0].version == 1 && users[0].rowCount == 2)
        #expect(try allRows(store, device).rows.count == 2)
    }

    func refusedPushChangesNothing() throws {
        // Given: a store with rows, two devices, and quota room for one more row
        let (store, _, phone) = try storeWithDevice(limits: SyncStoreLimits(maximumRowsPerUser: 3))
        let tablet = try pairDevice(store, name: "tablet")
        _ = try store.push(
            .init(clientID: Self.clientA, mutations: [try Self.put(1), try Self.put(2, "2026-12-01/asr", at: 1)]),
            from: phone, now: Self.now)
        let before = try snapshot(store, [phone])
        // When: pushes refused for every reason, each with changes that would apply before the refusal
        let valid = try Self.put(3, "2026-12-01/isha", at: 2)
        var tooNew = SyncAPI.PushRequest(clientID: Self.clientA, mutations: [valid])
        tooNew.schema += 1
        let refused: [(SyncAPI.PushRequest, SyncDeviceIdentity, SyncServerError.Code)] = [
            (.init(clientID: Self.clientA, mutations: [valid, try Self.put(5, at: 3)]), phone, .mutationGap),
            (
                .init(clientID: Self.clientA, mutations: [valid, try Self.put(4, at: SyncAPI.maximumClockLead + 1)]),
                phone, .clockAhead
            ),
            (
                .init(clientID: Self.clientA, mutations: [valid, try Self.put(1, status: .late)]), phone,
                .clientIDConflict
            ),
            (tooNew, phone, .upgradeRequired),
            (
                .init(clientID: Self.clientA, mutations: [valid, try Self.put(4, "2026-12-02/fajr", at: 3)]), phone,
                .tooLarge
            ),
            (.init(clientID: Self.clientA, mutations: [try Self.put(3, "2026-12-02/fajr")]), tablet, .forbidden),
            (
                .init(
                    clientID: Self.clientB,
                    mutations: [
                        try Self.put(1, "2026-12-03/fajr", client: Self.clientB), try Self.put(3, client: Self.clientB),
                    ]), phone, .mutationGap
            ),
        ]
        for (push, device, code) in refused {
            #expect(refusal { try store.push(push, from: device, now: Self.now) }?.code == code)
        }
        // Then: the store is as it was, and client B was not registered to the phone
        #expect(try snapshot(store, [phone]) == before)
        #expect(
            try store.push(.init(clientID: Self.clientB, mutations: []), from: tablet, now: Self.now).lastMutationID
                == 0)
    }

    func revokedDevice() throws {
        // Given: a device that authenticated, then was revoked
        let (store, _, device) = try storeWithDevice()
        try store.revokeDevice(device.deviceID, now: Self.now)
        // Then: its identity no longer pushes or pulls
        #expect(
            refusal {
                try store.push(.init(clientID: Self.clientA, mutations: [try Self.put(1)]), from: device, now: Self.now)
            } == SyncServerRules.unauthorized)
        #expect(
            refusal { try store.pull(.init(clientID: Self.clientA, cursor: "0"), from: device, now: Self.now) }
                == SyncServerRules.unauthorized)
        // Nor does an identity that names another user
        let forged = SyncDeviceIdentity(user: "zaid", deviceID: device.deviceID)
        #expect(
            refusal { try store.pull(.init(clientID: Self.clientA, cursor: "0"), from: forged, now: Self.now) }
                == SyncServerRules.unauthorized)
    }

    func usersAreSeparate() throws {
        // Given: two users, each with a row at the same key
        let (store, _, amina) = try storeWithDevice()
        _ = try store.addUser(named: "zaid", now: Self.now)
        let zaid = try pairDevice(store, user: "zaid", name: "laptop")
        _ = try store.push(
            .init(clientID: Self.clientA, mutations: [try Self.put(1, status: .prayed)]), from: amina, now: Self.now)
        _ = try store.push(
            .init(clientID: Self.clientB, mutations: [try Self.put(1, status: .missed, client: Self.clientB)]),
            from: zaid, now: Self.now)
        // Then: each sees their own, with their own versions
        #expect(
            try allRows(store, amina, client: Self.clientA).rows.map(\.value) == [
                .log(SyncLogValue(status: .prayed, recordedAt: Self.now))
            ])
        #expect(
            try allRows(store, zaid, client: Self.clientB).rows.map(\.value) == [
                .log(SyncLogValue(status: .missed, recordedAt: Self.now))
            ])
        #expect(try store.users().map(\.version) == [1, 1])
    }
}
