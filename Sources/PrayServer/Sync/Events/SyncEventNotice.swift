import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What one server tells the others about the event streams they hold (SYNC.md §9, "Several
/// servers"): sent as the payload of a PostgreSQL `NOTIFY` on ``channel``, heard by every server's
/// listener. It says what a stream would say — a space's ID and version, a device's ID — and never
/// a row, a token or a name.
///
/// The payload is compact JSON: `{"k":"changed","o":"srv_…","d":"d_…","v":{"s_…":"9f3c….7"}}`
/// (`k` the kind, `o` the server that sent it, `d` the device, `s` a space, `v` versions). One notice
/// is at most ``maximumPayloadBytes``; a change of more spaces than fit is split over several
/// (``payloads()``), and a payload that cannot be read is taken as ``Kind/reread``.
struct SyncEventNotice: Equatable, Sendable {
    /// What happened.
    enum Kind: String, Sendable {
        /// A push changed the spaces of ``versions`` (their new versions), made by ``device``.
        case changed
        /// The members of ``space`` changed, or it was deleted (``space`` `nil`: only the spaces of
        /// ``device`` changed, which made or joined one).
        case members
        /// ``device`` retired or was revoked: its streams end.
        case ended
        /// Something changed that the notice cannot say: every server reads the versions of the spaces
        /// its streams follow again, and sends those that moved.
        case reread
    }

    /// The channel every server listens on (one per database: the servers of one store).
    static let channel = "praykit_sync_events"
    /// The most bytes of one payload: PostgreSQL's limit is 8,000 bytes; a little is left spare.
    static let maximumPayloadBytes = 7_900

    let kind: Kind
    /// The server that sent it (``SyncEvents``' own ID), so that it skips its own; empty from a
    /// command (`serve sync devices revoke`), which every server hears.
    let origin: String
    /// The device that made the change, or whose streams end; empty for ``Kind/reread``.
    let device: String
    /// The space whose members changed (``Kind/members``).
    let space: String?
    /// The spaces changed and their versions, as pull cursors (``Kind/changed``).
    let versions: [String: String]

    init(
        _ kind: Kind, origin: String, device: String = "", space: String? = nil, versions: [String: String] = [:]
    ) {
        self.kind = kind
        self.origin = origin
        self.device = device
        self.space = space
        self.versions = versions
    }

    // MARK: - Payloads

    /// The payloads of this notice: one, or a change of many spaces split into several, each at most
    /// ``maximumPayloadBytes``. A space whose entry alone would not fit (IDs are short: never in
    /// practice) makes the whole notice a ``Kind/reread`` instead.
    func payloads() -> [String] {
        let whole = payload(versions: versions)
        guard whole.utf8.count > Self.maximumPayloadBytes else { return [whole] }
        var payloads: [String] = []
        var part: [String: String] = [:]
        for (space, version) in versions.sorted(by: { $0.key < $1.key }) {
            var larger = part
            larger[space] = version
            if payload(versions: larger).utf8.count <= Self.maximumPayloadBytes {
                part = larger
                continue
            }
            guard !part.isEmpty, payload(versions: [space: version]).utf8.count <= Self.maximumPayloadBytes else {
                return [SyncEventNotice(.reread, origin: origin).payload(versions: [:])]
            }
            payloads.append(payload(versions: part))
            part = [space: version]
        }
        if !part.isEmpty { payloads.append(payload(versions: part)) }
        return payloads
    }

    private func payload(versions: [String: String]) -> String {
        var members: [(String, JSONValue)] = [("k", .string(kind.rawValue)), ("o", .string(origin))]
        if !device.isEmpty { members.append(("d", .string(device))) }
        if let space { members.append(("s", .string(space))) }
        if !versions.isEmpty {
            members.append(("v", .object(versions.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        return String(decoding: JSONValue.object(members).renderedBytes, as: UTF8.self)
    }

    /// The notice of a payload another server sent. A payload that is not one, or whose IDs and
    /// versions are not of the forms a server sends (they go into event streams as they are), is a
    /// ``Kind/reread`` from nobody: whatever it meant, reading the versions again loses nothing.
    init(payload: String) {
        struct Wire: Decodable {
            let k: String
            let o: String
            let d: String?
            let s: String?
            let v: [String: String]?
        }
        guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(payload.utf8)),
            let kind = Kind(rawValue: wire.k), Self.isIdentifier(wire.o, allowingEmpty: true),
            Self.isIdentifier(wire.d ?? "", allowingEmpty: true), wire.s.map(SyncID.isSpaceID) ?? true,
            (wire.v ?? [:]).allSatisfy({ SyncID.isSpaceID($0.key) && Self.version(of: $0.value) != nil })
        else {
            self.init(.reread, origin: "")
            return
        }
        self.init(kind, origin: wire.o, device: wire.d ?? "", space: wire.s, versions: wire.v ?? [:])
    }

    /// Whether `text` is an ID a server makes (`d_…`, `srv_…`): letters, digits and `_`, at most 64.
    private static func isIdentifier(_ text: String, allowingEmpty: Bool) -> Bool {
        (allowingEmpty || !text.isEmpty) && text.utf8.count <= 64
            && text.utf8.allSatisfy {
                $0 == UInt8(ascii: "_") || (48...57).contains($0) || (65...90).contains($0)
                    || (97...122).contains($0)
            }
    }

    /// The version a cursor (`<store ID>.<version>`) stands for, or `nil` when `cursor` is not one.
    static func version(of cursor: String) -> Int64? {
        let parts = cursor.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...64).contains(parts[0].utf8.count), (1...18).contains(parts[1].utf8.count),
            parts[0].utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
            parts[1].utf8.allSatisfy({ (48...57).contains($0) })
        else { return nil }
        return Int64(parts[1])
    }
}
