import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayKit

/// What the container wires on each platform: libcurl and the server on Linux; URLSession and no
/// server where PrayServer and CCurl are not linked — which `Scripts/portable-build.sh` builds and
/// runs on Linux, so that both sets of branches are compiled and tested here.
@Suite struct PlatformWiringTests {
    /// Whether this is the package's own Linux build, with PrayServer and CCurl linked.
    static let linksLinuxPieces: Bool = {
        #if os(Linux) && canImport(PrayServer)
            true
        #else
            false
        #endif
    }()

    @Test func theNetworkClientIsThePlatformOne() {
        TestContainer.configured
        let client = PrayDependency().networkService()
        #expect("\(type(of: client))" == (Self.linksLinuxPieces ? "NetworkServiceCurl" : "NetworkServiceURLSession"))
    }

    @Test(.tags(.server)) func theContainersNetworkClientFetches() async throws {
        // Given a loopback server
        TestContainer.configured
        let server = try TestHTTPServer { request in
            request.path == "/start"
                ? .respond(status: 302, headers: ["Location": "/v1/status"])
                : .respond(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"ok":1}"#.utf8))
        }
        defer { server.stop() }
        // When the container's client asks, through a redirect
        let response = try await PrayDependency().networkService().send(HTTPRequest(url: server.url("/start")))
        // Then it followed it and sent PrayKit's user agent each time
        #expect(response.status == 200 && response.url.path == "/v1/status")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":1}"#)
        #expect(server.requests.map(\.path) == ["/start", "/v1/status"])
        #expect(server.requests.allSatisfy { $0.headers["user-agent"]?.hasPrefix("PrayKit/") == true })
    }

    @Test func withoutTheServerStartingOneSaysWhy() async throws {
        // Given the container's server where PrayServer is not linked (on Linux, the real server is
        // tested by ReadmeSampleTests, and the stand-in directly)
        TestContainer.configured
        let dependency = PrayDependency()
        let server: any ServerService = Self.linksLinuxPieces ? ServerServiceUnavailable() : dependency.serverService()
        let routes: any ServerRoutes =
            Self.linksLinuxPieces ? ServerServiceUnavailable.Routes() : dependency.serverRoutes()
        // Then starting it throws, saying why, and its routes answer 501
        #expect {
            try server.start(ServerAPI.Configuration(port: 0)) { _ in ServerAPI.Response(status: 204) }
        } throws: { error in
            let error = error as? ServerError
            return error?.kind == .startFailed && error?.message.contains("not available on this platform") == true
        }
        let answer = routes.respond(to: ServerAPI.Request(target: "/v1/timings"))
        #expect(answer.status == 501)
        #expect(String(decoding: answer.body, as: UTF8.self).contains("PrayServer"))
    }
}
