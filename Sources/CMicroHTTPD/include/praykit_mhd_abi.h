// The part of libmicrohttpd's interface PrayKit uses, declared here instead of included from
// <microhttpd.h>, so that building PrayKit needs no libmicrohttpd-dev (swift.org's list of
// dependencies for Debian 12 does not have it): the library is only loaded at run time, by
// praykit_mhd_load. Names, values and layouts are copied from Debian 12's libmicrohttpd-dev 0.9.75
// (MHD_VERSION 0x00097500), and are part of the ABI of libmicrohttpd.so.12, which keeps them: an enum
// value or a struct layout that changed would need a new soname. Only what PrayKit uses is here.
#ifndef PRAYKIT_MHD_ABI_H
#define PRAYKIT_MHD_ABI_H

#if defined(__linux__)

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

// As in microhttpd.h: a closed enum is imported by Swift as a Swift enum (`.YES`, `.HEADER_KIND`).
// Clang's attribute; other compilers (gcc, in Scripts/fresh-machine-check.sh) go without.
#if defined(__has_attribute)
#if __has_attribute(enum_extensibility)
#define PRAYKIT_MHD_FIXED_ENUM __attribute__((enum_extensibility(closed)))
#endif
#endif
#ifndef PRAYKIT_MHD_FIXED_ENUM
#define PRAYKIT_MHD_FIXED_ENUM
#endif

// The library's handles, opaque.
struct MHD_Daemon;
struct MHD_Connection;
struct MHD_Response;

// A socket (an int on POSIX systems).
typedef int MHD_socket;

enum MHD_Result { MHD_NO = 0, MHD_YES = 1 } PRAYKIT_MHD_FIXED_ENUM;

// The daemon's flags that PrayKit sets (MHD_start_daemon's first argument).
enum MHD_FLAG {
    MHD_USE_ERROR_LOG = 1,
    MHD_USE_INTERNAL_POLLING_THREAD = 8,
    MHD_USE_IPv6 = 16,
    MHD_USE_EPOLL = 512,
    MHD_USE_ITC = 1024,
    // MHD_ALLOW_SUSPEND_RESUME is this with MHD_USE_ITC: the event streams park their connections.
    MHD_USE_SUSPEND_RESUME = 8192,
    MHD_USE_AUTO = 65536,
};

// The daemon's options that PrayKit sets.
enum MHD_OPTION {
    MHD_OPTION_END = 0,
    MHD_OPTION_CONNECTION_MEMORY_LIMIT = 1,
    MHD_OPTION_CONNECTION_LIMIT = 2,
    MHD_OPTION_CONNECTION_TIMEOUT = 3,
    MHD_OPTION_NOTIFY_COMPLETED = 4,
    MHD_OPTION_PER_IP_CONNECTION_LIMIT = 5,
    MHD_OPTION_SOCK_ADDR = 6,
    MHD_OPTION_URI_LOG_CALLBACK = 7,
    MHD_OPTION_EXTERNAL_LOGGER = 13,
    MHD_OPTION_THREAD_POOL_SIZE = 14,
    MHD_OPTION_ARRAY = 15,
    MHD_OPTION_NOTIFY_CONNECTION = 27,
    MHD_OPTION_LISTEN_BACKLOG_SIZE = 28,
} PRAYKIT_MHD_FIXED_ENUM;

// One entry of an MHD_OPTION_ARRAY.
struct MHD_OptionItem {
    enum MHD_OPTION option;
    intptr_t value;
    void *ptr_value;
};

// Every kind, since the library hands them to PrayKit's callbacks.
enum MHD_ValueKind {
    MHD_RESPONSE_HEADER_KIND = 0,
    MHD_HEADER_KIND = 1,
    MHD_COOKIE_KIND = 2,
    MHD_POSTDATA_KIND = 4,
    MHD_GET_ARGUMENT_KIND = 8,
    MHD_FOOTER_KIND = 16,
} PRAYKIT_MHD_FIXED_ENUM;

enum MHD_ResponseMemoryMode {
    MHD_RESPMEM_PERSISTENT = 0,
    MHD_RESPMEM_MUST_FREE = 1,
    MHD_RESPMEM_MUST_COPY = 2,
} PRAYKIT_MHD_FIXED_ENUM;

// Every code, since the library hands them to PrayKit's callbacks.
enum MHD_RequestTerminationCode {
    MHD_REQUEST_TERMINATED_COMPLETED_OK = 0,
    MHD_REQUEST_TERMINATED_WITH_ERROR = 1,
    MHD_REQUEST_TERMINATED_TIMEOUT_REACHED = 2,
    MHD_REQUEST_TERMINATED_DAEMON_SHUTDOWN = 3,
    MHD_REQUEST_TERMINATED_READ_ERROR = 4,
    MHD_REQUEST_TERMINATED_CLIENT_ABORT = 5,
} PRAYKIT_MHD_FIXED_ENUM;

enum MHD_ConnectionNotificationCode {
    MHD_CONNECTION_NOTIFY_STARTED = 0,
    MHD_CONNECTION_NOTIFY_CLOSED = 1,
} PRAYKIT_MHD_FIXED_ENUM;

// What MHD_get_daemon_info and MHD_get_connection_info are asked for, and the members of their
// answers that PrayKit reads (a union: every member starts at the answer's first byte).
enum MHD_DaemonInfoType {
    MHD_DAEMON_INFO_CURRENT_CONNECTIONS = 4,
    MHD_DAEMON_INFO_BIND_PORT = 6,
} PRAYKIT_MHD_FIXED_ENUM;

union MHD_DaemonInfo {
    uint16_t port;
    unsigned int num_connections;
};

enum MHD_ConnectionInfoType {
    MHD_CONNECTION_INFO_CLIENT_ADDRESS = 2,
    MHD_CONNECTION_INFO_CONNECTION_FD = 6,
    MHD_CONNECTION_INFO_SOCKET_CONTEXT = 7,
} PRAYKIT_MHD_FIXED_ENUM;

union MHD_ConnectionInfo {
    MHD_socket connect_fd;
    struct sockaddr *client_addr;
    void *socket_context;
};

// The callbacks.
typedef enum MHD_Result (*MHD_AcceptPolicyCallback)(void *cls, const struct sockaddr *addr, socklen_t addrlen);
typedef enum MHD_Result (*MHD_AccessHandlerCallback)(
    void *cls, struct MHD_Connection *connection, const char *url, const char *method, const char *version,
    const char *upload_data, size_t *upload_data_size, void **con_cls);
typedef void (*MHD_RequestCompletedCallback)(
    void *cls, struct MHD_Connection *connection, void **con_cls, enum MHD_RequestTerminationCode toe);
typedef void (*MHD_NotifyConnectionCallback)(
    void *cls, struct MHD_Connection *connection, void **socket_context, enum MHD_ConnectionNotificationCode toe);
typedef enum MHD_Result (*MHD_KeyValueIterator)(
    void *cls, enum MHD_ValueKind kind, const char *key, const char *value);
typedef void (*MHD_LogCallback)(void *cls, const char *fm, va_list ap);
typedef ssize_t (*MHD_ContentReaderCallback)(void *cls, uint64_t pos, char *buf, size_t max);
typedef void (*MHD_ContentReaderFreeCallback)(void *cls);

// A response of unknown length (sent chunked), and the content reader's "the end".
#define MHD_SIZE_UNKNOWN ((uint64_t)-1LL)
#define MHD_CONTENT_READER_END_OF_STREAM ((ssize_t)-1)

#endif  // __linux__

#endif
