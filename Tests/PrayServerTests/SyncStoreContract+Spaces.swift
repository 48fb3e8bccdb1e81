import Foundation
import PrayCore
import PrayMocks
import PrayServer
import Testing

// MARK: - Spaces (protocol 2, SYNC.md §8: I13, I14, I16)

extension SyncStoreContract {
    /// The cases of spaces, roles and invitations.
    static let spaceCases: [SyncStoreContractCase] = [
        .init(name: "spaces: a mosque is made and read by its members only (I13)", run: { try $0.mosqueIsPrivate() }),
        .init(
            name: "spaces: invitations give roles once; viewers write nothing", run: { try $0.invitationsAndRoles() }),
        .init(name: "spaces: a follow code pairs a device to one space", run: { try $0.followCodes() }),
        .init(name: "spaces: removal and deletion answer gone (I14)", run: { try $0.removalAndDeletion() }),
        .init(name: "spaces: versions per space, collections per kind (I16)", run: { try $0.versionsPerSpace() }),
        .init(name: "spaces: a protocol 1 client keeps its personal space", run: { try $0.protocolOneClient() }),
    ]

    // MARK: - Helpers

    static let clientC = "c_cccccccccccccccccccccccccccccccc"

    /// The mosque settings used in these cases.
    static let settings = SyncMosqueSettingsValue(
        latitude: 51.5177, longitude: -0.0653, timeZone: "Europe/London", iqama: ["asr": "+10"], jumuah: [780])

    /// A put of the mosque's settings in `space`.
    static func putSettings(
        _ id: Int, in space: String?, at milliseconds: Int64 = 0, asr: String = "+10", client: String = clientA
    ) throws -> SyncAPI.Mutation {
        var value = settings
        value.iqama["asr"] = asr
        return SyncAPI.Mutation(
            id: id, collection: .mosqueSettings, key: "settings", op: .put,
            hlc: try stamp(milliseconds, client: client),
            value: .mosqueSettings(value), space: space)
    }

    /// The answer's space, or a failed expectation.
    func space(_ answer: SyncSpaceAnswer) throws -> SyncSpace {
        guard case .space(let space) = answer else { throw SpaceAnswerError(answer: answer) }
        return space
    }

    /// The code of an invitation.
    func invite(
        _ store: any SyncStore, _ device: SyncDeviceIdentity, to space: String, as role: SyncRole,
        expiresIn: Int = SyncAPI.defaultInvitationLifetime
    ) throws -> String {
        let answer = try store.space(
            .invite(.init(space: space, role: role, expiresIn: expiresIn)), from: device, address: Self.address,
            now: Self.now)
        guard case .invitation(let invitation) = answer else { throw SpaceAnswerError(answer: answer) }
        return invitation.code
    }

    /// A person `name` with a paired device.
    func person(_ store: any SyncStore, _ name: String) throws -> SyncDeviceIdentity {
        let code = try store.addUser(named: name, now: Self.now)
        let paired = try store.pair(.init(code: code.code, deviceName: "phone"), address: Self.address, now: Self.now)
        return try store.authenticate(token: paired.token, address: Self.address, now: Self.now)
    }

    /// One page of `space` from its start for `device`.
    func pullSpace(
        _ store: any SyncStore, _ device: SyncDeviceIdentity, _ space: String, client: String, cursor: String = "0"
    ) throws -> SyncAPI.SpacePage {
        let pulled = try store.pull(
            .init(clientID: client, cursor: "0", spaces: [space: cursor]), from: device, now: Self.now)
        return try #require(pulled.spaces?.first)
    }

    /// The spaces `device` lists.
    func listed(_ store: any SyncStore, _ device: SyncDeviceIdentity) throws -> [SyncSpace] {
        guard case .spaces(let answer) = try store.space(.list, from: device, address: Self.address, now: Self.now)
        else { return [] }
        return answer.spaces
    }

    // MARK: - Cases

