import Foundation
import PrayCore
import PrayMocks
import PrayServer
import Testing

// MARK: - Publishing a mosque's pages (docs/pages.md)

extension SyncStoreContract {
    /// The cases of publishing.
    static let publishingCases: [SyncStoreContractCase] = [
        .init(name: "publishing: the owner publishes; its slug is unique", run: { try $0.ownerPublishes() }),
        .init(name: "publishing: editors, viewers and strangers are refused", run: { try $0.othersAreRefused() }),
        .init(name: "publishing: a published space's rows and versions", run: { try $0.publishedRows() }),
    ]

    /// Publishes `space` for `device`.
    func publish(
        _ store: any SyncStore, _ device: SyncDeviceIdentity, _ space: String, slug: String? = nil
    ) throws -> SyncAPI.Publication {
        let answer = try store.space(
            .publish(.init(space: space, slug: slug)), from: device, address: Self.address, now: Self.now)
        guard case .publication(let publication) = answer else { throw SpaceAnswerError(answer: answer) }
        return publication
    }

    /// A mosque space of `device` named `name`.
    func mosque(_ store: any SyncStore, _ device: SyncDeviceIdentity, _ name: String) throws -> SyncSpace {
        try space(try store.space(.create(.init(name: name)), from: device, address: Self.address, now: Self.now))
    }

    // MARK: - Cases

    func ownerPublishes() throws {
        let (store, _, amina) = try storeWithDevice()
        let bilal = try person(store, "bilal")
        let elm = try mosque(store, amina, "East London Mosque")
        // Not published: no slug answers, the operator sees none.
        #expect(try store.published(slug: "east-london-mosque", rows: true) == nil)
        #expect(try store.spaces().map(\.slug) == [nil])
        // Without a slug: its name's; again without one: the same.
        let first = try publish(store, amina, elm.id)
        #expect(first == SyncAPI.Publication(space: elm.id, slug: "east-london-mosque"))
        #expect(try publish(store, amina, elm.id) == first)
        let published = try #require(try store.published(slug: "east-london-mosque", rows: false))
        #expect(published.id == elm.id && published.name == "East London Mosque" && published.rows.isEmpty)
        #expect(try store.spaces().map(\.slug) == ["east-london-mosque"])
        // Another mosque of the same name gets the name's slug with -2; a slug given and taken is refused.
        let other = try mosque(store, bilal, "East London Mosque")
        #expect(try publish(store, bilal, other.id).slug == "east-london-mosque-2")
        #expect(refusal { try publish(store, bilal, other.id, slug: "east-london-mosque") }?.code == .slugTaken)
        #expect(refusal { try publish(store, bilal, other.id, slug: "east-london-mosque") }?.status == 409)
        // A slug out of the rules is a bad request, whatever it looks like.
        for bad in ["EL", "elm--mosque", "-elm", "elm-", "Elm", "elm mosque", "élm", String(repeating: "a", count: 61)]
        {
            #expect(refusal { try publish(store, amina, elm.id, slug: bad) }?.code == .badRequest, "\(bad)")
            #expect(try store.published(slug: bad, rows: true) == nil)
        }
        // Moving to a slug frees the old one; unpublishing frees the new one.
        #expect(try publish(store, amina, elm.id, slug: "elm").slug == "elm")
        #expect(try store.published(slug: "east-london-mosque", rows: false) == nil)
        #expect(try store.published(slug: "elm", rows: false)?.id == elm.id)
        _ = try store.space(.unpublish(.init(space: elm.id)), from: amina, address: Self.address, now: Self.now)
        #expect(try store.published(slug: "elm", rows: false) == nil)
        #expect(try publish(store, bilal, other.id, slug: "elm").slug == "elm")
        // A deleted space's slug goes with it.
        _ = try store.space(.delete(.init(space: other.id)), from: bilal, address: Self.address, now: Self.now)
        #expect(try store.published(slug: "elm", rows: false) == nil)
        // A name that leaves no letters (Arabic) gets `mosque-` and six hexadecimal digits, the same each time.
        let noor = try mosque(store, amina, "مسجد النور")
        let slug = try publish(store, amina, noor.id).slug
        #expect(slug.hasPrefix("mosque-") && slug.count == 13 && (try? SyncRules.checkSlug(slug)) != nil)
        #expect(SyncRules.defaultSlug(name: "مسجد النور", space: noor.id) == slug)
    }

