#if canImport(CPostgres)
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import PrayCore

    #if canImport(Glibc)
        import Glibc
    #endif

    /// The servers of one PostgreSQL store, told of each other's event streams with `NOTIFY` on
    /// ``SyncEventNotice/channel`` (sent through the store's pool, by itself, so that it leaves at
    /// once) and heard with `LISTEN` on a connection of each server's own
    /// (``SyncEventListenerPostgres``). PostgreSQL delivers a notification to every session listening
    /// on the channel in that database, in the order of the commits: the servers of one store, and only
    /// them.
    struct SyncEventRelayPostgres: SyncEventRelay {
        let store: SyncStorePostgres
        let log: LogManager

        func publish(_ notice: SyncEventNotice) throws {
            for payload in notice.payloads() { try store.notify(payload) }
        }

        func listener() -> any SyncEventListener {
            SyncEventListenerPostgres(conninfo: store.conninfo, location: store.location, log: log)
        }

        func versions(of spaces: Set<String>) throws -> [String: String] {
            try store.versions(ofSpaces: spaces)
        }
    }

    /// One server's `LISTEN` on a connection of its own, polled by the thread that holds the server's
    /// streams. A connection that fails (PostgreSQL restarted, failed over, or ended it) is opened
    /// again after a jittered backoff of ½ s doubling to 15 s, and each time it listens again it says
    /// so with a ``SyncEventNotice/Kind/reread`` (what was published meanwhile is read from the
    /// tables). Not `Sendable`: one thread owns it.
    final class SyncEventListenerPostgres: SyncEventListener {
        private let conninfo: String
        private let location: String
        private let log: LogManager
        private var connection: PostgresConnection?
        /// Attempts that failed in a row, and when the next may begin.
        private var failures = 0
        private var retryAt = ContinuousClock.now

        /// The longest wait between two attempts, seconds.
        static let maximumBackoff: Double = 15

        init(conninfo: String, location: String, log: LogManager) {
            // A listener must never block the pings for long on a server that does not answer.
            self.conninfo = Self.withConnectTimeout(conninfo)
            self.location = location
            self.log = log
        }

        func receive(timeout: TimeInterval) -> [SyncEventNotice] {
            guard let connection else { return connect(waiting: timeout) }
            var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: Int((max(0, timeout) * 1000).rounded(.up))))
            guard ready > 0 else { return [] }
            guard connection.consumeInput() else {
                lost("the connection ended")
                return []
            }
            return connection.notifications().filter { $0.channel == SyncEventNotice.channel }.map {
                SyncEventNotice(payload: $0.payload)
            }
        }

        func close() { connection = nil }

        /// Opens the connection and listens, when the backoff allows; else waits (at most `timeout`).
        private func connect(waiting timeout: TimeInterval) -> [SyncEventNotice] {
            let now = ContinuousClock.now
            guard now >= retryAt else {
                Self.sleep(min(timeout, Self.seconds(now.duration(to: retryAt))))
                return []
            }
            do {
                let connection = try PostgresConnection(conninfo: conninfo)
                try connection.query("LISTEN " + SyncEventNotice.channel)
                self.connection = connection
                if failures > 0 {
                    log.notice("Event listener listening again", metadata: ["sync.store": location])
                }
                failures = 0
                return [SyncEventNotice(.reread, origin: "")]
            } catch {
                failures += 1
                let wait = Self.backoff(failures: failures)
                retryAt = ContinuousClock.now + .milliseconds(Int(wait * 1000))
                if failures == 1 {
                    log.warning(
                        "Event listener cannot listen; trying again with backoff",
                        metadata: ["sync.store": location, "storage.message": Self.message(error)])
                }
                Self.sleep(min(timeout, wait))
                return []
            }
        }

        /// Drops a failed connection; the next attempt follows the first backoff step.
        private func lost(_ reason: String) {
            connection = nil
            failures = 1
            retryAt = ContinuousClock.now + .milliseconds(Int(Self.backoff(failures: 1) * 1000))
            log.warning("Event listener lost its connection", metadata: ["sync.store": location, "reason": reason])
        }

        /// ½, 1, 2 … seconds up to ``maximumBackoff``, each between half and all of it (servers that
        /// lost the database together do not all come back at once).
        static func backoff(failures: Int) -> Double {
            min(maximumBackoff, 0.5 * pow(2, Double(min(max(failures, 1), 8) - 1))) * Double.random(in: 0.5...1)
        }

        /// `conninfo` with `connect_timeout=5` when it sets none (a URL's query, or libpq's `key=value`).
        static func withConnectTimeout(_ conninfo: String) -> String {
            guard !conninfo.contains("connect_timeout") else { return conninfo }
            guard conninfo.hasPrefix("postgres://") || conninfo.hasPrefix("postgresql://") else {
                return conninfo + " connect_timeout=5"
            }
            return conninfo + (conninfo.contains("?") ? "&" : "?") + "connect_timeout=5"
        }

        /// What a failure says, without the connection string.
        private static func message(_ error: any Error) -> String {
            (error as? PostgresError)?.storageError.message ?? "\(error)"
        }

        private static func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }

        private static func sleep(_ seconds: Double) {
            DetachedThread.sleep(seconds: seconds)
        }
    }
#endif
