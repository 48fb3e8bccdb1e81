// Loads libmicrohttpd with dlopen on first use; see include/praykit_mhd.h.
#include "praykit_mhd.h"

// Linux only, as the header says: elsewhere this file compiles to nothing.
#if defined(__linux__)

#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <strings.h>

#include "praykit_system_library.h"

static struct {
    struct MHD_Daemon *(*start_daemon)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *, MHD_AccessHandlerCallback, void *, ...);
    const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...);
    const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...);
    struct MHD_Response *(*create_response_from_buffer)(size_t, void *, enum MHD_ResponseMemoryMode);
    enum MHD_Result (*add_response_header)(struct MHD_Response *, const char *, const char *);
    enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned int, struct MHD_Response *);
    void (*destroy_response)(struct MHD_Response *);
    int (*get_connection_values)(struct MHD_Connection *, enum MHD_ValueKind, MHD_KeyValueIterator, void *);
    MHD_socket (*quiesce_daemon)(struct MHD_Daemon *);
    void (*stop_daemon)(struct MHD_Daemon *);
    struct MHD_Response *(*create_response_from_callback)(
        uint64_t, size_t, MHD_ContentReaderCallback, void *, MHD_ContentReaderFreeCallback);
    void (*suspend_connection)(struct MHD_Connection *);
    void (*resume_connection)(struct MHD_Connection *);
} mhd;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded;

static void *symbol(void *library, const char *name) {
    void *address = dlsym(library, name);
    if (!address && !load_error[0]) snprintf(load_error, sizeof load_error, "libmicrohttpd lacks %s", name);
    return address;
}

static void load(void) {
    // libmicrohttpd.so.12 is the runtime package (libmicrohttpd12 on Debian); .so only with -dev. Both
    // only from the system's folders, by absolute path (see praykit_system_library.h).
    static const char *const names[] = {"libmicrohttpd.so.12", "libmicrohttpd.so"};
    char reason[384];
    void *library = praykit_system_library_open(names, 2, reason, sizeof reason);
    if (!library) {
        snprintf(load_error, sizeof load_error,
                 "libmicrohttpd is not installed (%s); install it (apt-get install libmicrohttpd12) to serve",
                 reason);
        return;
    }
    *(void **)&mhd.start_daemon = symbol(library, "MHD_start_daemon");
    *(void **)&mhd.get_daemon_info = symbol(library, "MHD_get_daemon_info");
    *(void **)&mhd.get_connection_info = symbol(library, "MHD_get_connection_info");
    *(void **)&mhd.create_response_from_buffer = symbol(library, "MHD_create_response_from_buffer");
    *(void **)&mhd.add_response_header = symbol(library, "MHD_add_response_header");
    *(void **)&mhd.queue_response = symbol(library, "MHD_queue_response");
    *(void **)&mhd.destroy_response = symbol(library, "MHD_destroy_response");
    *(void **)&mhd.get_connection_values = symbol(library, "MHD_get_connection_values");
    *(void **)&mhd.quiesce_daemon = symbol(library, "MHD_quiesce_daemon");
    *(void **)&mhd.stop_daemon = symbol(library, "MHD_stop_daemon");
    *(void **)&mhd.create_response_from_callback = symbol(library, "MHD_create_response_from_callback");
    *(void **)&mhd.suspend_connection = symbol(library, "MHD_suspend_connection");
    *(void **)&mhd.resume_connection = symbol(library, "MHD_resume_connection");
    loaded = load_error[0] == 0;
}

int praykit_mhd_load(char *error, size_t capacity) {
    pthread_once(&once, load);
    if (loaded) return 0;
    if (error && capacity > 0) snprintf(error, capacity, "%s", load_error);
    return 1;
}

struct MHD_Response *praykit_mhd_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode) {
    return mhd.create_response_from_buffer(size, buffer, mode);
}

