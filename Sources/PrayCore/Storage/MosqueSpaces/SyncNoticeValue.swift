#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SyncCollection {
    /// A mosque's notice (a funeral prayer, a class, a change of times): key the notice's ID, 1 to 40
    /// of `a-z`, `0-9` and `-`.
    public static let notice = SyncCollection(
        name: "notice", schema: 3, valueType: SyncNoticeValue.self, spaceKinds: [.mosque])
}

/// The value of a `notice` row of a mosque space: a title and a text shown from its start to its end,
/// by priority. Plain text: a screen or an app shows it as text, never as markup.
public struct SyncNoticeValue: SyncRowValue {
    /// How prominently a notice is shown.
    public enum Priority: String, Codable, Hashable, Sendable, CaseIterable {
        /// In the rotation of notices.
        case normal
        /// Before the normal ones.
        case high
        /// Over everything but the prayer times (a funeral prayer after this salah).
        case urgent
    }

    /// The title: 1 to 200 characters on one line.
    public var title: String
    /// The text: at most 4,096 bytes of UTF-8; line breaks allowed.
    public var text: String
    /// When it is first shown.
    public var start: Date
    /// When it is last shown; after ``start``.
    public var end: Date
    /// How prominently.
    public var priority: Priority

    /// Creates a notice.
    public init(title: String, text: String, start: Date, end: Date, priority: Priority = .normal) {
        self.title = title
        self.text = text
        self.start = start
        self.end = end
        self.priority = priority
    }

    /// The longest title, characters.
    public static let maximumTitleLength = 200
    /// The longest text, bytes of UTF-8.
    public static let maximumTextBytes = 4_096
    /// The longest a notice is shown: a year.
    public static let maximumDuration: TimeInterval = 366 * 86_400

    private enum CodingKeys: String, CodingKey { case title, text, start, end, priority }

    /// Decodes `{"title", "text", "start", "end", "priority"}`, times as the protocol writes them
    /// (ISO 8601 UTC with milliseconds).
    /// - Throws: `DecodingError` for a malformed notice.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func time(_ key: CodingKeys) throws -> Date {
            let text = try container.decode(String.self, forKey: key)
            guard let date = SyncAPI.parseTimestamp(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "\(key.rawValue) is not an ISO 8601 UTC time")
            }
            return date
        }
        title = try container.decode(String.self, forKey: .title)
        text = try container.decode(String.self, forKey: .text)
        start = try time(.start)
        end = try time(.end)
        priority = try container.decodeIfPresent(Priority.self, forKey: .priority) ?? .normal
    }

    /// Encodes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(text, forKey: .text)
        try container.encode(SyncAPI.timestamp(start), forKey: .start)
        try container.encode(SyncAPI.timestamp(end), forKey: .end)
        try container.encode(priority, forKey: .priority)
    }
}

extension SyncNoticeValue {
    /// The title.
    public var summary: String { title }

    /// The `notice` collection.
    public static var collection: SyncCollection { .notice }

    /// A key of 1 to 40 `a-z`, `0-9` and `-`; a title of 1 to 200 characters without control
    /// characters; a text of at most 4,096 bytes without control characters but line breaks and tabs;
    /// an end after the start, at most a year later.
    /// - Throws: ``ValidationError`` saying what is wrong.
    public static func validate(key: String, value: SyncNoticeValue?) throws(ValidationError) {
        guard (1...40).contains(key.utf8.count),
            key.utf8.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) || $0 == 45 })
        else {
            throw ValidationError(field: "key", message: "a notice's ID is 1 to 40 of a-z, 0-9 and -")
        }
        guard let notice = value else { return }
        let title = notice.title.trimmingWhitespace()
        guard !title.isEmpty, notice.title.count <= maximumTitleLength,
            !notice.title.unicodeScalars.contains(where: \.isControlCharacter)
        else {
            throw ValidationError(
                field: "title", message: "a notice's title is 1 to \(maximumTitleLength) characters on one line")
        }
        guard notice.text.utf8.count <= maximumTextBytes else {
            throw ValidationError(
                field: "text",
                message: "a notice's text has at most \(maximumTextBytes) bytes, got \(notice.text.utf8.count)")
        }
        guard !notice.text.unicodeScalars.contains(where: { $0.isControlCharacter && $0 != "\n" && $0 != "\t" })
        else {
            throw ValidationError(
                field: "text",
                message: "a notice's text holds no control characters (but line breaks and tabs) and no "
                    + "direction marks or overrides (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069)")
        }
        guard notice.end > notice.start, notice.end.timeIntervalSince(notice.start) <= maximumDuration else {
            throw ValidationError(field: "end", message: "a notice ends after it starts, at most a year later")
        }
    }
}

extension SyncValue {
    /// A `notice` value.
    public static func notice(_ value: SyncNoticeValue) -> SyncValue { SyncValue(value) }
}
