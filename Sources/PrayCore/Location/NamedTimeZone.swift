#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Foundation's `TimeZone` of a name (`Europe/London`), for the few places that make one: a name the
/// system's tz database lacks, and ``TimeZoneName/timeZone`` that apps read.
///
/// On Linux, FoundationEssentials alone knows no named zone (`TimeZone(identifier:)` returns `nil`):
/// the names and their rules are ICU's, in FoundationInternationalization, which Essentials finds at
/// run time when that library is loaded. PrayKit's own times never need it (``ZonePeriods`` reads
/// the system's TZif files), so `praykit` does not link it; the first named zone made here loads it
/// with `dlopen("libFoundationInternationalization.so", RTLD_NOW | RTLD_GLOBAL)`, once per process,
/// and only when the process has the shared `libFoundationEssentials.so` loaded (a static build has
/// no such library: `dlopen(…, RTLD_NOLOAD)` of it is `nil` and nothing is loaded; the binary users
/// install links ICU's zone class in instead, `Scripts/release-flags.sh`). The library is looked up by name (the executable's
/// run path has the toolchain's folder), else beside `libFoundationEssentials.so` (`/proc/self/maps`). Where full
/// Foundation is imported (Apple platforms), this is `TimeZone(identifier:)` itself.
package enum NamedTimeZone {
    /// The named zone, or `nil` when Foundation does not know the name.
    package static func make(_ identifier: String) -> TimeZone? {
        #if canImport(FoundationEssentials) && canImport(Glibc)
            _ = internationalizationLoaded
        #endif
        return TimeZone(identifier: identifier)
    }

    #if canImport(FoundationEssentials) && canImport(Glibc)
        /// Whether FoundationInternationalization is loaded: tried once, on first use.
        private static let internationalizationLoaded: Bool = {
            guard let essentials = dlopen("libFoundationEssentials.so", RTLD_NOW | RTLD_NOLOAD) else { return false }
            defer { dlclose(essentials) }
            let name = "libFoundationInternationalization.so"
            if dlopen(name, RTLD_NOW | RTLD_GLOBAL) != nil { return true }
            // Beside libFoundationEssentials.so, as the process's map of its files names it.
            guard let maps = FileManager.default.contents(atPath: "/proc/self/maps") else { return false }
            for line in String(decoding: maps, as: UTF8.self).split(separator: "\n") {
                guard let start = line.firstIndex(of: "/"), line.hasSuffix("/libFoundationEssentials.so") else {
                    continue
                }
                let path = line[start...].dropLast("libFoundationEssentials.so".count)
                return dlopen(path + name, RTLD_NOW | RTLD_GLOBAL) != nil
            }
            return false
        }()
    #endif
}