static ssize_t praykit_mhd_no_content(void *context, uint64_t position, char *buffer, size_t capacity) {
    (void)context;
    (void)position;
    (void)buffer;
    (void)capacity;
    return MHD_CONTENT_READER_END_OF_STREAM;
}

struct MHD_Response *praykit_mhd_create_response_without_content(uint64_t size) {
    return mhd.create_response_from_callback(size, 512, praykit_mhd_no_content, NULL, NULL);
}
enum MHD_Result praykit_mhd_add_response_header(struct MHD_Response *response, const char *header, const char *content) {
    return mhd.add_response_header(response, header, content);
}
enum MHD_Result praykit_mhd_queue_response(struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response) {
    return mhd.queue_response(connection, status, response);
}
void praykit_mhd_destroy_response(struct MHD_Response *response) { mhd.destroy_response(response); }
int praykit_mhd_get_connection_values(
    struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator, void *context) {
    return mhd.get_connection_values(connection, kind, iterator, context);
}
MHD_socket praykit_mhd_quiesce_daemon(struct MHD_Daemon *daemon) { return mhd.quiesce_daemon(daemon); }
void praykit_mhd_stop_daemon(struct MHD_Daemon *daemon) { mhd.stop_daemon(daemon); }

// Formats a libmicrohttpd message and hands it to the settings' logger.
static void praykit_mhd_log_trampoline(void *context, const char *format, va_list arguments) {
    const struct praykit_mhd_settings *settings = (const struct praykit_mhd_settings *)context;
    char message[512];
    vsnprintf(message, sizeof message, format, arguments);
    if (settings->log != NULL) settings->log(settings->log_context, message);
}

// The request line was read: the request's context records the target's length as sent, whether it
// holds an encoded NUL, and whether its query has too many parameters (the URI callback sees the target
// before libmicrohttpd decodes it or parses its query).
static void *praykit_mhd_line_read(void *context, const char *uri, struct MHD_Connection *connection) {
    (void)context;
    (void)connection;
    if (uri == NULL) return (void *)praykit_mhd_state_line(0);
    uintptr_t state = praykit_mhd_state_line(strlen(uri));
    const char *query = NULL;
    size_t parameters = 0;
    for (const char *next = uri; *next != 0; next++) {
        if (next[0] == '%' && next[1] == '0' && next[2] == '0') state |= PRAYKIT_MHD_TARGET_NUL;
        if (query == NULL && next[0] == '?') {
            query = next;
            parameters = 1;
        } else if (query != NULL && next[0] == '&') {
            parameters++;
        }
    }
    if (parameters > PRAYKIT_MHD_MAXIMUM_PARAMETERS) {
        // libmicrohttpd parses the query from the same buffer right after this callback (0.9.75 and
        // 1.0 alike, from the byte after the '?'): an empty one makes no record. The request is refused
        // before any route reads it.
        ((char *)query)[1] = 0;
        state |= PRAYKIT_MHD_TOO_MANY_PARAMETERS;
    }
    return (void *)state;
}

