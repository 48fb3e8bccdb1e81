#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Path text as `NSString`'s path operations wrote it, without full Foundation (where they live):
/// the database, its state folder and the token file are named by these.
package enum PathText {
    /// `path` and `component` joined by one `/` (`NSString.appendingPathComponent`): `component`
    /// alone when `path` is empty, `path` alone when `component` is, no second `/` when `path` ends
    /// with one.
    package static func appending(_ component: String, to path: String) -> String {
        if component.isEmpty { return path }
        if path.isEmpty { return component }
        return path.hasSuffix("/") ? path + component : path + "/" + component
    }

    /// The folder part of `path` (`NSString.deletingLastPathComponent`): runs of `/` count as one and
    /// a trailing `/` is dropped first; `""` for a single relative component, `/` for a single
    /// absolute one and for `/` itself.
    package static func folder(of path: String) -> String {
        guard path != "/" else { return path }
        var fixed = ""
        for character in path where !(character == "/" && fixed.hasSuffix("/")) { fixed.append(character) }
        if fixed.hasSuffix("/") { fixed.removeLast() }
        guard !fixed.isEmpty, fixed != "/" else { return fixed }
        guard let slash = fixed.lastIndex(of: "/") else { return "" }
        return slash == fixed.startIndex ? "/" : String(fixed[..<slash])
    }

    /// The home folder of the user the process runs as, from the user database (what `NSHomeDirectory`
    /// gave where `HOME` is not set); `/` when the user has no entry.
    package static func userHome() -> String {
        guard let entry = getpwuid(geteuid()), let folder = entry.pointee.pw_dir else { return "/" }
        let home = String(cString: folder)
        return home.count > 1 && home.hasSuffix("/") ? String(home.dropLast()) : home
    }
}
