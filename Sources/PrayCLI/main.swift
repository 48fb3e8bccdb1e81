import Foundation

// The command's tasks run on this thread (CurrentThreadExecutor): no worker threads to start.
exit(CurrentThreadExecutor().run { await PrayCommandLine.main() })
