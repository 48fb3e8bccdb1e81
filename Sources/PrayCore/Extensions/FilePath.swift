#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `NSString`'s path operations that PrayKit used, rewritten over `String` and FoundationEssentials'
/// `FileManager` with the results of swift-corelibs-foundation (`NSPathUtilities.swift`), so that a
/// path reads the same as before without full Foundation (the start-up path uses FoundationEssentials
/// only; docs/performance.md).
package enum FilePath {
    /// `NSString.appendingPathComponent(_:)`: `component` after `path` and one `/` (none when `path`
    /// already ends with one); an empty side gives the other side.
    package static func appending(_ component: String, to path: String) -> String {
        if component.isEmpty { return path }
        if path.isEmpty { return component }
        return path.hasSuffix("/") ? path + component : path + "/" + component
    }

    /// `NSString.standardizingPath` as swift-corelibs-foundation computes it: `~` and `~user`
    /// expanded, `.` and empty components dropped, `..` removing the component before it in an
    /// absolute path (kept in a relative one), every symbolic link met on the way replaced by its
    /// destination (``linkDestination(_:)``), and a `/private` or `/var/automount` prefix dropped where the path without it
    /// exists.
    package static func standardizing(_ path: String) -> String {
        let expanded = expandingTilde(path)
        var resolved = resolvingSymlinks(expanded)
        resolved = removingPrefix("/var/automount", from: resolved) ?? resolved
        return resolved
    }

    /// The home folder of `user` (this process's user when `nil`), as `NSHomeDirectoryForUser`.
    package static func home(of user: String?) -> String? {
        #if canImport(FoundationEssentials)
            guard let user else { return URL.homeDirectory.path(percentEncoded: false).droppingTrailingSlash }
            return FileManager.default.homeDirectory(forUser: user)?.path(percentEncoded: false).droppingTrailingSlash
        #else
            return NSHomeDirectoryForUser(user)
        #endif
    }

    /// The home folder of the user the process runs as, from the user database (what `NSHomeDirectory`
    /// gave where `HOME` is not set); `/` when the user has no entry.
    package static func userHome() -> String {
        guard let entry = getpwuid(geteuid()), let folder = entry.pointee.pw_dir else { return "/" }
        return String(cString: folder).droppingTrailingSlash
    }

    // MARK: - swift-corelibs-foundation's steps

    /// `expandingTildeInPath`.
    private static func expandingTilde(_ path: String) -> String {
        guard path.hasPrefix("~") else { return path }
        let endOfUser = path.firstIndex(of: "/") ?? path.endIndex
        let user = String(path[path.index(after: path.startIndex)..<endOfUser])
        guard let home = home(of: user.isEmpty ? nil : user) else { return fixingSlashes(path, compress: false) }
        return fixingSlashes(home + path[endOfUser...], compress: false)
    }

    /// `resolvingSymlinksInPath`.
    private static func resolvingSymlinks(_ path: String) -> String {
        var components = pathComponents(path)
        guard !components.isEmpty else { return path }
        if components.last == "/", components.count > 1 { components.removeLast() }
        var resolved = components.removeFirst()
        for component in components {
            switch component {
            case "", ".":
                break
            case ".." where path.hasPrefix("/") || path.hasPrefix("~"):
                resolved = folder(of: resolved)
            default:
                resolved = appending(component, to: resolved)
                if let destination = linkDestination(resolved) {
                    resolved =
                        destination.hasPrefix("/")
                        ? destination : appending(destination, to: folder(of: resolved))
                }
            }
        }
        return removingPrefix("/private", from: resolved) ?? resolved
    }

    /// The destination of the link at `path` as swift-corelibs-foundation's
    /// `_recursiveDestinationOfSymbolicLink` finds it: a chain of links followed to its end (at most
    /// 32), each destination read as written — a relative one relative to the process's current
    /// folder, not the link's, as Foundation did — and `nil` unless the end exists there.
    private static func linkDestination(_ path: String) -> String? {
        guard var destination = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { return nil }
        var hops = 0
        while hops < 32, let next = try? FileManager.default.destinationOfSymbolicLink(atPath: destination) {
            destination = next
            hops += 1
        }
        return FileManager.default.fileExists(atPath: destination) ? destination : nil
    }

    /// `pathComponents`: a leading `/`, the names between slashes, and a trailing `/`.
    private static func pathComponents(_ path: String) -> [String] {
        guard !path.isEmpty else { return [] }
        var components = path.hasPrefix("/") ? ["/"] : []
        components += path.split(separator: "/").map(String.init)
        if path.count > 1, path.hasSuffix("/") { components.append("/") }
        return components
    }

    /// The folder part of `path` (`NSString.deletingLastPathComponent`): runs of `/` count as one and
    /// a trailing `/` is dropped first; `""` for a single relative component, `/` for a single
    /// absolute one and for `/` itself.
    package static func folder(of path: String) -> String {
        let fixed = path == "/" ? path : fixingSlashes(path, compress: true)
        if fixed == "/" || fixed.isEmpty { return fixed }
        guard let slash = fixed.lastIndex(of: "/") else { return "" }
        return slash == fixed.startIndex ? "/" : String(fixed[..<slash])
    }

    /// `_stringByFixingSlashes`: runs of `/` made one (when `compress`), and a trailing `/` dropped.
    private static func fixingSlashes(_ path: String, compress: Bool) -> String {
        var result = ""
        for character in path where !(compress && character == "/" && result.hasSuffix("/")) {
            result.append(character)
        }
        if result.count > 1, result.hasSuffix("/") { result.removeLast() }
        return result
    }

    /// `path` without `prefix` when it has it, is longer and the shorter path exists.
    private static func removingPrefix(_ prefix: String, from path: String) -> String? {
        guard path != prefix, path.hasPrefix(prefix) else { return nil }
        let shorter = String(path.dropFirst(prefix.count))
        return FileManager.default.fileExists(atPath: shorter) ? shorter : nil
    }
}

extension String {
    /// The path without a trailing `/` (but `/` itself), as `URL.path` gave before.
    fileprivate var droppingTrailingSlash: String {
        count > 1 && hasSuffix("/") ? String(dropLast()) : self
    }
}
