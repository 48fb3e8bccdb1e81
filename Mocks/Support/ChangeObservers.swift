import Synchronization

/// The observation streams of a fake store: each yields the store's value when it is made and again
/// after every change the store reports with ``changed()``.
final class ChangeObservers: Sendable {
    private let state = Mutex<(lastToken: Int, observers: [Int: @Sendable () -> Void])>((0, [:]))

    /// A stream of `current()`, now and after every ``changed()``; a slow reader gets the newest value.
    func stream<Value: Sendable>(of current: @escaping @Sendable () -> Value) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let token = state.withLock { state in
            state.lastToken += 1
            state.observers[state.lastToken] = { continuation.yield(current()) }
            return state.lastToken
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: token) }
        }
        continuation.yield(current())
        return stream
    }

    /// Yields the current value to every open stream.
    func changed() {
        let observers = state.withLock { Array($0.observers.values) }
        for observer in observers { observer() }
    }
}