    func othersAreRefused() throws {
        let (store, _, owner) = try storeWithDevice()
        let editor = try person(store, "bilal")
        let viewer = try person(store, "carol")
        let stranger = try person(store, "dana")
        let elm = try mosque(store, owner, "East London Mosque")
        for (person, role) in [(editor, SyncRole.editor), (viewer, .viewer)] {
            let code = try invite(store, owner, to: elm.id, as: role)
            _ = try store.space(.join(.init(code: code)), from: person, address: Self.address, now: Self.now)
        }
        // An editor and a viewer: 403; a stranger and a forged ID: as a space that does not exist.
        for person in [editor, viewer] {
            #expect(refusal { try publish(store, person, elm.id) }?.code == .readOnly)
            #expect(refusal { try publish(store, person, elm.id) }?.status == 403)
            #expect(
                refusal {
                    try store.space(
                        .unpublish(.init(space: elm.id)), from: person, address: Self.address, now: Self.now)
                }?.code == .readOnly)
        }
        #expect(refusal { try publish(store, stranger, elm.id) }?.code == .notAMember)
        #expect(refusal { try publish(store, owner, "s_0000000000000000") }?.code == .notAMember)
        // A personal space is not published.
        let personal = try #require(try listed(store, owner).first { $0.kind == .personal })
        #expect(refusal { try publish(store, owner, personal.id) }?.code == .notAMember)
        #expect(try store.spaces().allSatisfy { $0.slug == nil })
    }

    func publishedRows() throws {
        let (store, _, amina) = try storeWithDevice()
        let elm = try mosque(store, amina, "East London Mosque")
        _ = try publish(store, amina, elm.id, slug: "elm")
        let notice = SyncNoticeValue(
            title: "<b>Janazah</b>", text: "after <script>alert(1)</script> Dhuhr", start: Self.now,
            end: Self.now.addingTimeInterval(86_400))
        let pushed = try store.push(
            .init(
                clientID: Self.clientA,
                mutations: [
                    try Self.putSettings(1, in: elm.id),
                    SyncAPI.Mutation(
                        id: 2, collection: .notice, key: "janazah", op: .put, hlc: try Self.stamp(1),
                        value: .notice(notice), space: elm.id),
                ]), from: amina, now: Self.now)
        #expect(pushed.rejected.isEmpty)
        let before = try #require(try store.published(slug: "elm", rows: true))
        #expect(before.rows.map(\.collection) == ["mosque-settings", "notice"])
        #expect(before.rows.allSatisfy { $0.version == before.version && $0.value != nil })
        #expect(before.rows.first?.writtenAt == Date(timeIntervalSince1970: 1_795_953_600))
        // A later push raises the version; a deleted notice stays as a tombstone with its version.
        _ = try store.push(
            .init(
                clientID: Self.clientA,
                mutations: [
                    SyncAPI.Mutation(
                        id: 3, collection: .notice, key: "janazah", op: .delete, hlc: try Self.stamp(2_000),
                        value: nil, space: elm.id)
                ]), from: amina, now: Self.now)
        let after = try #require(try store.published(slug: "elm", rows: true))
        #expect(after.version > before.version)
        let tombstone = try #require(after.rows.first { $0.collection == "notice" })
        #expect(tombstone.value == nil && tombstone.version == after.version)
        #expect(try store.published(slug: "elm", rows: false)?.version == after.version)
    }
}