// Starts a daemon with the typed settings (MHD_start_daemon with an MHD_OPTION_ARRAY).
struct MHD_Daemon *praykit_mhd_start_daemon(
    unsigned int flags, uint16_t port, MHD_AccessHandlerCallback handler, void *handler_context,
    const struct praykit_mhd_settings *settings) {
    struct MHD_OptionItem options[14];
    int count = 0;
    if (settings->address != NULL) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, (void *)settings->address};
    }
    if (settings->thread_pool_size > 1) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, settings->thread_pool_size, NULL};
    }
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit, NULL};
    if (settings->per_address_connection_limit > 0) {
        options[count++] = (struct MHD_OptionItem){
            MHD_OPTION_PER_IP_CONNECTION_LIMIT, settings->per_address_connection_limit, NULL};
    }
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)praykit_mhd_line_read, NULL};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout, NULL};
    options[count++] =
        (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)settings->connection_memory_limit, NULL};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_BACKLOG_SIZE, settings->listen_backlog, NULL};
    if (settings->completed != NULL) {
        options[count++] = (struct MHD_OptionItem){
            MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)settings->completed, settings->completed_context};
    }
    if (settings->notify_connection != NULL) {
        options[count++] = (struct MHD_OptionItem){
            MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)settings->notify_connection, settings->notify_connection_context};
    }
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    // The logger first, so that the messages about every later option reach it.
    return mhd.start_daemon(
        flags, port, settings->accept, settings->accept_context, handler, handler_context, MHD_OPTION_EXTERNAL_LOGGER,
        praykit_mhd_log_trampoline, (void *)settings, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

// The port the daemon listens on (the one chosen when port 0 was asked for); 0 when unknown.
uint16_t praykit_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = mhd.get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// The number of connections open now.
unsigned int praykit_mhd_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = mhd.get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

// The socket of a connection, or -1.
int praykit_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = mhd.get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

// What the connection-notify callback stored in the connection's socket context, or NULL.
void *praykit_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = mhd.get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

// The client's address as text; an IPv4 client of an IPv6 socket (::ffff:a.b.c.d) in its IPv4 form.
int praykit_mhd_client_address(struct MHD_Connection *connection, char *buffer, size_t capacity) {
    if (buffer == NULL || capacity == 0) return -1;
    buffer[0] = 0;
    const union MHD_ConnectionInfo *info = mhd.get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    return praykit_mhd_address_text(info->client_addr, buffer, capacity);
}

// An IPv4 address as inet_ntop writes it ("a.b.c.d", each part in decimal without leading zeros), or
// NULL when it does not fit. glibc's inet_ntop formats it with sprintf: about 1,800 instructions, for
// every request (the client's address is read for each).
static const char *praykit_mhd_ipv4_text(const unsigned char bytes[4], char *buffer, size_t capacity) {
    char text[16];
    size_t length = 0;
    for (int index = 0; index < 4; index++) {
        unsigned int part = bytes[index];
        if (index > 0) text[length++] = '.';
        if (part >= 100) text[length++] = (char)('0' + part / 100);
        if (part >= 10) text[length++] = (char)('0' + part / 10 % 10);
        text[length++] = (char)('0' + part % 10);
    }
    if (length + 1 > capacity) return NULL;
    memcpy(buffer, text, length);
    buffer[length] = 0;
    return buffer;
}

// A socket address as text, as praykit_mhd_client_address writes it.
int praykit_mhd_address_text(const struct sockaddr *address, char *buffer, size_t capacity) {
    if (buffer == NULL || capacity == 0) return -1;
    buffer[0] = 0;
    if (address == NULL) return -1;
    const char *written = NULL;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)(const void *)address;
        written = praykit_mhd_ipv4_text((const unsigned char *)&v4->sin_addr, buffer, capacity);
    } else if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)(const void *)address;
        if (IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr)) {
            written = praykit_mhd_ipv4_text(&v6->sin6_addr.s6_addr[12], buffer, capacity);
        } else {
            written = inet_ntop(AF_INET6, &v6->sin6_addr, buffer, (socklen_t)capacity);
        }
    }
    if (written == NULL) {
        buffer[0] = 0;
        return -1;
    }
    return 0;
}

