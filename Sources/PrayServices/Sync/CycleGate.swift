/// One cycle at a time in a process: the next waits for the one running (SYNC.md §4, "one request in
/// flight per device").
actor CycleGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Waits for the gate.
    func lock() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Lets the next one in.
    func unlock() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
