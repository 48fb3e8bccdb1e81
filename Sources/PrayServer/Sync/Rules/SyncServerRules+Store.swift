import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - What every store does alike

extension SyncServerRules {
    /// The address as a key of the failure counts (``ServerAPI/Configuration/addressKey(_:)``): one
    /// spelling of an IPv4 address (an IPv4-mapped IPv6 one included), the /64 of an IPv6 address,
    /// anything else cut to 100 bytes, so that neither another spelling of one address, nor a new
    /// address in the same /64, nor a long forged text makes a new counter.
    package static func addressKey(_ address: String) -> String {
        ServerAPI.Configuration.addressKey(address)
    }

    /// A row read back from a store's columns.
    /// - Throws: ``StorageError`` (`invalidData`) for a row no store could have written.
    package static func storedRow(
        collection: String?, key: String?, value: String?, deleted: Bool, hlc: String?
    ) throws(StorageError) -> SyncRow {
        let key = key ?? ""
        guard let collection = SyncCollection(rawValue: collection ?? ""), let hlc = try? HLC(parsing: hlc ?? "")
        else {
            throw StorageError(kind: .invalidData, message: "the sync store holds a malformed row (\(key))")
        }
        var decoded: SyncValue?
        if !deleted, let value {
            do {
                decoded = try SyncValue(collection, json: Data(value.utf8))
            } catch {
                throw StorageError(kind: .invalidData, message: "the sync store holds a malformed value (\(key))")
            }
        }
        return SyncRow(collection: collection, key: key, hlc: hlc, deleted: deleted, value: decoded)
    }

    /// `rate_limited` with the seconds left in a failure window that began at `start`.
    package static func rateLimited(windowStart start: Int64, window: TimeInterval, now: Date) -> SyncServerError {
        let seconds = retryAfter(windowStart: start, window: window, now: now)
        return SyncServerError(
            .rateLimited, message: "too many failed attempts from this address: try again in \(seconds) seconds",
            retryAfter: seconds)
    }

    /// `user_exists`, for `addUser` with a name taken.
    package static func userExists(_ name: String) -> SyncServerError {
        SyncServerError(.userExists, message: "a user named \(name) exists already")
    }

    /// `not_found`, for a user name the store does not know.
    package static func unknownUser(_ name: String) -> SyncServerError {
        SyncServerError(.notFound, message: "no user named \(name): add them first")
    }

    /// `not_found`, for a device ID the store does not know.
    package static func unknownDevice(_ deviceID: String) -> SyncServerError {
        SyncServerError(.notFound, message: "no device \(deviceID): see the device list")
    }

    /// `forbidden`, for a client ID registered to another device.
    package static let foreignClientID = SyncServerError(
        .forbidden,
        message: "this client ID belongs to another device: a database copied from another machine "
            + "must log in again to get its own")

    /// `too_large`, for a push that would keep `count` rows for the user, more than `maximum`.
    package static func tooManyRows(_ count: Int64, maximum: Int) -> SyncServerError {
        SyncServerError(
            .tooLarge,
            message: "this push would keep \(count) rows for the user, more than the \(maximum) this server "
                + "allows: delete old entries, or ask the administrator to raise the limit")
    }

    /// A page of rows after a version, by `pageCut(versions:limit:)`, from a store's three queries.
    /// - Parameters:
    ///   - limit: The page's limit, checked.
    ///   - version: A row's version.
    ///   - first: The first `count` rows after the cursor, in version order.
    ///   - wholeVersion: Every row of one version.
    ///   - anyAfter: Whether a row follows a version.
    /// - Returns: The page's rows and whether more follow.
    /// - Throws: What the queries throw.
    package static func page<Row>(
        limit: Int, version: (Row) -> Int64, first: (_ count: Int) throws -> [Row],
        wholeVersion: (Int64) throws -> [Row], anyAfter: (Int64) throws -> Bool
    ) throws -> (rows: [Row], hasMore: Bool) {
        let rows = try first(limit + 1)
        switch pageCut(versions: rows.map(version), limit: limit) {
        case .last(let count): return (Array(rows.prefix(count)), false)
        case .more(let count): return (Array(rows.prefix(count)), true)
        case .wholeVersion(let number): return (try wholeVersion(number), try anyAfter(number))
        }
    }
}
