import Foundation
import PrayCore
import PrayServer

// MARK: - A mosque's followers (issue 36)

extension Benchmark {
    /// The sizes of the followers figure.
    enum FollowerSizes {
        /// Devices that follow the mosque with a code.
        static let followers = 10_000
        /// Followers whose pull after a change is timed (every tenth).
        static let sampled = 1_000
        /// Changes of the mosque's settings, each followed by the sampled pulls (a change a minute, in
        /// the issue's words: here back to back).
        static let changes = 5
    }

    /// What a follower's pull costs when its mosque has ``FollowerSizes/followers`` followers.
    struct FollowerTimes {
        var followers = 0
        var pairSeconds = 0.0
        var pullMedianMicroseconds = 0.0
        var pullP99Microseconds = 0.0
        var cpuMicrosecondsPerPull = 0.0
        var pulls = 0

        var text: String {
            func fixed(_ value: Double, _ digits: Int = 0) -> String { String(format: "%.\(digits)f", value) }
            return """
                  a mosque with \(followers) followers (each paired with a follow code: \(fixed(pairSeconds, 1)) s \
                for all): after each of \(FollowerSizes.changes) changes of its settings, \
                \(FollowerSizes.sampled) followers pull it (store.pull, \(pulls) pulls):
                    latency median \(fixed(pullMedianMicroseconds)) µs, p99 \(fixed(pullP99Microseconds)) µs; \
                CPU of this process \(fixed(cpuMicrosecondsPerPull)) µs a pull

                """
        }

        func members(prefix: String) -> [String] {
            func whole(_ value: Double) -> String { "\(Int(value.rounded()))" }
            return [
                ("Followers", "\(followers)"), ("FollowerPullMedianMicroseconds", whole(pullMedianMicroseconds)),
                ("FollowerPullP99Microseconds", whole(pullP99Microseconds)),
                ("FollowerPullCPUMicroseconds", whole(cpuMicrosecondsPerPull)),
            ].map { #""\#(prefix)\#($0.0)":\#($0.1)"# }
        }
    }

    /// A mosque space with ``FollowerSizes/followers`` devices that follow it with codes; after each
    /// change of its settings by the owner, a sample of them pulls the change from their cursors. The
    /// store's own calls in this process: the latency of each pull, and the process's CPU time (user
    /// and system) over the pulls divided by their count.
    func measureFollowers(_ server: SyncBenchServer) throws -> FollowerTimes {
        let store = server.store
        let address = "127.0.0.1"
        let owner = try server.pairedDevice(user: "mosque-owner", name: "office")
        guard
            case .space(let space) = try store.space(
                .create(.init(name: "Bench Mosque")), from: owner.identity, address: address, now: Date())
        else { throw PrayError(.unavailable, message: "the mosque space was not made") }
        var times = FollowerTimes()
        var followers: [SyncDeviceIdentity] = []
        let started = DispatchTime.now().uptimeNanoseconds
        for index in 0..<FollowerSizes.followers {
            guard
                case .invitation(let invitation) = try store.space(
                    .invite(.init(space: space.id, role: .viewer)), from: owner.identity, address: address, now: Date())
            else { throw PrayError(.unavailable, message: "no invitation") }
            let paired = try store.pair(
                SyncAPI.PairRequest(code: invitation.code, deviceName: "screen \(index)"), address: address, now: Date()
            )
            if index % (FollowerSizes.followers / FollowerSizes.sampled) == 0 {
                followers.append(try store.authenticate(token: paired.token, address: address, now: Date()))
            }
        }
        times.pairSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        times.followers = FollowerSizes.followers
        let ownerClient = SyncBenchData.clientID(seed: 36)
        let clients = followers.indices.map { SyncBenchData.clientID(seed: UInt64(1_000 + $0)) }
        var cursors = [String](repeating: "0", count: followers.count)
        var latencies: [Double] = []
        var cpu = 0.0
        for change in 1...FollowerSizes.changes {
            var settings = SyncMosqueSettingsValue(latitude: 51.5176, longitude: -0.0654, timeZone: "Europe/London")
            settings.iqama = ["asr": "+\(change)"]
            let stamp = try HLC(
                milliseconds: Int64(Date().timeIntervalSince1970 * 1000), counter: change, clientID: ownerClient)
            _ = try store.push(
                SyncAPI.PushRequest(
                    clientID: ownerClient,
                    mutations: [
                        SyncAPI.Mutation(
                            id: change, collection: .mosqueSettings, key: "settings", op: .put, hlc: stamp,
                            value: .mosqueSettings(settings), space: space.id)
                    ]), from: owner.identity, now: Date())
            let before = Self.processCPUSeconds()
            for (index, follower) in followers.enumerated() {
                let pullStarted = DispatchTime.now().uptimeNanoseconds
                let page = try store.pull(
                    SyncAPI.PullRequest(clientID: clients[index], cursor: "0", spaces: [space.id: cursors[index]]),
                    from: follower, now: Date())
                latencies.append(Double(DispatchTime.now().uptimeNanoseconds - pullStarted) / 1e3)
                guard let pulled = page.spaces?.first, pulled.rows.count == 1 else {
                    throw PrayError(.unavailable, message: "a follower did not get the one change")
                }
                cursors[index] = pulled.cursor
            }
            cpu += Self.processCPUSeconds() - before
        }
        latencies.sort()
        times.pulls = latencies.count
        times.pullMedianMicroseconds = latencies[latencies.count / 2]
        times.pullP99Microseconds = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
        times.cpuMicrosecondsPerPull = cpu * 1e6 / Double(latencies.count)
        return times
    }
}
