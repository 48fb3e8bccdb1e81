import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The server's rules of sync that do not depend on where rows are kept (SYNC.md §3, §7): the shape
/// of tokens, pairing codes, device IDs and cursors, the checks on a push and a pull, how a push is
/// planned against a client's last mutation, and where a page ends. Every store uses this one copy,
/// so SQLite and PostgreSQL answer alike.
package enum SyncServerRules {
    /// Device tokens begin with this.
    package static let tokenScheme = "pkd_"
    /// Random bytes in a token: 256 bits.
    package static let tokenBytes = 32
    /// Characters of a token after `pkd_` that the store keeps in the clear to find it (48 bits,
    /// useless without the other 208).
    package static let tokenLookupLength = 8
    /// A pairing code's alphabet: 32 symbols without the look-alikes 0, O, 1 and I.
    package static let pairingAlphabet = Array("23456789ABCDEFGHJKLMNPQRSTUVWXYZ".utf8)
    /// Characters of a pairing code: 10 of 32 symbols, 50 bits.
    package static let pairingCodeLength = 10
    /// Characters of a pairing code that attempts are counted against (per code).
    package static let pairingLookupLength = 2
    /// The longest user name.
    package static let maximumUserNameLength = 64
    /// The longest device name, characters.
    package static let maximumDeviceNameLength = 100

    /// The one refusal of a missing, malformed, unknown or revoked token: the same for each, so an
    /// answer tells nothing about which.
    package static let unauthorized = SyncServerError(
        .unauthorized, message: "the device token is missing, unknown or revoked: log in again with a new pairing code")

    /// The one refusal of a wrong, expired or used pairing code.
    package static let wrongPairingCode = SyncServerError(
        .unauthorized,
        message: "the pairing code is wrong, expired or already used: ask the administrator for a new one")

    // MARK: - Secrets and identifiers

    /// A new device token: `pkd_` and 256 random bits in base64url (43 characters).
    package static func newToken<G: RandomNumberGenerator>(using generator: inout G) -> String {
        tokenScheme + Base64URL.encode(randomBytes(tokenBytes, using: &generator))
    }

    /// The lookup prefix of a well-formed token, or `nil` for anything else (a wrong scheme,
    /// length or character).
    package static func tokenLookup(_ token: String) -> String? {
        let body = token.utf8.dropFirst(tokenScheme.utf8.count)
        guard token.utf8.starts(with: tokenScheme.utf8), body.count == (tokenBytes * 4 + 2) / 3,
            let text = String(body), Base64URL.decode(text)?.count == tokenBytes
        else { return nil }
        return String(text.prefix(tokenLookupLength))
    }

    /// A new pairing code, `ABCDE-FGHJK`.
    package static func newPairingCode<G: RandomNumberGenerator>(using generator: inout G) -> String {
        var symbols = (0..<pairingCodeLength).map { _ in
            pairingAlphabet[Int.random(in: 0..<pairingAlphabet.count, using: &generator)]
        }
        symbols.insert(UInt8(ascii: "-"), at: pairingCodeLength / 2)
        return String(decoding: symbols, as: UTF8.self)
    }

    /// A code as typed, in its stored form: upper case, without spaces and hyphens; `nil` when it is
    /// not 10 symbols of the alphabet.
    package static func normalizedPairingCode(_ text: String) -> String? {
        guard text.utf8.count <= 64 else { return nil }
        let symbols = text.uppercased().utf8.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "-") }
        guard symbols.count == pairingCodeLength, symbols.allSatisfy(pairingAlphabet.contains) else { return nil }
        return String(decoding: symbols, as: UTF8.self)
    }

    /// A new device ID: `d_` and 128 random bits in hex.
    package static func newDeviceID<G: RandomNumberGenerator>(using generator: inout G) -> String {
        "d_" + SyncID.hex(count: 16, using: &generator)
    }

    /// `count` random bytes.
    package static func randomBytes<G: RandomNumberGenerator>(_ count: Int, using generator: inout G) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        return Array(bytes.prefix(count))
    }

    // MARK: - Names

    /// Checks a user name: 1 to 64 ASCII letters, digits, `.`, `_` or `-`, not starting with `-`.
    /// - Throws: ``SyncServerError`` `bad_request`.
    package static func checkUserName(_ name: String) throws(SyncServerError) {
        let allowed = name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        guard allowed, (1...maximumUserNameLength).contains(name.utf8.count), !name.hasPrefix("-") else {
            throw SyncServerError(
                .badRequest,
                message: "a user name has 1 to \(maximumUserNameLength) letters, digits, '.', '_' or '-' "
                    + "and does not start with '-'")
        }
    }

    /// A device name without its surrounding spaces.
    /// - Throws: ``SyncServerError`` `bad_request` for an empty name, one of more than 100
    ///   characters, or one with control or bidirectional formatting characters.
    package static func checkedDeviceName(_ name: String) throws(SyncServerError) -> String {
        let trimmed = name.trimmingWhitespace()
        let unsafe = trimmed.unicodeScalars.contains { scalar in
            scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value)
                || (0x2066...0x2069).contains(scalar.value) || [0x200E, 0x200F, 0x061C].contains(scalar.value)
        }
        guard !trimmed.isEmpty, trimmed.count <= maximumDeviceNameLength, !unsafe else {
            throw SyncServerError(
                .badRequest,
                message: "a device name has 1 to \(maximumDeviceNameLength) characters, without control or "
                    + "bidirectional formatting characters")
        }
        return trimmed
    }

    // MARK: - Cursors

    /// The opaque cursor of a store's version: `<store ID>.<version>`, so that a cursor of another
    /// store is recognised.
    package static func cursor(storeID: String, version: Int64) -> String {
        "\(storeID).\(version)"
    }

    /// The version a cursor stands for: 0 for `"0"` (the beginning).
    /// - Throws: ``SyncServerError`` `bad_request` for a malformed cursor, `cursor_expired` for one of
    ///   another store or one past `latest` (a store restored from an older backup).
    package static func version(ofCursor cursor: String, storeID: String, latest: Int64) throws(SyncServerError)
        -> Int64
    {
        if cursor == "0" { return 0 }
        let parts = cursor.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...64).contains(parts[0].utf8.count), (1...18).contains(parts[1].utf8.count),
            parts[0].utf8.allSatisfy(isIdentifierByte), parts[1].utf8.allSatisfy(isDigit),
            let version = Int64(parts[1])
        else {
            throw SyncServerError(.badRequest, message: "the cursor is malformed: send \"0\" or the last page's cursor")
        }
        guard parts[0] == storeID, version <= latest else {
            throw SyncServerError(
                .cursorExpired, message: "the cursor is not one this server gave: pull again from \"0\"")
        }
        return version
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-")
    }

    // MARK: - Requests

    /// Checks what a push or a pull says of itself before anything is read.
    /// - Throws: ``SyncServerError``: `upgrade_required` for a protocol or schema newer than the
    ///   server's, `bad_request` for an older one or a malformed client ID.
    package static func checkVersions(protocol: Int, schema: Int, clientID: String) throws(SyncServerError) {
        guard `protocol` <= SyncAPI.protocolVersion, schema <= SyncAPI.schemaVersion else {
            throw SyncServerError(
                .upgradeRequired,
                message: "this server speaks protocol \(SyncAPI.protocolVersion) and schema \(SyncAPI.schemaVersion), "
                    + "older than the client's: update the server; the changes wait on the device")
        }
        guard `protocol` >= 1, schema >= 1 else {
            throw SyncServerError(.badRequest, message: "protocol and schema are 1 or more")
        }
        guard SyncID.isClientID(clientID) else {
            throw SyncServerError(.badRequest, message: "a client ID is c_ and 32 lowercase hex digits")
        }
    }

    /// Checks a push's own shape.
    /// - Throws: ``SyncServerError``: as ``checkVersions(protocol:schema:clientID:)``, or `too_large`
    ///   for more than ``SyncAPI/maximumMutationsPerPush`` mutations.
    package static func check(_ push: SyncAPI.PushRequest) throws(SyncServerError) {
        try checkVersions(protocol: push.protocol, schema: push.schema, clientID: push.clientID)
        guard push.mutations.count <= SyncAPI.maximumMutationsPerPush else {
            throw SyncServerError(
                .tooLarge,
                message: "a push carries at most \(SyncAPI.maximumMutationsPerPush) mutations, this one "
                    + "\(push.mutations.count): send them in several pushes")
        }
    }

    /// Checks a pull's own shape.
    /// - Returns: The limit to use: the request's, at most ``SyncAPI/maximumPullLimit``.
    /// - Throws: ``SyncServerError``: as ``checkVersions(protocol:schema:clientID:)``, or
    ///   `bad_request` for a limit below 1.
    package static func check(_ pull: SyncAPI.PullRequest) throws(SyncServerError) -> Int {
        try checkVersions(protocol: pull.protocol, schema: pull.schema, clientID: pull.clientID)
        guard pull.limit >= 1 else { throw SyncServerError(.badRequest, message: "the limit is 1 or more") }
        return min(pull.limit, SyncAPI.maximumPullLimit)
    }

    // MARK: - Pushes

    /// One mutation a push applies: the next ID of the client.
    package struct Step: Sendable {
        /// The mutation.
        package let mutation: SyncAPI.Mutation
        /// Why it is refused, or `nil` when it is applied by the merge rule.
        package let rejection: String?
        /// Its payload hash, kept for `client_id_conflict`.
        package let payloadHash: String
    }

    /// What a push does, decided before anything is written.
    package struct PushPlan: Sendable {
        /// The mutations past the client's last, in order.
        package let steps: [Step]
        /// The client's last mutation ID after the push.
        package let lastMutationID: Int
    }

    /// Plans a push against the client's last mutation (SYNC.md §3).
    /// - Parameters:
    ///   - push: The push, already checked with `check(_:)`.
    ///   - last: The client's last mutation ID in the store.
    ///   - storedHash: The payload hash kept for a mutation ID of this client, if any.
    ///   - now: The server's clock.
    /// - Throws: ``SyncServerError``: `bad_request` for an ID below 1, `client_id_conflict`,
    ///   `mutation_gap` (with the stored last), `clock_ahead` (with the server's time); or what
    ///   `storedHash` throws.
    package static func plan(
        _ push: SyncAPI.PushRequest, last: Int, storedHash: (Int) throws -> String?, now: Date
    ) throws -> PushPlan {
        var current = last
        var steps: [Step] = []
        let limit = milliseconds(now) + SyncAPI.maximumClockLead
        for mutation in push.mutations {
            guard mutation.id >= 1 else {
                throw SyncServerError(.badRequest, message: "mutation IDs begin at 1, got \(mutation.id)")
            }
            let hash = payloadHash(mutation)
            if mutation.id <= current {
                let known = mutation.id > last ? steps[mutation.id - last - 1].payloadHash : try storedHash(mutation.id)
                if let known, known != hash {
                    throw SyncServerError(
                        .clientIDConflict,
                        message: "mutation \(mutation.id) of this client was applied with another payload: the client "
                            + "ID is being reused; log in again to get a new one")
                }
                continue
            }
            guard mutation.id == current + 1 else {
                throw SyncServerError(
                    .mutationGap,
                    message: "mutation \(mutation.id) is not the next one: the server has this client's "
                        + "mutations up to \(last); push again from \(last + 1)", lastMutationID: last)
            }
            guard mutation.hlc.milliseconds <= limit else {
                throw SyncServerError(
                    .clockAhead,
                    message: "mutation \(mutation.id) is stamped more than 5 minutes ahead of the server's clock: "
                        + "correct the offset from serverTime and stamp it again", serverTime: SyncAPI.timestamp(now))
            }
            let refusal =
                mutation.collection.schema > push.schema
                ? "the collection \(mutation.collection) is not part of schema \(push.schema)"
                : mutation.hlc.clientID != push.clientID ? foreignStamp : rejection(of: mutation)
            steps.append(Step(mutation: mutation, rejection: refusal, payloadHash: hash))
            current += 1
        }
        return PushPlan(steps: steps, lastMutationID: current)
    }

    /// Why a mutation is refused by the validators, or `nil` when it is valid: the validator's words
    /// without the values pushed (``redactedReason(_:of:)``).
    package static func rejection(of mutation: SyncAPI.Mutation) -> String? {
        if mutation.op == .put, mutation.value == nil { return "a put carries a value" }
        do {
            try SyncRules.validate(
                collection: mutation.collection, key: mutation.key, value: mutation.op == .put ? mutation.value : nil)
            return nil
        } catch {
            return redactedReason(error.message, of: mutation)
        }
    }

    /// The SHA-256 of a mutation's canonical JSON (keys sorted), in hex: the same payload always
    /// hashes alike, whatever order or spacing the client sent.
    package static func payloadHash(_ mutation: SyncAPI.Mutation) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding cannot fail for a decoded mutation (JSON has no NaN); the description is a
        // deterministic fallback all the same.
        let bytes = (try? encoder.encode(mutation)).map(Array.init) ?? Array("\(mutation)".utf8)
        return SHA256.hex(SHA256.hash(bytes))
    }

    // MARK: - Pages

    /// Where a page ends.
    package enum PageCut: Hashable, Sendable {
        /// The first `count` rows read, and no more follow.
        case last(count: Int)
        /// The first `count` rows read, and more follow.
        case more(count: Int)
        /// The rows of this one version, which alone is larger than the limit: all of them.
        case wholeVersion(Int64)
    }

    /// Where a page ends, given the versions of the first `limit + 1` rows after the cursor in
    /// version order: never inside a version.
    package static func pageCut(versions: [Int64], limit: Int) -> PageCut {
        guard versions.count > limit, limit >= 1 else { return .last(count: versions.count) }
        let boundary = versions[limit - 1]
        if versions[limit] != boundary { return .more(count: limit) }
        let first = versions.firstIndex(of: boundary) ?? 0
        return first > 0 ? .more(count: first) : .wholeVersion(boundary)
    }

    // MARK: - Time

    /// Milliseconds since 1970, as stored.
    package static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded(.down)
        return value.isFinite ? Int64(max(-9e15, min(9e15, value))) : 0
    }

    /// The date of stored milliseconds.
    package static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Whole seconds from `now` until a failure window that began at `start` ends (at least 1).
    package static func retryAfter(windowStart start: Int64, window: TimeInterval, now: Date) -> Int {
        let end = Double(start) / 1000 + window
        return max(1, Int((end - now.timeIntervalSince1970).rounded(.up)))
    }
}
