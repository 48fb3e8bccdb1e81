import Foundation
import Synchronization
import Testing

@testable import PrayCLI

/// The executor `praykit` runs its commands on: the task, its child tasks and what a continuation
/// resumed from another thread brings back all run on the thread that started them, and the task's
/// result comes back when it ends.
@Suite struct CurrentThreadExecutorTests {
    /// The threads the parts of a task ran on.
    final class Threads: Sendable {
        private let seen = Mutex<[pthread_t]>([])
        func record() { seen.withLock { $0.append(pthread_self()) } }
        var all: [pthread_t] { seen.withLock { $0 } }
    }

    @Test func theTaskAndItsChildrenRunOnTheCallingThread() {
        // Given
        let caller = pthread_self()
        let threads = Threads()
        // When: the task, two child tasks, and a continuation resumed by another thread
        let status = CurrentThreadExecutor().run {
            threads.record()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<2 { group.addTask { threads.record() } }
            }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread { continuation.resume() }
            }
            threads.record()
            return 7
        }
        // Then: every part ran here, and the result came back
        #expect(status == 7)
        let seen = threads.all
        #expect(seen.count == 4)
        #expect(seen.allSatisfy { pthread_equal($0, caller) != 0 })
    }

    @Test func theEnvironmentIsReadAsFoundationReadsIt() {
        #expect(PrayCommandLine.processEnvironment() == ProcessInfo.processInfo.environment)
    }
}
