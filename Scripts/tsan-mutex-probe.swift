// Checks Scripts/tsan.supp (run by Scripts/tsan.sh): eight threads increment a Mutex<Int32>, which
// TSan reports as a race on Linux (the futex hand-over is invisible to it) although the count comes
// out exact; with "racy" they also increment a plain variable with no lock, a real race. The
// suppression must hide the first report and keep the second.
import Foundation
import Synchronization

final class Box: @unchecked Sendable { var value = 0 }

let counter = Mutex<Int32>(0)
let box = Box()
let racy = CommandLine.arguments.contains("racy")
let iterations = 5_000
let group = DispatchGroup()
for _ in 0..<8 {
    group.enter()
    let thread = Thread {
        for _ in 0..<iterations {
            counter.withLock { $0 += 1 }
            if racy { box.value += 1 }
        }
        group.leave()
    }
    thread.start()
}
group.wait()
print("count \(counter.withLock { $0 }) of \(8 * iterations)")
