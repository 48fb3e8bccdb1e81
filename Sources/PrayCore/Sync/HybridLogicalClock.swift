import Synchronization
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A hybrid logical clock stamp (SYNC.md §2): `<15-digit ms since 1970>:<4-digit counter>:<client ID>`,
/// fixed width, so that comparing the text bytewise orders stamps as time, then counter, then client.
///
/// ```swift
/// let stamp = try HLC(parsing: "001795953600000:0000:c_0123456789abcdef0123456789abcdef")
/// print(stamp.milliseconds, stamp.counter)   // 1795953600000 0
/// ```
public struct HLC: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// Milliseconds since 1970, UTC.
    public let milliseconds: Int64
    /// Orders stamps of the same millisecond.
    public let counter: Int
    /// The client that made the stamp.
    public let clientID: String

    /// The largest counter; a write past it waits for the next millisecond.
    public static let maximumCounter = 9_999

    /// Creates a stamp.
    /// - Throws: ``ValidationError`` for a time outside 0…10^15 − 1 ms, a counter outside 0…9999, or
    ///   a client ID that is not `c_` and 32 lowercase hex digits.
    public init(milliseconds: Int64, counter: Int, clientID: String) throws(ValidationError) {
        guard (0...999_999_999_999_999).contains(milliseconds) else {
            throw ValidationError(field: "hlc", message: "hlc time must be within 15 digits of milliseconds")
        }
        guard (0...Self.maximumCounter).contains(counter) else {
            throw ValidationError(field: "hlc", message: "hlc counter must be 0…9999, got \(counter)")
        }
        guard SyncID.isClientID(clientID) else {
            throw ValidationError(field: "hlc", message: "hlc client must be c_ and 32 hex digits")
        }
        self.milliseconds = milliseconds
        self.counter = counter
        self.clientID = clientID
    }

    /// A stamp of values already checked (a clock's own arithmetic).
    fileprivate init(checkedMilliseconds milliseconds: Int64, counter: Int, clientID: String) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.clientID = clientID
    }

    /// Reads a stamp's text.
    /// - Throws: ``ValidationError`` for anything but the fixed-width form.
    public init(parsing text: String) throws(ValidationError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 15, parts[1].count == 4,
            parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit),
            let milliseconds = Int64(parts[0]), let counter = Int(parts[1])
        else {
            throw ValidationError(field: "hlc", message: "hlc must look like <15-digit ms>:<4-digit counter>:c_…")
        }
        try self.init(milliseconds: milliseconds, counter: counter, clientID: String(parts[2]))
    }

    /// The fixed-width text: `001795953600000:0000:c_…`.
    public var description: String {
        let time = String(milliseconds)
        let count = String(counter)
        return String(repeating: "0", count: 15 - time.count) + time + ":"
            + String(repeating: "0", count: 4 - count.count) + count + ":" + clientID
    }

    /// Orders by time, then counter, then client — the order of the text.
    public static func < (lhs: HLC, rhs: HLC) -> Bool {
        (lhs.milliseconds, lhs.counter, lhs.clientID) < (rhs.milliseconds, rhs.counter, rhs.clientID)
    }

    /// Decodes the text form.
    /// - Throws: `DecodingError` for a malformed stamp.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Encodes the text form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// Makes HLC stamps for one client (SYNC.md §2): each write takes `max(physical, floor)`; a write in
/// the same millisecond bumps the counter; physical time is the clock plus the offset learned from the
/// server; every stamp seen from others raises the floor, so a write made after seeing a change
/// orders after it whatever the clocks say.
///
/// ```swift
/// let clock = try HLCClock(clientID: "c_…", now: { Date() })
/// let stamp = clock.next()
/// clock.observe(try HLC(parsing: pulled.hlc))
/// ```
public final class HLCClock: Sendable {
    /// The client whose stamps these are.
    public let clientID: String
    private let now: @Sendable () -> Date
    private let state: Mutex<(last: HLC?, offset: Int64)>

    /// Creates a clock.
    /// - Parameters:
    ///   - clientID: The client ID in the stamps.
    ///   - now: The wall clock (injected in tests).
    ///   - last: The last stamp this client made or saw (from storage), if any.
    ///   - offsetMilliseconds: The server's time minus this machine's, learned from `serverTime`.
    /// - Throws: ``ValidationError`` for a client ID that is not `c_` and 32 hex digits.
    public init(
        clientID: String, now: @escaping @Sendable () -> Date, last: HLC? = nil, offsetMilliseconds: Int64 = 0
    ) throws(ValidationError) {
        guard SyncID.isClientID(clientID) else {
            throw ValidationError(field: "clientID", message: "a client ID is c_ and 32 lowercase hex digits")
        }
        self.clientID = clientID
        self.now = now
        state = Mutex((last, offsetMilliseconds))
    }

    /// The physical time: the wall clock plus the server's offset, milliseconds.
    public var physicalMilliseconds: Int64 {
        let offset = state.withLock { $0.offset }
        return Int64((now().timeIntervalSince1970 * 1000).rounded(.down)) + offset
    }

    /// The next stamp: after every stamp made or seen.
    public func next() -> HLC {
        let physical = physicalMilliseconds
        return state.withLock { state in
            var milliseconds = max(physical, state.last?.milliseconds ?? 0)
            var counter = 0
            if let last = state.last, last.milliseconds == milliseconds {
                counter = last.counter + 1
                if counter > HLC.maximumCounter {
                    milliseconds += 1
                    counter = 0
                }
            }
            // In range by construction: the time stays within 15 digits for 30,000 years, the counter
            // wraps into the next millisecond, and the client ID was checked when the clock was made.
            let stamp = HLC(checkedMilliseconds: max(0, milliseconds), counter: counter, clientID: clientID)
            state.last = stamp
            return stamp
        }
    }

    /// Raises the floor to a stamp seen from elsewhere (a pulled row).
    public func observe(_ stamp: HLC) {
        state.withLock { state in
            if let last = state.last, last >= stamp { return }
            // Keep this client's ID: the floor is the time and counter seen.
            state.last = HLC(checkedMilliseconds: stamp.milliseconds, counter: stamp.counter, clientID: clientID)
        }
    }

    /// The last stamp made or seen, to keep across restarts.
    public var last: HLC? { state.withLock { $0.last } }

    /// Learns the server's offset from a reply: `serverTime` at about half the round trip.
    /// - Parameters:
    ///   - serverTime: The server's time in the reply.
    ///   - sent: When the request left, on this clock.
    ///   - received: When the reply arrived, on this clock.
    public func learnOffset(serverTime: Date, sent: Date, received: Date) {
        let middle = sent.timeIntervalSince1970 + received.timeIntervalSince(sent) / 2
        let offset = Int64(((serverTime.timeIntervalSince1970 - middle) * 1000).rounded())
        state.withLock { $0.offset = offset }
    }

    /// The server's time minus this machine's, milliseconds.
    public var offsetMilliseconds: Int64 { state.withLock { $0.offset } }
}
