#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

// The command's tasks run on this thread (CurrentThreadExecutor): no worker threads to start.
exit(CurrentThreadExecutor().run { await PrayCommandLine.main() })
