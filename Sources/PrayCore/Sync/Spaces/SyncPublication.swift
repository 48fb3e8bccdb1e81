#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - Publishing a mosque space (its public pages)

extension SyncAPI {
    /// `POST /sync/v1/spaces/publish`: the owner makes the mosque's pages readable without an account
    /// at `/m/<slug>/…` on the sync server.
    public struct PublishRequest: Codable, Hashable, Sendable {
        /// The space's ID.
        public var space: String
        /// The address's last word (``SyncRules/checkSlug(_:)``); `nil` keeps the space's slug when it
        /// is published already, else makes one from its name (``SyncRules/defaultSlug(name:space:)``).
        public var slug: String?

        /// Creates a request.
        public init(space: String, slug: String? = nil) {
            self.space = space
            self.slug = slug
        }
    }

    /// The answer to `publish`: where the space's pages are now.
    public struct Publication: Codable, Hashable, Sendable {
        /// The space's ID.
        public var space: String
        /// The slug: the pages are `/m/<slug>/display`, `/m/<slug>/month`, `/m/<slug>.json` and
        /// `/m/<slug>.ics`.
        public var slug: String

        /// Creates an answer.
        public init(space: String, slug: String) {
            self.space = space
            self.slug = slug
        }

        /// The path of each public page of the space, by name, relative to the server's root.
        public var paths: [(name: String, path: String)] {
            [
                ("display", "/m/\(slug)/display"), ("month", "/m/\(slug)/month"), ("model", "/m/\(slug).json"),
                ("calendar", "/m/\(slug).ics"),
            ]
        }
    }
}

extension SyncRules {
    /// The shortest slug.
    public static let minimumSlugLength = 3
    /// The longest slug.
    public static let maximumSlugLength = 60

    /// Checks a slug, the last word of a published mosque's address (`/m/east-london-mosque/display`):
    /// 3 to 60 of `a-z`, `0-9` and `-`, starting and ending with a letter or a digit, with no `--`.
    /// - Throws: ``ValidationError`` (field `slug`) saying what is wrong.
    public static func checkSlug(_ slug: String) throws(ValidationError) {
        let bytes = Array(slug.utf8)
        guard (minimumSlugLength...maximumSlugLength).contains(bytes.count) else {
            throw ValidationError(
                field: "slug",
                message: "a slug has \(minimumSlugLength) to \(maximumSlugLength) characters, got \(bytes.count)")
        }
        guard bytes.allSatisfy({ isSlugLetter($0) || $0 == UInt8(ascii: "-") }) else {
            throw ValidationError(
                field: "slug",
                message: "a slug has only lower-case letters a-z, digits and hyphens, such as east-london-mosque")
        }
        guard let first = bytes.first, let last = bytes.last, isSlugLetter(first), isSlugLetter(last),
            !slug.contains("--")
        else {
            throw ValidationError(
                field: "slug", message: "a slug starts and ends with a letter or a digit and has no double hyphen")
        }
    }

    /// The slug a mosque gets when its owner gives none: its name in lower case, accents removed
    /// (`Masjid al-Aqṣā` → `masjid-al-aqsa`), every run of other characters a hyphen, cut at a word to
    /// at most ``maximumSlugLength``; a name that leaves fewer than ``minimumSlugLength`` letters (an
    /// Arabic name) gives `mosque-` and six hexadecimal digits of the space's ID's hash, the same each
    /// time.
    /// - Parameters:
    ///   - name: The mosque's name.
    ///   - space: The space's ID.
    /// - Returns: A slug that passes ``checkSlug(_:)``.
    public static func defaultSlug(name: String, space: String) -> String {
        let folded = SlugFolding.fold(name)
        var words: [String] = []
        var word = ""
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, isSlugLetter(UInt8(scalar.value)) {
                word.unicodeScalars.append(scalar)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        var slug = ""
        for word in words {
            let next = slug.isEmpty ? word : slug + "-" + word
            guard next.utf8.count <= maximumSlugLength else { break }
            slug = next
        }
        if slug.utf8.count < minimumSlugLength {
            slug = "mosque-" + SHA256.hex(Array(SHA256.hash(Array(("praykit-slug:" + space).utf8)).prefix(3)))
        }
        return slug
    }

    private static func isSlugLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

/// A published mosque space as its public pages read it (``SyncSpaceStore/published(slug:rows:)``): its
/// name, slug and version, and its rows.
public struct SyncPublishedSpace: Hashable, Sendable {
    /// The space's ID (never shown on a page: the pages name the slug).
    public let id: String
    /// The mosque's name.
    public let name: String
    /// The slug it is published at.
    public let slug: String
    /// The space's version: it grows with every push that changes the space.
    public let version: Int64
    /// Its rows, tombstones included, by collection and key; empty when not asked for.
    public let rows: [SyncPublishedRow]

    /// Creates a published space.
    public init(id: String, name: String, slug: String, version: Int64, rows: [SyncPublishedRow]) {
        self.id = id
        self.name = name
        self.slug = slug
        self.version = version
        self.rows = rows
    }
}

/// One row of a published space: its value's wire JSON (`nil` for a tombstone), the version that
/// last wrote it and its stamp.
public struct SyncPublishedRow: Hashable, Sendable {
    /// The collection's name (`mosque-month`, `mosque-settings`, `hijri-start`, `notice`).
    public let collection: String
    /// The key.
    public let key: String
    /// The value as the protocol writes it, or `nil` for a deleted row.
    public let value: String?
    /// The space's version that last wrote it.
    public let version: Int64
    /// Its hybrid logical clock stamp: milliseconds since 1970 first (SYNC.md §2).
    public let hlc: String

    /// Creates a row.
    public init(collection: String, key: String, value: String?, version: Int64, hlc: String) {
        self.collection = collection
        self.key = key
        self.value = value
        self.version = version
        self.hlc = hlc
    }

    /// When it was written, from its stamp's milliseconds (to the second, as iCalendar has it).
    public var writtenAt: Date? {
        guard let milliseconds = Int64(hlc.prefix(15)) else { return nil }
        return Date(timeIntervalSince1970: Double(milliseconds / 1000))
    }
}
