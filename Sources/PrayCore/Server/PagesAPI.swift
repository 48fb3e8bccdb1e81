#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The pages people open (docs/pages.md): the month to print or read on a phone (`/month`, with
/// `praykit serve --display`), and a published mosque's pages on a sync server (`/m/<slug>/display`,
/// `/m/<slug>/month`, `/m/<slug>.json`, `/m/<slug>.ics`), readable without an account.
public enum PagesAPI {
    /// The paths of a published mosque start with this: `/m/<slug>…`.
    public static let publishedPrefix = "/m/"

    /// Whether `path` belongs to the pages: `/month` and its files and model (`/month.json`,
    /// `/month.css`, `/month-…`), and anything under ``publishedPrefix``.
    public static func isPagePath(_ path: String) -> Bool {
        path == "/month" || path.hasPrefix("/month.") || path.hasPrefix("/month-") || path.hasPrefix(publishedPrefix)
    }
}
