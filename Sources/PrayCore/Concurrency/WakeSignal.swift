import Synchronization
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A wait on a ``PrayClock`` that a change ends early: a daemon or a watch sleeps until its next moment,
/// or until the data under it changes (``signal()``), whichever comes first. A signal that comes while
/// no one waits ends the next wait at once, so none is lost.
///
/// ```swift
/// let wake = WakeSignal()
/// let following = Task { await wake.follow(preferences: preferences, mosques: mosques) }
/// while true {
///     show(try await read())
///     try await wake.wait(for: 60, on: clock)   // a minute, or less when a setting or the mosque changed
/// }
/// ```
public final class WakeSignal: Sendable {
    // Structs rather than tuples in the mutexes: Scripts/tsan.supp recognises the closure of a
    // `withLock` over a struct's value (the documented Mutex false positive), not over a tuple's.
    private struct State {
        var pending = false
        var waiter: Waiter?
    }

    private let state = Mutex(State())

    /// Creates a signal with nothing pending.
    public init() {}

    /// Ends the current wait, or the next one.
    public func signal() {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Waits `seconds` on `clock`, or until signalled (at once when a signal came since the last wait).
    /// - Throws: `CancellationError` when the task is cancelled.
    public func wait(for seconds: TimeInterval, on clock: any PrayClock) async throws {
        let pending = state.withLock { state in
            defer { state.pending = false }
            return state.pending
        }
        if !pending {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await clock.sleep(for: seconds) }
                group.addTask { await self.signalled() }
                await group.next()
                group.cancelAll()
            }
        }
        try Task.checkCancellation()
    }

    /// Signals after every change of the preferences and of the mosque they choose (its timetable,
    /// settings, announced month starts and notices) that this process sees — a write here, or one that
    /// sync made here — until the task is cancelled.
    /// - Parameters:
    ///   - preferences: The preferences, followed through ``PreferencesStore/preferencesSequence()``.
    ///   - mosques: The mosques, the chosen one followed through ``MosqueTimetableStore/mosqueSequence(named:)``.
    public func follow(preferences: any PreferencesStore, mosques: any MosqueTimetableStore) async {
        var chosen: String?
        var following: Task<Void, Never>?
        defer { following?.cancel() }
        for await saved in preferences.preferencesSequence() {
            signal()
            let mosque = saved[.mosque]
            guard mosque != chosen else { continue }
            following?.cancel()
            chosen = mosque
            following = mosque.map { name in
                Task { [weak self] in
                    for await _ in mosques.mosqueSequence(named: name) { self?.signal() }
                }
            }
        }
    }
}

// MARK: - Helpers

extension WakeSignal {
    /// Returns when signalled or cancelled.
    private func signalled() async {
        let waiter = Waiter()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                waiter.hold(continuation)
                let pending = state.withLock { state in
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    state.waiter = waiter
                    return false
                }
                if pending { waiter.resume() }
            }
        } onCancel: {
            waiter.resume()
        }
        state.withLock { state in
            if state.waiter === waiter { state.waiter = nil }
        }
    }

    /// One wait, resumed once by whichever comes first.
    private final class Waiter: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Void, Never>?
            var resumed = false
        }

        private let state = Mutex(State())

        func hold(_ continuation: CheckedContinuation<Void, Never>) {
            let resumed = state.withLock { state in
                if !state.resumed { state.continuation = continuation }
                return state.resumed
            }
            if resumed { continuation.resume() }
        }

        func resume() {
            let continuation = state.withLock { state in
                defer { state = State(continuation: nil, resumed: true) }
                return state.continuation
            }
            continuation?.resume()
        }
    }
}
