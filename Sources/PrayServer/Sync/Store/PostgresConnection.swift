#if canImport(CPostgres)
    internal import CPostgres
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    #if canImport(Glibc)
        import Glibc
    #endif
    import PrayCore

    /// A statement PostgreSQL refused, or a connection that failed or was lost: the SQLSTATE, the
    /// server's primary message and the SQL, never the bound values, the password or the connection
    /// string. ``PostgresPool`` runs a transaction again after some, and hands on ``storageError``.
    struct PostgresError: Error {
        /// The five-character SQLSTATE (`40001`), or `nil` when none came (a lost connection).
        let sqlState: String?
        /// The server's (or libpq's) message.
        let message: String
        /// The statement, without its values.
        let sql: String?
        /// Whether the connection is gone (it is then dropped, and the next use opens a new one).
        let connectionLost: Bool

        /// A serialization failure or a deadlock (`40001`, `40P01`): the server rolled the transaction
        /// back, and running it again may succeed.
        var isSerializationFailure: Bool { sqlState == "40001" || sqlState == "40P01" }

        /// The error the store throws, of a kind chosen by the SQLSTATE's class.
        var storageError: StorageError {
            let state = sqlState ?? ""
            let kind: StorageError.Kind =
                switch state {
                // A server that is away: a connection lost, or no server answering (none on the
                // socket, a network down, a failover under way), connection exceptions (class 08), a
                // server shutting down or starting (57P01–57P03). A server that answers and refuses
                // the login (a wrong password) is not away: that stays `.other`, and is not retried.
                case _ where connectionLost || state.hasPrefix("08") || state.hasPrefix("57P"): .unavailable
                case "40001", "40P01", "55P03", "57014": .busy
                case _ where state.hasPrefix("53"): .full
                case _ where state.hasPrefix("23"): .constraint
                case "25006": .readOnly
                case "XX001", "XX002": .corrupt
                default: .other
                }
            let prefix = sqlState.map { "PostgreSQL, SQLSTATE \($0)" } ?? "PostgreSQL"
            return StorageError(kind: kind, message: "\(prefix): \(message)", sql: sql)
        }
    }

    /// One libpq connection. Not `Sendable`: ``PostgresPool`` keeps each behind a mutex, so only one
    /// thread uses it at a time. Closed in `deinit`.
    final class PostgresConnection: SyncSQLConnection {
        private let handle: OpaquePointer

        /// Connects. `conninfo` is a `postgres://` URL or libpq's `key=value` form; it may hold a
        /// password, so no message ever repeats it.
        /// - Throws: ``PostgresError`` (`connectionLost`) with libpq's reason, or saying which package
        ///   to install when libpq is missing.
        init(conninfo: String) throws(PostgresError) {
            var reason = [CChar](repeating: 0, count: 512)
            guard praykit_pq_load(&reason, reason.count) == 0 else {
                throw PostgresError(
                    sqlState: nil,
                    message: String(
                        decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                        as: UTF8.self), sql: nil, connectionLost: false)
            }
            guard let handle = praykit_pq_connect(conninfo) else {
                throw PostgresError(sqlState: nil, message: "out of memory", sql: nil, connectionLost: true)
            }
            guard praykit_pq_status(handle) == CONNECTION_OK else {
                let message = Self.trimmed(praykit_pq_error_message(handle))
                praykit_pq_finish(handle)
                // A server that answers but refused this connection (a wrong password, an unknown
                // database or user) will refuse it again: not a connection lost, which is retried.
                // PQping asks without logging in, so it tells the two apart in any language.
                let answering = praykit_pq_ping(conninfo) == PQPING_OK
                throw PostgresError(
                    sqlState: nil, message: "cannot connect: \(message)", sql: nil, connectionLost: !answering)
            }
            self.handle = handle
        }

        deinit { praykit_pq_finish(handle) }

        /// Whether the connection is gone.
        var isBroken: Bool { praykit_pq_status(handle) != CONNECTION_OK }

        /// The statements prepared on this connection (SQL → name): the server parses and plans each
        /// once per connection, not at every run.
        private var prepared: [String: String] = [:]

        /// Runs one statement with its values bound as parameters `$1`, `$2`, … and returns its rows.
        /// A statement with parameters is prepared on this connection at its first run and reused
        /// after; one without (`BEGIN`, the schema's) runs as it is.
        /// - Throws: ``PostgresError``.
        @discardableResult
        func query(_ sql: String, _ values: [SyncSQLValue] = []) throws(PostgresError) -> [SyncSQLRow] {
            // strdup'd copies: the C strings must outlive the call, and a Swift string's own storage
            // is only lent inside a closure.
            let arguments: [UnsafeMutablePointer<CChar>?] = values.map { $0.text.flatMap { strdup($0) } }
            defer { arguments.forEach { free($0) } }
            let name = values.isEmpty ? nil : try statement(sql, parameters: values.count)
            let result = arguments.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { parameters in
                    if let name {
                        praykit_pq_exec_prepared(handle, name, Int32(values.count), parameters.baseAddress)
                    } else {
                        praykit_pq_exec(handle, sql, Int32(values.count), parameters.baseAddress)
                    }
                }
            }
            let (count, columns) = try check(result, sql: sql)
            defer { praykit_pq_clear(result) }
            return (0..<count).map { row in
                SyncSQLRow(
                    columns: (0..<columns).map { column in
                        praykit_pq_getisnull(result, Int32(row), Int32(column)) != 0
                            ? nil : praykit_pq_getvalue(result, Int32(row), Int32(column)).map { String(cString: $0) }
                    })
            }
        }

        /// The name of `sql` prepared on this connection, preparing it at its first use. A statement
        /// the server refuses is not kept, and its error is the statement's.
        private func statement(_ sql: String, parameters: Int) throws(PostgresError) -> String {
            if let name = prepared[sql] { return name }
            let name = "praykit_\(prepared.count + 1)"
            let result = praykit_pq_prepare(handle, name, sql, Int32(parameters))
            _ = try check(result, sql: sql)
            praykit_pq_clear(result)
            prepared[sql] = name
            return name
        }

        /// The rows and columns of a result that succeeded; the result is cleared when it failed.
        /// - Throws: ``PostgresError`` with the SQLSTATE and the server's primary message.
        private func check(_ result: OpaquePointer?, sql: String) throws(PostgresError) -> (rows: Int, columns: Int) {
            guard let result else {
                throw PostgresError(
                    sqlState: nil, message: Self.trimmed(praykit_pq_error_message(handle)), sql: sql,
                    connectionLost: isBroken)
            }
            let status = praykit_pq_result_status(result)
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
                defer { praykit_pq_clear(result) }
                // 'C' and 'M': PG_DIAG_SQLSTATE and PG_DIAG_MESSAGE_PRIMARY (character constants, which
                // Swift does not import). The detail is left out: it can quote the values.
                let state = praykit_pq_result_error_field(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
                let primary = praykit_pq_result_error_field(result, Int32(UInt8(ascii: "M"))).map {
                    String(cString: $0)
                }
                throw PostgresError(
                    sqlState: state, message: primary ?? Self.trimmed(praykit_pq_result_error_message(result)),
                    sql: sql, connectionLost: isBroken)
            }
            return (Int(praykit_pq_ntuples(result)), Int(praykit_pq_nfields(result)))
        }

        /// Runs one statement (see ``query(_:_:)``), for the stores' shared logic.
        func rows(_ sql: String, _ values: [SyncSQLValue]) throws -> [SyncSQLRow] {
            try query(sql, values)
        }

        // MARK: - Notifications

        /// The connection's socket, for `poll` while it waits for notifications (`-1` when it has none).
        var socket: Int32 { praykit_pq_socket(handle) }

        /// Reads what the server sent, without waiting: the notifications are then in
        /// ``notifications()``. `false` when the connection failed (the server went away).
        func consumeInput() -> Bool { praykit_pq_consume_input(handle) == 1 && !isBroken }

        /// The notifications read so far (`LISTEN`), oldest first, as channel and payload.
        func notifications() -> [(channel: String, payload: String)] {
            var heard: [(channel: String, payload: String)] = []
            while let notification = praykit_pq_notifies(handle) {
                let channel = notification.pointee.relname.map { String(cString: $0) } ?? ""
                let payload = notification.pointee.extra.map { String(cString: $0) } ?? ""
                praykit_pq_freemem(notification)
                heard.append((channel, payload))
            }
            return heard
        }

        /// libpq's message on one line.
        private static func trimmed(_ message: UnsafeMutablePointer<CChar>?) -> String {
            // libpq's messages run over lines ("…failed: Connection refused\n\tIs the server running…").
            let lines = message.map { String(cString: $0).split(whereSeparator: \.isNewline) } ?? []
            let text = lines.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            return text.isEmpty ? "unknown error" : text.joined(separator: " ")
        }
    }
#endif
