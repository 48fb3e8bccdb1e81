import Foundation
import PrayMocks
import Testing

@testable import PrayCLI

#if canImport(Glibc)
    import Glibc
#endif

#if os(Linux)
    /// `SystemdNotify`: the `READY=1` of a `Type=notify` unit, read from a socket as systemd reads it.
    @Suite struct SystemdNotifyTests {
        /// A datagram socket bound to `name` (a path, or `@name` in the abstract namespace), as
        /// systemd's; closed by `close()`.
        final class Listener {
            let descriptor: Int32

            init(_ name: String) throws {
                descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                guard descriptor >= 0 else { throw TestFailure("socket failed") }
                var address = sockaddr_un()
                address.sun_family = sa_family_t(AF_UNIX)
                var path = Array(name.utf8)
                if path.first == UInt8(ascii: "@") { path[0] = 0 }
                withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
                let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count)
                let bound = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
                }
                guard bound == 0 else {
                    Glibc.close(descriptor)
                    throw TestFailure("bind \(name): \(String(cString: strerror(errno)))")
                }
            }

            /// The datagram waiting, or nil when none was sent (never blocks).
            func received() -> String? {
                var buffer = [UInt8](repeating: 0, count: 256)
                let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                return count < 0 ? nil : String(decoding: buffer.prefix(count), as: UTF8.self)
            }

            func close() { Glibc.close(descriptor) }
        }

        static func socketPath() -> String {
            FileManager.default.temporaryDirectory.appendingPathComponent("praykit-notify-\(UUID().uuidString)").path
        }

        @Test func readyGoesToThePathNamedAndToTheAbstractNamespace() throws {
            for name in [Self.socketPath(), "@praykit-notify-\(UUID().uuidString)"] {
                let listener = try Listener(name)
                defer {
                    listener.close()
                    if !name.hasPrefix("@") { try? FileManager.default.removeItem(atPath: name) }
                }
                #expect(try SystemdNotify.send("READY=1", environment: ["NOTIFY_SOCKET": name]))
                #expect(listener.received() == "READY=1", "\(name)")
            }
        }

        @Test func withoutTheVariableNothingIsSent() throws {
            #expect(try SystemdNotify.send("READY=1", environment: [:]) == false)
            #expect(try SystemdNotify.send("READY=1", environment: ["NOTIFY_SOCKET": ""]) == false)
        }

        @Test func aNameThatIsNoSocketIsAnError() {
            for name in ["relative/notify", Self.socketPath(), "/" + String(repeating: "a", count: 200)] {
                #expect(throws: SystemdNotify.Failure.self, "\(name)") {
                    try SystemdNotify.send("READY=1", environment: ["NOTIFY_SOCKET": name])
                }
            }
        }

        @Test func serveSaysItIsReadyOnceItListensAndOnlyWarnsWhenItCannot() async throws {
            // Given: the server of `serve` a mock that has started (and stopped) on port 40123
            var dependency = CLI.dependency()
            let servers = ServerServiceMock()
            servers.onStart { configuration, _ in
                RunningServerFake(host: configuration.host, port: 40123, isStopped: true)
            }
            dependency.server = servers
            let name = Self.socketPath()
            let listener = try Listener(name)
            defer {
                listener.close()
                try? FileManager.default.removeItem(atPath: name)
            }
            // When
            let result = await CLI.run(
                ["serve", "--port", "0"], dependency: dependency, environment: ["TZ": "UTC", "NOTIFY_SOCKET": name])
            // Then: systemd hears READY=1 after the server listened
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "Listening on http://127.0.0.1:40123\n")
            #expect(listener.received() == "READY=1")
            // And a socket that is gone is a warning, not a failed server
            let gone = await CLI.run(
                ["serve", "--port", "0"], dependency: dependency,
                environment: ["TZ": "UTC", "NOTIFY_SOCKET": Self.socketPath()])
            #expect(gone.status == 0, "\(gone.stderr)")
            #expect(gone.stderr.contains("Warning: could not tell systemd the server is ready"), "\(gone.stderr)")
        }
    }
#endif
