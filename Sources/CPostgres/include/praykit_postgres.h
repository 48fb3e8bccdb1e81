// libpq for PrayKit's PostgreSQL sync store, loaded on first use: praykit_pq_abi.h declares the types
// and constants (so building needs no libpq-dev), and the functions are reached through dlopen of
// libpq.so.5 from the system's library folders (by absolute path, never from beside the binary: see
// praykit_system_library.h), so that only a server with a PostgreSQL store loads libpq and the TLS and
// Kerberos libraries it pulls in. Only PrayServices imports this module; it calls the praykit_pq_*
// functions, never libpq's own.
#ifndef PRAYKIT_POSTGRES_H
#define PRAYKIT_POSTGRES_H

// Linux only (the dlopen names are Linux ones): elsewhere this module is empty. Package.swift depends
// on it only on Linux.
#if defined(__linux__)

#include <stddef.h>

#include "praykit_pq_abi.h"

// Loads libpq once (thread-safe); 0 on success. On failure, 1 and a message in `error` that names
// the package to install.
int praykit_pq_load(char *error, size_t capacity);

// A new connection (NULL only when out of memory) whose notices (such as "relation already exists,
// skipping") are dropped instead of printed on stderr.
PGconn *praykit_pq_connect(const char *conninfo);
// Whether a server answers at `conninfo` (PQping): accepting connections, answering but refusing them
// (starting or shutting down), not answering, or not tried (the parameters are wrong).
PGPing praykit_pq_ping(const char *conninfo);
ConnStatusType praykit_pq_status(const PGconn *connection);
char *praykit_pq_error_message(const PGconn *connection);
void praykit_pq_finish(PGconn *connection);

// Runs `command` with `count` text parameters ($1, $2, …; NULL for SQL NULL), their types inferred by
// the server, and asks for text results.
PGresult *praykit_pq_exec(PGconn *connection, const char *command, int count, const char *const *values);
// Prepares `command` (with `count` parameters, their types inferred) as the statement `name` of this
// connection, and runs a prepared statement with text parameters, asking for text results: parsed and
// planned once per connection instead of at every run.
PGresult *praykit_pq_prepare(PGconn *connection, const char *name, const char *command, int count);
PGresult *praykit_pq_exec_prepared(PGconn *connection, const char *name, int count, const char *const *values);
ExecStatusType praykit_pq_result_status(const PGresult *result);
char *praykit_pq_result_error_field(const PGresult *result, int field);
char *praykit_pq_result_error_message(const PGresult *result);
int praykit_pq_ntuples(const PGresult *result);
int praykit_pq_nfields(const PGresult *result);
char *praykit_pq_getvalue(const PGresult *result, int row, int column);
int praykit_pq_getisnull(const PGresult *result, int row, int column);
void praykit_pq_clear(PGresult *result);

// For a connection that LISTENs (the sync server's event listener): its socket, to poll; reads what
// the server sent (1, or 0 when the connection failed); the next notification read, or NULL; and frees
// a notification.
int praykit_pq_socket(const PGconn *connection);
int praykit_pq_consume_input(PGconn *connection);
PGnotify *praykit_pq_notifies(PGconn *connection);
void praykit_pq_freemem(void *pointer);

#endif  // __linux__

#endif