// Adds one header field to what praykit_mhd_read_head reports.
static enum MHD_Result praykit_mhd_head_field(void *context, enum MHD_ValueKind kind, const char *name, const char *value) {
    (void)kind;
    struct praykit_mhd_head *head = (struct praykit_mhd_head *)context;
    size_t name_length = name == NULL ? 0 : strlen(name);
    head->field_bytes += name_length + (value == NULL ? 0 : strlen(value)) + 4;
    if (name_length == 0 || strpbrk(name, " \t") != NULL) {
        head->malformed_names += 1;
        return MHD_YES;
    }
    if (strcasecmp(name, "Content-Length") == 0) {
        if (head->content_length_fields++ == 0 && value != NULL) {
            unsigned long long number = 0;
            for (const char *digit = value; *digit >= '0' && *digit <= '9'; digit++) {
                number = number > 1844674407370955160ULL ? ~0ULL : number * 10 + (unsigned long long)(*digit - '0');
            }
            head->content_length = number;
        }
    } else if (strcasecmp(name, "Transfer-Encoding") == 0) {
        head->transfer_encoding_fields += 1;
        head->chunked = value != NULL && strcasecmp(value, "chunked") == 0;
    } else if (strcasecmp(name, "Host") == 0) {
        head->host_fields += 1;
    }
    return MHD_YES;
}

void praykit_mhd_read_head(struct MHD_Connection *connection, struct praykit_mhd_head *head) {
    memset(head, 0, sizeof *head);
    mhd.get_connection_values(connection, MHD_HEADER_KIND, praykit_mhd_head_field, head);
}

// MARK: - Event streams

struct praykit_mhd_stream {
    pthread_mutex_t lock;
    // References: the creator's, and libmicrohttpd's once queued.
    int references;
    // The bytes waiting to be sent: `length` at `bytes`, which has room for `allocated` (grown on
    // demand: an idle stream waits with nothing) and may grow up to `capacity`.
    char *bytes;
    size_t length;
    size_t allocated;
    size_t capacity;
    // The response, until it is queued.
    struct MHD_Response *response;
    struct MHD_Connection *connection;
    // The connection is suspended: the content reader found nothing to send.
    int suspended;
    // No more bytes: the reader ends the response once `bytes` is sent.
    int ended;
    // libmicrohttpd is done with the response.
    int closed;
};

static void stream_unreference(struct praykit_mhd_stream *stream) {
    pthread_mutex_lock(&stream->lock);
    int left = --stream->references;
    pthread_mutex_unlock(&stream->lock);
    if (left > 0) return;
    pthread_mutex_destroy(&stream->lock);
    free(stream->bytes);
    free(stream);
}

// Makes room for `needed` bytes waiting (at most the capacity): doubling from 256. 0 when out of memory.
static int stream_reserve(struct praykit_mhd_stream *stream, size_t needed) {
    if (needed <= stream->allocated) return 1;
    size_t size = stream->allocated > 0 ? stream->allocated : 256;
    while (size < needed) size *= 2;
    if (size > stream->capacity) size = stream->capacity;
    char *bytes = realloc(stream->bytes, size);
    if (bytes == NULL) return 0;
    stream->bytes = bytes;
    stream->allocated = size;
    return 1;
}

// Resumes the connection when the reader suspended it; called with the lock held, so that the resume
// always follows the suspend (resuming a connection that is not suspended is undefined).
static void stream_wake(struct praykit_mhd_stream *stream) {
    if (stream->suspended && !stream->closed) {
        stream->suspended = 0;
        mhd.resume_connection(stream->connection);
    }
}

// libmicrohttpd asks for the next bytes: what waits, the end, or nothing yet — then the connection is
// suspended until a write or the end resumes it (returning 0 without suspending would spin).
static ssize_t stream_read(void *context, uint64_t position, char *buffer, size_t maximum) {
    (void)position;
    struct praykit_mhd_stream *stream = (struct praykit_mhd_stream *)context;
    pthread_mutex_lock(&stream->lock);
    if (stream->length > 0) {
        size_t count = stream->length < maximum ? stream->length : maximum;
        memcpy(buffer, stream->bytes, count);
        memmove(stream->bytes, stream->bytes + count, stream->length - count);
        stream->length -= count;
        pthread_mutex_unlock(&stream->lock);
        return (ssize_t)count;
    }
    if (stream->ended) {
        pthread_mutex_unlock(&stream->lock);
        return MHD_CONTENT_READER_END_OF_STREAM;
    }
    stream->suspended = 1;
    mhd.suspend_connection(stream->connection);
    pthread_mutex_unlock(&stream->lock);
    return 0;
}

