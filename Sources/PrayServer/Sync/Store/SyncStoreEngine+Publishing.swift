import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - Published pages (docs/pages.md)

extension SyncStoreEngine {
    /// The mosque space published at `slug`; see ``SyncSpaceStore/published(slug:rows:)``. A slug that
    /// could not be one answers `nil` without a query.
    func published(slug: String, rows: Bool) throws -> SyncPublishedSpace? {
        guard (try? SyncRules.checkSlug(slug)) != nil else { return nil }
        return try database.read { connection in
            guard
                let space = try connection.first(
                    "SELECT id, space_id, title, version FROM users WHERE slug = $1 AND kind = 'mosque'", [.text(slug)])
            else { return nil }
            let records =
                rows
                ? try connection.rows(
                    """
                    SELECT collection, key, value, deleted, version, hlc FROM sync_rows WHERE user_id = $1
                    ORDER BY collection, key
                    """, [.integer(space.int64(0))]
                ).map { row in
                    SyncPublishedRow(
                        collection: row.text(0) ?? "", key: row.text(1) ?? "",
                        value: row.int64(3) == 0 ? row.text(2) : nil, version: row.int64(4), hlc: row.text(5) ?? "")
                } : []
            return SyncPublishedSpace(
                id: space.text(1) ?? "", name: space.text(2) ?? "", slug: slug, version: space.int64(3), rows: records)
        }
    }

    /// Publishes `space` at `slug`: a slug given is checked and claimed (`slug_taken` when another
    /// space has it); without one, the space keeps the slug it has, or gets its name's
    /// (``SyncRules/defaultSlug(name:space:)``), with `-2` … `-9` after it when that is taken.
    static func publish(_ space: SyncMembership, slug given: String?, _ connection: Database.Connection) throws
        -> SyncAPI.Publication
    {
        if let given {
            do {
                try SyncRules.checkSlug(given)
            } catch {
                throw SyncServerError(.badRequest, message: error.message)
            }
            guard try holder(of: given, connection).map({ $0 == space.row }) ?? true else {
                throw SyncServerError(
                    .slugTaken, message: "another mosque is published at \(given): choose another slug")
            }
            try claim(given, for: space, connection)
            return SyncAPI.Publication(space: space.id, slug: given)
        }
        if let current = try connection.first("SELECT slug FROM users WHERE id = $1", [.integer(space.row)])?.text(0) {
            return SyncAPI.Publication(space: space.id, slug: current)
        }
        let base = SyncRules.defaultSlug(name: space.name, space: space.id)
        // The stem without hyphens at either end (scalars, as Foundation's CharacterSet trimming did).
        var scalars = base.prefix(SyncRules.maximumSlugLength - 2).unicodeScalars[...]
        while scalars.first == "-" { scalars.removeFirst() }
        while scalars.last == "-" { scalars.removeLast() }
        let stem = String(scalars)
        for candidate in [base] + (2...9).map({ "\(stem)-\($0)" })
        where try holder(of: candidate, connection) == nil {
            try claim(candidate, for: space, connection)
            return SyncAPI.Publication(space: space.id, slug: candidate)
        }
        throw SyncServerError(
            .slugTaken, message: "\(base) and \(stem)-2 to \(stem)-9 are taken by other mosques: choose a slug")
    }

    /// The `users` row of the space published at `slug`, if any.
    private static func holder(of slug: String, _ connection: Database.Connection) throws -> Int64? {
        try connection.first("SELECT id FROM users WHERE slug = $1", [.text(slug)])?.int64(0)
    }

    /// Gives the space its slug. The unique index refuses a slug two servers claim at once for two
    /// spaces: the second transaction fails and its publisher tries again.
    private static func claim(_ slug: String, for space: SyncMembership, _ connection: Database.Connection) throws {
        try connection.run("UPDATE users SET slug = $1 WHERE id = $2", [.text(slug), .integer(space.row)])
    }
}