    func mosqueIsPrivate() throws {
        let (store, _, amina) = try storeWithDevice()
        let bilal = try person(store, "bilal")
        let mosque = try space(
            try store.space(
                .create(.init(name: "East London Mosque")), from: amina, address: Self.address, now: Self.now))
        #expect(mosque.kind == .mosque && mosque.role == .owner && SyncID.isSpaceID(mosque.id))
        let spaces = try listed(store, amina)
        #expect(spaces.map(\.kind) == [.personal, .mosque] && spaces.last == mosque)
        let pushed = try store.push(
            .init(clientID: Self.clientA, mutations: [try Self.putSettings(1, in: mosque.id)]), from: amina,
            now: Self.now)
        #expect(pushed.rejected.isEmpty)
        let page = try pullSpace(store, amina, mosque.id, client: Self.clientA)
        #expect(!page.gone && page.role == .owner && page.rows.map(\.row.collection) == [.mosqueSettings])
        // Another user: the mosque's ID, a forged one, a malformed one and amina's personal space all
        // answer alike, and the mosque's row is never written by a non-member.
        let personal = try #require(spaces.first?.id)
        for forged in [mosque.id, "s_0000000000000000", "not-a-space", personal] {
            let other = try pullSpace(store, bilal, forged, client: Self.clientB, cursor: "x.99")
            #expect(other.gone && other.rows.isEmpty && other.role == nil && other.space == forged)
        }
        let refused = try store.push(
            .init(
                clientID: Self.clientB,
                mutations: [
                    try Self.putSettings(1, in: mosque.id, at: 10, asr: "+30", client: Self.clientB),
                    try Self.putSettings(2, in: personal, at: 10, client: Self.clientB),
                ]), from: bilal, now: Self.now)
        #expect(refused.lastMutationID == 2 && refused.rejected.map(\.code) == [.notAMember, .notAMember])
        #expect(
            refusal {
                try store.space(.members(.init(space: mosque.id)), from: bilal, address: Self.address, now: Self.now)
            }?.code == .notAMember)
        #expect(
            try pullSpace(store, amina, mosque.id, client: Self.clientA).rows.first?.row.value
                == .mosqueSettings(Self.settings))
        #expect(try listed(store, bilal).map(\.kind) == [.personal])
        #expect(try store.spaces().map(\.name) == ["East London Mosque"])
        #expect(try store.users().map(\.name) == ["amina", "bilal"])
    }

    func invitationsAndRoles() throws {
        let (store, _, owner) = try storeWithDevice()
        let editor = try person(store, "bilal")
        let viewer = try person(store, "carol")
        let mosque = try space(
            try store.space(.create(.init(name: "Masjid al-Noor")), from: owner, address: Self.address, now: Self.now))
        let editorCode = try invite(store, owner, to: mosque.id, as: .editor)
        #expect(
            try space(
                try store.space(.join(.init(code: editorCode)), from: editor, address: Self.address, now: Self.now)
            ).role == .editor)
        // A code works once.
        #expect(
            refusal {
                try store.space(.join(.init(code: editorCode)), from: viewer, address: Self.address, now: Self.now)
            }?.code == .unauthorized)
        // An editor invites viewers only; a viewer invites no one.
        #expect(refusal { try invite(store, editor, to: mosque.id, as: .editor) }?.code == .readOnly)
        let viewerCode = try invite(store, editor, to: mosque.id, as: .viewer)
        #expect(
            try space(
                try store.space(
                    .join(.init(code: viewerCode.lowercased())), from: viewer, address: Self.address, now: Self.now)
            ).role == .viewer)
        #expect(refusal { try invite(store, viewer, to: mosque.id, as: .viewer) }?.code == .readOnly)
        #expect(
            refusal {
                try store.space(.members(.init(space: mosque.id)), from: viewer, address: Self.address, now: Self.now)
            }?.code == .readOnly)
        // The editor writes; the viewer's write is refused by itself and still advances its last.
        let written = try store.push(
            .init(
                clientID: Self.clientB,
                mutations: [try Self.putSettings(1, in: mosque.id, asr: "+15", client: Self.clientB)]),
            from: editor, now: Self.now)
        #expect(written.rejected.isEmpty)
        let refused = try store.push(
            .init(
                clientID: Self.clientC,
                mutations: [try Self.putSettings(1, in: mosque.id, at: 5, asr: "+45", client: Self.clientC)]),
            from: viewer, now: Self.now)
        #expect(refused.lastMutationID == 1 && refused.rejected.map(\.code) == [.readOnly])
        let page = try pullSpace(store, viewer, mosque.id, client: Self.clientC)
        #expect(page.role == .viewer)
        #expect(page.rows.first?.row.value?.payload(as: SyncMosqueSettingsValue.self)?.iqama["asr"] == "+15")
        guard
            case .members(let members) = try store.space(
                .members(.init(space: mosque.id)), from: editor, address: Self.address, now: Self.now)
        else {
            Issue.record("no members")
            return
        }
        #expect(members.members.map(\.user) == ["amina", "bilal", "carol"])
        #expect(members.members.map(\.role) == [.owner, .editor, .viewer])
        // The operator's view is the same; a person's own space, an unknown and a malformed ID have none.
        #expect(try store.members(ofSpace: mosque.id) == members.members)
        let personal = try listed(store, owner).first { $0.kind == .personal }
        for id in [personal?.id ?? "", "s_0000000000000000", "s_' OR 1=1 --"] {
            #expect(try store.members(ofSpace: id) == nil, "\(id)")
        }
        // Lifetimes are 15 minutes to 7 days, and a code expires.
        #expect(refusal { try invite(store, owner, to: mosque.id, as: .viewer, expiresIn: 60) }?.code == .badRequest)
        #expect(
            refusal { try invite(store, owner, to: mosque.id, as: .viewer, expiresIn: 8 * 86_400) }?.code == .badRequest
        )
        let short = try invite(store, owner, to: mosque.id, as: .viewer, expiresIn: 900)
        let dana = try person(store, "dana")
        #expect(
            refusal {
                try store.space(
                    .join(.init(code: short)), from: dana, address: Self.address, now: Self.now.addingTimeInterval(901))
            }?.code == .unauthorized)
        // A pairing code is not an invitation.
        let pairing = try store.newPairingCode(forUser: "dana", now: Self.now)
        #expect(
            refusal {
                try store.space(.join(.init(code: pairing.code)), from: dana, address: Self.address, now: Self.now)
            }?.code == .unauthorized)
    }

    func followCodes() throws {
        let (store, _, owner) = try storeWithDevice()
        let mosque = try space(
            try store.space(.create(.init(name: "Masjid al-Noor")), from: owner, address: Self.address, now: Self.now))
        let other = try space(
            try store.space(.create(.init(name: "Another Mosque")), from: owner, address: Self.address, now: Self.now))
        _ = try store.push(
            .init(clientID: Self.clientA, mutations: [try Self.putSettings(1, in: mosque.id)]), from: owner,
            now: Self.now)
        // An editor's code pairs no device; a viewer's pairs a follower of that space alone.
        let editorCode = try invite(store, owner, to: mosque.id, as: .editor)
        #expect(
            refusal {
                try store.pair(.init(code: editorCode, deviceName: "screen"), address: Self.address, now: Self.now)
            }?.code == .unauthorized)
        let code = try invite(store, owner, to: mosque.id, as: .viewer)
        let paired = try store.pair(
            .init(code: code, deviceName: "screen by the door"), address: Self.address, now: Self.now)
        #expect(paired.space == SyncSpace(id: mosque.id, kind: .mosque, name: "Masjid al-Noor", role: .viewer))
        #expect(paired.user.hasPrefix("follower/"))
        let screen = try store.authenticate(token: paired.token, address: Self.address, now: Self.now)
        #expect(try listed(store, screen) == [paired.space])
        #expect(try pullSpace(store, screen, mosque.id, client: Self.clientC).rows.count == 1)
        #expect(try pullSpace(store, screen, other.id, client: Self.clientC).gone)
        // It writes nothing, in its space or its own, and makes or joins no space.
        let pushed = try store.push(
            .init(
                clientID: Self.clientC,
                mutations: [
                    try Self.put(1, client: Self.clientC), try Self.putSettings(2, in: mosque.id, client: Self.clientC),
                ]),
            from: screen, now: Self.now)
        #expect(pushed.rejected.map(\.code) == [.readOnly, .readOnly])
        #expect(
            refusal {
                try store.space(.create(.init(name: "Mine")), from: screen, address: Self.address, now: Self.now)
            }?.code == .readOnly)
        let another = try invite(store, owner, to: other.id, as: .viewer)
        #expect(
            refusal {
                try store.space(.join(.init(code: another)), from: screen, address: Self.address, now: Self.now)
            }?.code == .readOnly)
        // The operator sees one person and one follower.
        let summary = try #require(try store.spaces().first { $0.id == mosque.id })
        #expect(
            summary.memberCount == 1 && summary.followerCount == 1 && summary.owners == ["amina"]
                && summary.rowCount == 1)
        #expect(try store.users().map(\.name) == ["amina"])
    }

    func removalAndDeletion() throws {
        let (store, _, owner) = try storeWithDevice()
        let bilal = try person(store, "bilal")
        let mosque = try space(
            try store.space(.create(.init(name: "Masjid al-Noor")), from: owner, address: Self.address, now: Self.now))
        _ = try store.space(
            .join(.init(code: try invite(store, owner, to: mosque.id, as: .editor))), from: bilal,
            address: Self.address, now: Self.now)
        _ = try store.push(
            .init(clientID: Self.clientA, mutations: [try Self.putSettings(1, in: mosque.id)]), from: owner,
            now: Self.now)
        #expect(!(try pullSpace(store, bilal, mosque.id, client: Self.clientB).gone))
        // The last owner stays; an editor cannot remove; the owner removes the editor.
        #expect(
            refusal {
                try store.space(.leave(.init(space: mosque.id)), from: owner, address: Self.address, now: Self.now)
            }?.code == .badRequest)
        #expect(
            refusal {
                try store.space(
                    .removeMember(.init(space: mosque.id, member: "amina")), from: bilal, address: Self.address,
                    now: Self.now)
            }?.code == .readOnly)
        #expect(
            refusal {
                try store.space(
                    .removeMember(.init(space: mosque.id, member: "nobody")), from: owner, address: Self.address,
                    now: Self.now)
            }?.code == .notFound)
        _ = try store.space(
            .removeMember(.init(space: mosque.id, member: "bilal")), from: owner, address: Self.address, now: Self.now)
        let removed = try pullSpace(store, bilal, mosque.id, client: Self.clientB)
        #expect(removed.gone && removed.rows.isEmpty)
        let late = try store.push(
            .init(
                clientID: Self.clientB,
                mutations: [try Self.putSettings(1, in: mosque.id, at: 9, asr: "+30", client: Self.clientB)]),
            from: bilal, now: Self.now)
        #expect(late.lastMutationID == 1 && late.rejected.map(\.code) == [.notAMember])
        // Joined again, then the space is deleted: gone for every member, and listed by no one.
        _ = try store.space(
            .join(.init(code: try invite(store, owner, to: mosque.id, as: .viewer))), from: bilal,
            address: Self.address, now: Self.now)
        _ = try store.space(.leave(.init(space: mosque.id)), from: bilal, address: Self.address, now: Self.now)
        #expect(try pullSpace(store, bilal, mosque.id, client: Self.clientB).gone)
        #expect(
            refusal {
                try store.space(.delete(.init(space: mosque.id)), from: bilal, address: Self.address, now: Self.now)
            }?.code == .notAMember)
        _ = try store.space(.delete(.init(space: mosque.id)), from: owner, address: Self.address, now: Self.now)
        #expect(try pullSpace(store, owner, mosque.id, client: Self.clientA).gone)
        #expect(try listed(store, owner).map(\.kind) == [.personal])
        #expect(try store.spaces().isEmpty)
    }

    func versionsPerSpace() throws {
        let (store, _, owner) = try storeWithDevice()
        let mosque = try space(
            try store.space(.create(.init(name: "Masjid al-Noor")), from: owner, address: Self.address, now: Self.now))
        let notice = SyncAPI.Mutation(
            id: 3, collection: .notice, key: "funeral", op: .put, hlc: try Self.stamp(3),
            value: .notice(
                SyncNoticeValue(
                    title: "Janazah after Dhuhr", text: "", start: Self.now, end: Self.now.addingTimeInterval(3600))),
            space: nil)
        var logInMosque = try Self.put(4)
        logInMosque.space = mosque.id
        let pushed = try store.push(
            .init(
                clientID: Self.clientA,
                mutations: [try Self.put(1), try Self.putSettings(2, in: mosque.id), notice, logInMosque]),
            from: owner, now: Self.now)
        #expect(pushed.rejected.map(\.id) == [3, 4] && pushed.rejected.map(\.code) == [.invalid, .invalid])
        let pulled = try store.pull(
            .init(clientID: Self.clientA, cursor: "0", spaces: [mosque.id: "0"]), from: owner, now: Self.now)
        #expect(pulled.rows.map(\.row.collection) == [.log])
        #expect(pulled.spaces?.first?.rows.map(\.row.collection) == [.mosqueSettings])
        // Each space's cursor is its own: a change in the mosque moves only the mosque's.
        let mosqueCursor = try #require(pulled.spaces?.first?.cursor)
        _ = try store.push(
            .init(clientID: Self.clientA, mutations: [try Self.putSettings(5, in: mosque.id, at: 50, asr: "+20")]),
            from: owner, now: Self.now)
        let next = try store.pull(
            .init(clientID: Self.clientA, cursor: pulled.cursor, spaces: [mosque.id: mosqueCursor]), from: owner,
            now: Self.now)
        #expect(next.rows.isEmpty && next.cursor == pulled.cursor)
        #expect(next.spaces?.first?.rows.count == 1 && next.spaces?.first?.cursor != mosqueCursor)
        // The event stream's versions are the cursors a pull that read everything ends at.
        let versions = try store.versions(for: owner)
        let personal = try #require(versions.personal)
        #expect(versions.versions == [personal: next.cursor, mosque.id: next.spaces?.first?.cursor ?? "-"])
        // An older schema's client never sees the mosque's collections.
        var old = SyncAPI.PullRequest(clientID: Self.clientA, cursor: "0", spaces: [mosque.id: "0"])
        old.schema = 2
        #expect(try store.pull(old, from: owner, now: Self.now).spaces?.first?.rows.isEmpty == true)
    }

    func protocolOneClient() throws {
        let (store, _, device) = try storeWithDevice()
        var push = SyncAPI.PushRequest(clientID: Self.clientA, mutations: [try Self.put(1)])
        push.protocol = 1
        push.schema = 2
        #expect(try store.push(push, from: device, now: Self.now).rejected.isEmpty)
        var pull = SyncAPI.PullRequest(clientID: Self.clientA, cursor: "0")
        pull.protocol = 1
        pull.schema = 2
        let pulled = try store.pull(pull, from: device, now: Self.now)
        #expect(pulled.rows.count == 1 && pulled.spaces == nil)
    }
}

/// An answer of another case than the one a helper expects.
struct SpaceAnswerError: Error {
    let answer: SyncSpaceAnswer
}
