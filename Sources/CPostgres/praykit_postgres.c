// Loads libpq with dlopen on first use; see include/praykit_postgres.h.
#include "praykit_postgres.h"

// Linux only, as the header says: elsewhere this file compiles to nothing.
#if defined(__linux__)

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "praykit_system_library.h"

static struct {
    PGconn *(*connectdb)(const char *);
    PGPing (*ping)(const char *);
    ConnStatusType (*status)(const PGconn *);
    char *(*error_message)(const PGconn *);
    void (*finish)(PGconn *);
    PQnoticeProcessor (*set_notice_processor)(PGconn *, PQnoticeProcessor, void *);
    PGresult *(*exec_params)(PGconn *, const char *, int, const Oid *, const char *const *, const int *,
                             const int *, int);
    PGresult *(*prepare)(PGconn *, const char *, const char *, int, const Oid *);
    PGresult *(*exec_prepared)(PGconn *, const char *, int, const char *const *, const int *, const int *, int);
    ExecStatusType (*result_status)(const PGresult *);
    char *(*result_error_field)(const PGresult *, int);
    char *(*result_error_message)(const PGresult *);
    int (*ntuples)(const PGresult *);
    int (*nfields)(const PGresult *);
    char *(*getvalue)(const PGresult *, int, int);
    int (*getisnull)(const PGresult *, int, int);
    void (*clear)(PGresult *);
    int (*socket)(const PGconn *);
    int (*consume_input)(PGconn *);
    PGnotify *(*notifies)(PGconn *);
    void (*freemem)(void *);
} pq;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded;

static void *symbol(void *library, const char *name) {
    void *address = dlsym(library, name);
    if (!address && !load_error[0]) snprintf(load_error, sizeof load_error, "libpq lacks %s", name);
    return address;
}

static void load(void) {
    // libpq.so.5 is the runtime package (libpq5 on Debian); libpq.so only exists with -dev. Both only
    // from the system's folders, by absolute path (see praykit_system_library.h).
    static const char *const names[] = {"libpq.so.5", "libpq.so"};
    char reason[384];
    void *library = praykit_system_library_open(names, 2, reason, sizeof reason);
    if (!library) {
        snprintf(load_error, sizeof load_error,
                 "libpq is not installed (%s); install it (apt-get install libpq5) to use a PostgreSQL sync store",
                 reason);
        return;
    }
    pq.connectdb = (PGconn * (*)(const char *)) symbol(library, "PQconnectdb");
    pq.ping = (PGPing (*)(const char *))symbol(library, "PQping");
    pq.status = (ConnStatusType (*)(const PGconn *))symbol(library, "PQstatus");
    pq.error_message = (char *(*)(const PGconn *))symbol(library, "PQerrorMessage");
    pq.finish = (void (*)(PGconn *))symbol(library, "PQfinish");
    pq.set_notice_processor =
        (PQnoticeProcessor (*)(PGconn *, PQnoticeProcessor, void *))symbol(library, "PQsetNoticeProcessor");
    pq.exec_params = (PGresult * (*)(PGconn *, const char *, int, const Oid *, const char *const *, const int *,
                                     const int *, int)) symbol(library, "PQexecParams");
    pq.prepare = (PGresult * (*)(PGconn *, const char *, const char *, int, const Oid *)) symbol(library, "PQprepare");
    pq.exec_prepared = (PGresult * (*)(PGconn *, const char *, int, const char *const *, const int *, const int *,
                                       int)) symbol(library, "PQexecPrepared");
    pq.result_status = (ExecStatusType (*)(const PGresult *))symbol(library, "PQresultStatus");
    pq.result_error_field = (char *(*)(const PGresult *, int))symbol(library, "PQresultErrorField");
    pq.result_error_message = (char *(*)(const PGresult *))symbol(library, "PQresultErrorMessage");
    pq.ntuples = (int (*)(const PGresult *))symbol(library, "PQntuples");
    pq.nfields = (int (*)(const PGresult *))symbol(library, "PQnfields");
    pq.getvalue = (char *(*)(const PGresult *, int, int))symbol(library, "PQgetvalue");
    pq.getisnull = (int (*)(const PGresult *, int, int))symbol(library, "PQgetisnull");
    pq.clear = (void (*)(PGresult *))symbol(library, "PQclear");
    pq.socket = (int (*)(const PGconn *))symbol(library, "PQsocket");
    pq.consume_input = (int (*)(PGconn *))symbol(library, "PQconsumeInput");
    pq.notifies = (PGnotify * (*)(PGconn *)) symbol(library, "PQnotifies");
    pq.freemem = (void (*)(void *))symbol(library, "PQfreemem");
    loaded = load_error[0] == 0;
}

int praykit_pq_load(char *error, size_t capacity) {
    pthread_once(&once, load);
    if (loaded) return 0;
    if (error && capacity > 0) snprintf(error, capacity, "%s", load_error);
    return 1;
}

// Drops a notice: the store reports what matters through its errors, and a server's stderr is no
// place for "relation already exists, skipping".
static void ignore_notice(void *context, const char *message) {
    (void)context;
    (void)message;
}

PGconn *praykit_pq_connect(const char *conninfo) {
    PGconn *connection = pq.connectdb(conninfo);
    if (connection) pq.set_notice_processor(connection, ignore_notice, NULL);
    return connection;
}
PGPing praykit_pq_ping(const char *conninfo) { return pq.ping(conninfo); }
ConnStatusType praykit_pq_status(const PGconn *connection) { return pq.status(connection); }
char *praykit_pq_error_message(const PGconn *connection) { return pq.error_message(connection); }
void praykit_pq_finish(PGconn *connection) { pq.finish(connection); }

PGresult *praykit_pq_exec(PGconn *connection, const char *command, int count, const char *const *values) {
    return pq.exec_params(connection, command, count, NULL, values, NULL, NULL, 0);
}
PGresult *praykit_pq_prepare(PGconn *connection, const char *name, const char *command, int count) {
    return pq.prepare(connection, name, command, count, NULL);
}
PGresult *praykit_pq_exec_prepared(PGconn *connection, const char *name, int count, const char *const *values) {
    return pq.exec_prepared(connection, name, count, values, NULL, NULL, 0);
}
ExecStatusType praykit_pq_result_status(const PGresult *result) { return pq.result_status(result); }
char *praykit_pq_result_error_field(const PGresult *result, int field) {
    return pq.result_error_field(result, field);
}
char *praykit_pq_result_error_message(const PGresult *result) { return pq.result_error_message(result); }
int praykit_pq_ntuples(const PGresult *result) { return pq.ntuples(result); }
int praykit_pq_nfields(const PGresult *result) { return pq.nfields(result); }
char *praykit_pq_getvalue(const PGresult *result, int row, int column) { return pq.getvalue(result, row, column); }
int praykit_pq_getisnull(const PGresult *result, int row, int column) {
    return pq.getisnull(result, row, column);
}
void praykit_pq_clear(PGresult *result) { pq.clear(result); }

int praykit_pq_socket(const PGconn *connection) { return pq.socket(connection); }
int praykit_pq_consume_input(PGconn *connection) { return pq.consume_input(connection); }
PGnotify *praykit_pq_notifies(PGconn *connection) { return pq.notifies(connection); }
void praykit_pq_freemem(void *pointer) { pq.freemem(pointer); }

#endif  // __linux__