// libmicrohttpd is done with the response (sent, or the connection closed).
static void stream_free(void *context) {
    struct praykit_mhd_stream *stream = (struct praykit_mhd_stream *)context;
    pthread_mutex_lock(&stream->lock);
    stream->closed = 1;
    stream->suspended = 0;
    pthread_mutex_unlock(&stream->lock);
    stream_unreference(stream);
}

struct praykit_mhd_stream *praykit_mhd_stream_create(size_t capacity) {
    struct praykit_mhd_stream *stream = calloc(1, sizeof *stream);
    if (stream == NULL) return NULL;
    pthread_mutex_init(&stream->lock, NULL);
    stream->references = 2;  // the creator's, and the response's (released by stream_free)
    stream->capacity = capacity;
    // The block is the buffer libmicrohttpd reads an unchunked body into (an HTTP/1.0 client); a
    // chunked one is read straight into the connection's write buffer. Events are small: a small
    // block keeps an idle stream small.
    stream->response =
        mhd.create_response_from_callback(MHD_SIZE_UNKNOWN, 512, stream_read, stream, stream_free);
    if (stream->response == NULL) {
        stream->references = 1;
        stream->closed = 1;
    }
    return stream;
}

enum MHD_Result praykit_mhd_stream_header(struct praykit_mhd_stream *stream, const char *name, const char *value) {
    if (stream->response == NULL) return MHD_NO;
    return mhd.add_response_header(stream->response, name, value);
}

enum MHD_Result praykit_mhd_stream_queue(
    struct praykit_mhd_stream *stream, struct MHD_Connection *connection, unsigned int status) {
    struct MHD_Response *response = stream->response;
    if (response == NULL) return MHD_NO;
    pthread_mutex_lock(&stream->lock);
    stream->connection = connection;
    stream->response = NULL;
    pthread_mutex_unlock(&stream->lock);
    enum MHD_Result queued = mhd.queue_response(connection, status, response);
    // libmicrohttpd keeps its own reference while it sends; a refused response is freed here, and
    // stream_free then marks the stream closed.
    mhd.destroy_response(response);
    return queued;
}

int praykit_mhd_stream_write(struct praykit_mhd_stream *stream, const void *bytes, size_t count) {
    pthread_mutex_lock(&stream->lock);
    if (stream->ended || stream->closed) {
        pthread_mutex_unlock(&stream->lock);
        return -1;
    }
    if (count > stream->capacity - stream->length || !stream_reserve(stream, stream->length + count)) {
        stream->ended = 1;
        stream_wake(stream);
        pthread_mutex_unlock(&stream->lock);
        return -1;
    }
    memcpy(stream->bytes + stream->length, bytes, count);
    stream->length += count;
    stream_wake(stream);
    pthread_mutex_unlock(&stream->lock);
    return 0;
}

void praykit_mhd_stream_end(struct praykit_mhd_stream *stream) {
    pthread_mutex_lock(&stream->lock);
    stream->ended = 1;
    stream_wake(stream);
    pthread_mutex_unlock(&stream->lock);
}

int praykit_mhd_stream_closed(struct praykit_mhd_stream *stream) {
    pthread_mutex_lock(&stream->lock);
    int closed = stream->closed;
    pthread_mutex_unlock(&stream->lock);
    return closed;
}

void praykit_mhd_stream_release(struct praykit_mhd_stream *stream) {
    if (stream == NULL) return;
    struct MHD_Response *unqueued = NULL;
    pthread_mutex_lock(&stream->lock);
    unqueued = stream->response;
    stream->response = NULL;
    pthread_mutex_unlock(&stream->lock);
    // Never queued: destroying the response calls stream_free, which drops its reference.
    if (unqueued != NULL) mhd.destroy_response(unqueued);
    stream_unreference(stream);
}

#endif  // __linux__
