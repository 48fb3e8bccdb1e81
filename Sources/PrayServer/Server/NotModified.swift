import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ServerAPI.Response {
    /// The `304 Not Modified` that stands for `response` (a 200) when the request's `If-None-Match`
    /// names its tag: its fields without those of the content it does not send (`Content-Type`,
    /// `Content-Disposition`), and, as `Content-Length`, the length of the 200's body (RFC 9110 §8.6:
    /// a 304 may state the length of the content it stands for, and no other).
    static func notModified(standingFor response: ServerAPI.Response) -> ServerAPI.Response {
        var headers = response.headers
        headers["Content-Type"] = nil
        headers["Content-Disposition"] = nil
        headers["Content-Length"] = String(response.body.count)
        return ServerAPI.Response(status: 304, headers: headers)
    }
}
