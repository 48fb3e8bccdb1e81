import Foundation
import PrayCore
import Synchronization

/// A ``NetworkService`` that answers from a script and records every request.
///
/// ```swift
/// let network = NetworkServiceMock()
/// network.enqueue(.success(HTTPResponse(status: 200, headers: [:], body: data, url: url, duration: 0)))
/// network.enqueue(.failure(NetworkError(kind: .connection, url: url, message: "refused")))
/// ```
/// A request with nothing left in the script records a test issue and throws ``MockError``.
public final class NetworkServiceMock: NetworkService {
    private let state = Mutex<(script: [Result<HTTPResponse, NetworkError>], requests: [HTTPRequest])>(([], []))

    /// Creates a mock with an empty script.
    public init() {}

    /// Adds an answer to the end of the script.
    public func enqueue(_ answer: Result<HTTPResponse, NetworkError>) {
        state.withLock { $0.script.append(answer) }
    }

    /// Adds a 200 response with `body` to the end of the script.
    public func enqueue(body: Data, status: Int = 200, url: URL = URL(fileURLWithPath: "/")) {
        enqueue(.success(HTTPResponse(status: status, headers: [:], body: body, url: url, duration: 0)))
    }

    /// The requests received, oldest first.
    public var requests: [HTTPRequest] { state.withLock { $0.requests } }

    /// Records the request and returns the next scripted answer.
    /// - Throws: The scripted ``NetworkError``, or ``MockError`` when the script is empty.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let answer = state.withLock { state -> Result<HTTPResponse, NetworkError>? in
            state.requests.append(request)
            return state.script.isEmpty ? nil : state.script.removeFirst()
        }
        guard let answer else { throw MockError.unset("NetworkServiceMock.send(_:)") }
        return try answer.get()
    }
}
