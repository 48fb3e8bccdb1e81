// The part of libpq's interface PrayKit uses, declared here instead of included from
// <postgresql/libpq-fe.h>, so that building PrayKit needs no libpq-dev (swift.org's list of
// dependencies for Debian 12 does not have it): the library is only loaded at run time, by
// praykit_pq_load. Names and values are copied from Debian 12's libpq-dev 15 (libpq-fe.h of
// PostgreSQL 15), and are part of the ABI of libpq.so.5, which keeps them across PostgreSQL versions
// (new values are only ever appended). Only what PrayKit uses is here; the enums are open (imported by
// Swift as structs), so a value not listed here is still a valid answer.
#ifndef PRAYKIT_PQ_ABI_H
#define PRAYKIT_PQ_ABI_H

#if defined(__linux__)

// A connection and a result, opaque.
typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

// An object identifier (a parameter's type; PrayKit passes none and lets the server infer them).
typedef unsigned int Oid;

// Receives a notice from the server.
typedef void (*PQnoticeProcessor)(void *arg, const char *message);

typedef enum {
    CONNECTION_OK = 0,
    CONNECTION_BAD = 1,
} ConnStatusType;

typedef enum {
    PGRES_EMPTY_QUERY = 0,
    PGRES_COMMAND_OK = 1,
    PGRES_TUPLES_OK = 2,
    PGRES_FATAL_ERROR = 7,
} ExecStatusType;

// A notification heard on a channel the connection LISTENs to (PQnotifies): the channel, the
// notifying backend's process ID and the payload; freed with PQfreemem.
typedef struct pgNotify {
    char *relname;
    int be_pid;
    char *extra;
    struct pgNotify *next;
} PGnotify;

typedef enum {
    PQPING_OK = 0,
    PQPING_REJECT = 1,
    PQPING_NO_RESPONSE = 2,
    PQPING_NO_ATTEMPT = 3,
} PGPing;

#endif  // __linux__

#endif
