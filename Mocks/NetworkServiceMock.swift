import Foundation
import PrayCore
import Synchronization

/// A ``NetworkService`` whose answer the test sets with ``onSend(_:)`` — or scripts with
/// ``enqueue(_:)``, one answer per request in order — recording every request. A request without an
/// answer, or with the script used up, records a test issue and throws ``MockError``.
///
/// ```swift
/// let network = NetworkServiceMock()
/// network.enqueue(.success(HTTPResponse(status: 200, headers: [:], body: data, url: url, duration: 0)))
/// network.enqueue(.failure(NetworkError(kind: .connection, url: url, message: "refused")))
/// … two requests …
/// #expect(network.sendCalls.map(\.url) == [url, url])
/// ```
public final class NetworkServiceMock: NetworkService {
    private let sendFunction = MockFunction<HTTPRequest, HTTPResponse, any Error>("NetworkServiceMock.send(_:)")
    private let script = Mutex<[Result<HTTPResponse, NetworkError>]>([])

    /// Creates a mock with nothing set.
    public init() {}

    /// Sets the answer of ``send(_:)``.
    public func onSend(_ answer: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) {
        sendFunction.on(answer)
    }

    /// The request of each call of ``send(_:)``, oldest first.
    public var sendCalls: [HTTPRequest] { sendFunction.calls }

    /// Records the request and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try sendFunction(request)
    }

    // MARK: - Script

    /// Adds an answer to the end of the script and makes the script the answer of ``send(_:)``.
    public func enqueue(_ answer: Result<HTTPResponse, NetworkError>) {
        script.withLock { $0.append(answer) }
        onSend { [unowned self] _ in try self.nextScripted() }
    }

    /// Adds a response with `body` (200 unless told otherwise) to the end of the script.
    public func enqueue(body: Data, status: Int = 200, url: URL = URL(fileURLWithPath: "/")) {
        enqueue(.success(HTTPResponse(status: status, headers: [:], body: body, url: url, duration: 0)))
    }

    /// Takes the first answer off the script.
    private func nextScripted() throws -> HTTPResponse {
        let answer = script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        guard let answer else { throw MockError.unset("NetworkServiceMock.send(_:) (the script is used up)") }
        return try answer.get()
    }
}
