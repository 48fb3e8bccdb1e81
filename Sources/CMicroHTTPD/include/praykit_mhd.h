// libmicrohttpd for PrayKit, loaded on first use: praykit_mhd_abi.h declares the types and constants
// (so building needs no libmicrohttpd-dev), and the functions are reached through dlopen of
// libmicrohttpd.so.12 from the system's library folders (by absolute path: see
// praykit_system_library.h), so that commands other than `praykit serve` do not load it and the TLS
// libraries it pulls in. Only PrayServer imports this module. MHD_start_daemon, MHD_get_daemon_info
// and MHD_get_connection_info are variadic, which Swift cannot call, and MHD's logger receives a
// va_list, which Swift cannot format: typed wrappers.
#ifndef PRAYKIT_MHD_H
#define PRAYKIT_MHD_H

// Linux only (the dlopen names above are Linux ones): elsewhere this module is empty. Package.swift
// depends on it only on Linux.
#if defined(__linux__)

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "praykit_mhd_abi.h"

// Loads libmicrohttpd once (thread-safe); 0 on success. On failure, 1 and a message in `error`.
int praykit_mhd_load(char *error, size_t capacity);

// Receives one formatted libmicrohttpd message.
typedef void (*praykit_mhd_log_function)(void *context, const char *message);

// The daemon's options, typed. The struct must outlive the daemon: its logger reads it.
struct praykit_mhd_settings {
    // Where to listen (an IPv4 or IPv6 address with its port); NULL for every IPv4 address.
    const struct sockaddr *address;
    // Worker threads, each with its own epoll set; 0 or 1 for one.
    unsigned int thread_pool_size;
    // The most connections open at once.
    unsigned int connection_limit;
    // The most connections open at once from one IP address; 0 for no limit of its own.
    unsigned int per_address_connection_limit;
    // Seconds a connection may stay idle before it is closed; 0 for never.
    unsigned int connection_timeout;
    // Bytes per connection for the request head and buffers; a longer head is refused (414/431).
    size_t connection_memory_limit;
    // The listen queue's length.
    unsigned int listen_backlog;
    // Called when a request's response has been sent, or the request was abandoned.
    MHD_RequestCompletedCallback completed;
    void *completed_context;
    // Called when a connection opens and when it closes.
    MHD_NotifyConnectionCallback notify_connection;
    void *notify_connection_context;
    // Receives libmicrohttpd's own messages.
    praykit_mhd_log_function log;
    void *log_context;
    // Decides whether to take a connection just accepted, from its address (MHD_NO closes it); NULL
    // for every one.
    MHD_AcceptPolicyCallback accept;
    void *accept_context;
};

// Starts a daemon with the typed settings (MHD_start_daemon with an MHD_OPTION_ARRAY).
struct MHD_Daemon *praykit_mhd_start_daemon(
    unsigned int flags, uint16_t port, MHD_AccessHandlerCallback handler, void *handler_context,
    const struct praykit_mhd_settings *settings);
// The port the daemon listens on (the one chosen when port 0 was asked for); 0 when unknown.
uint16_t praykit_mhd_bound_port(struct MHD_Daemon *daemon);

// The state of one request, kept in the request's context pointer that libmicrohttpd hands to every
// callback (`*con_cls`), so that no request allocates: bit 0, the handler has begun the request; bit 1,
// the request line was read (set by the daemon's URI callback, so the pointer is never NULL after it);
// bits 2-25, the request target's length as sent, in bytes (capped at 2^24 - 1); bits 26-55, the body
// bytes received so far (capped at 2^30 - 1); bit 56, the target holds an encoded NUL (`%00`), which
// libmicrohttpd's decoding would silently end a value or the path at; bit 57, its query had more than
// PRAYKIT_MHD_MAXIMUM_PARAMETERS parameters (then the query is emptied before libmicrohttpd parses it:
// each parameter takes a record in the connection's memory pool, and a few hundred short ones would
// exhaust it, closing the connection without an answer).
_Static_assert(sizeof(uintptr_t) >= 8, "the request state is packed into a 64-bit pointer");
enum {
    PRAYKIT_MHD_BEGAN = 1,
    PRAYKIT_MHD_LINE_READ = 2,
    PRAYKIT_MHD_TARGET_SHIFT = 2,
    PRAYKIT_MHD_TARGET_MASK = (1 << 24) - 1,
    PRAYKIT_MHD_BODY_SHIFT = 26,
    PRAYKIT_MHD_BODY_MASK = (1 << 30) - 1,
};
#define PRAYKIT_MHD_TARGET_NUL ((uintptr_t)1 << 56)
#define PRAYKIT_MHD_TOO_MANY_PARAMETERS ((uintptr_t)1 << 57)
// The most query parameters a request may send (the AlAdhan routes read at most 23).
#define PRAYKIT_MHD_MAXIMUM_PARAMETERS 100

// Whether the request target holds an encoded NUL (`%00`).
static inline int praykit_mhd_state_target_nul(uintptr_t state) { return (state & PRAYKIT_MHD_TARGET_NUL) != 0; }
// Whether the request's query had more than PRAYKIT_MHD_MAXIMUM_PARAMETERS parameters (and was emptied).
static inline int praykit_mhd_state_too_many_parameters(uintptr_t state) {
    return (state & PRAYKIT_MHD_TOO_MANY_PARAMETERS) != 0;
}

// The state after the request line: its target's length.
static inline uintptr_t praykit_mhd_state_line(size_t target_length) {
    size_t length = target_length > PRAYKIT_MHD_TARGET_MASK ? PRAYKIT_MHD_TARGET_MASK : target_length;
    return PRAYKIT_MHD_LINE_READ | ((uintptr_t)length << PRAYKIT_MHD_TARGET_SHIFT);
}
// Whether the handler has begun the request.
static inline int praykit_mhd_state_began(uintptr_t state) { return (state & PRAYKIT_MHD_BEGAN) != 0; }
// The state once the handler has begun the request.
static inline uintptr_t praykit_mhd_state_begin(uintptr_t state) {
    return state | PRAYKIT_MHD_BEGAN | PRAYKIT_MHD_LINE_READ;
}
// The request target's length, bytes.
static inline size_t praykit_mhd_state_target_length(uintptr_t state) {
    return (state >> PRAYKIT_MHD_TARGET_SHIFT) & PRAYKIT_MHD_TARGET_MASK;
}
// The body bytes received so far.
static inline size_t praykit_mhd_state_body(uintptr_t state) {
    return (state >> PRAYKIT_MHD_BODY_SHIFT) & PRAYKIT_MHD_BODY_MASK;
}
// The state after `bytes` more of the body.
static inline uintptr_t praykit_mhd_state_add_body(uintptr_t state, size_t bytes) {
    size_t total = praykit_mhd_state_body(state) + (bytes > PRAYKIT_MHD_BODY_MASK ? PRAYKIT_MHD_BODY_MASK : bytes);
    if (total > PRAYKIT_MHD_BODY_MASK) total = PRAYKIT_MHD_BODY_MASK;
    return (state & ~((uintptr_t)PRAYKIT_MHD_BODY_MASK << PRAYKIT_MHD_BODY_SHIFT))
        | ((uintptr_t)total << PRAYKIT_MHD_BODY_SHIFT);
}

// What the server checks in a request head before answering it: the framing fields and the size.
struct praykit_mhd_head {
    // The header fields' bytes as sent, about: each name, ": ", value and line end.
    size_t field_bytes;
    // How many Content-Length, Transfer-Encoding and Host fields there are.
    unsigned int content_length_fields;
    unsigned int transfer_encoding_fields;
    unsigned int host_fields;
    // Field names that are empty or hold a space or a tab (a space before the colon).
    unsigned int malformed_names;
    // Whether the Transfer-Encoding is exactly `chunked` (any case).
    int chunked;
    // The first Content-Length's value (the one libmicrohttpd frames the body by); 0 when absent.
    unsigned long long content_length;
};

// Reads the framing fields and the size of a request's head (valid in the access handler).
void praykit_mhd_read_head(struct MHD_Connection *connection, struct praykit_mhd_head *head);
// The number of connections open now.
unsigned int praykit_mhd_current_connections(struct MHD_Daemon *daemon);
// The socket of a connection, or -1.
int praykit_mhd_connection_socket(struct MHD_Connection *connection);
// What the connection-notify callback stored in the connection's socket context, or NULL.
void *praykit_mhd_socket_context(struct MHD_Connection *connection);
// Writes the address of a connection's client as text into `buffer` (INET6_ADDRSTRLEN bytes are
// enough): dotted IPv4, IPv6, and an IPv4-mapped IPv6 address in its IPv4 form. 0 on success; -1 and
// an empty text when the address is unknown or of another family.
int praykit_mhd_client_address(struct MHD_Connection *connection, char *buffer, size_t capacity);
// Writes a socket address as text, as praykit_mhd_client_address does. 0 on success; -1 and an empty
// text for another family.
int praykit_mhd_address_text(const struct sockaddr *address, char *buffer, size_t capacity);

// The other libmicrohttpd functions PrayKit calls, valid after praykit_mhd_load returned 0.
struct MHD_Response *praykit_mhd_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode);
// A response whose body is never sent (a 304) but whose Content-Length is `size`: that of the 200 it
// stands for (RFC 9110 §8.6). Were its content ever read, it would end at once.
struct MHD_Response *praykit_mhd_create_response_without_content(uint64_t size);
enum MHD_Result praykit_mhd_add_response_header(struct MHD_Response *response, const char *header, const char *content);
enum MHD_Result praykit_mhd_queue_response(struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response);
void praykit_mhd_destroy_response(struct MHD_Response *response);
int praykit_mhd_get_connection_values(
    struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator, void *context);
MHD_socket praykit_mhd_quiesce_daemon(struct MHD_Daemon *daemon);

// An event stream: a response of unknown length whose bytes arrive from other threads. While it has
// nothing to send its connection is suspended (it holds no thread and is not polled); a write resumes
// it. Thread-safe. The creator holds one reference and libmicrohttpd another, once queued; the last
// release frees it. Bytes waiting beyond `capacity` end the stream (a reader that does not read).
struct praykit_mhd_stream;
// A new stream that keeps at most `capacity` bytes waiting.
struct praykit_mhd_stream *praykit_mhd_stream_create(size_t capacity);
// Queues the stream as the connection's response with `status`; the headers are added with
// praykit_mhd_stream_header first. MHD_NO when libmicrohttpd refused it (the stream is then closed).
enum MHD_Result praykit_mhd_stream_queue(
    struct praykit_mhd_stream *stream, struct MHD_Connection *connection, unsigned int status);
// Adds a header field to the stream's response, before it is queued; MHD_NO for a field refused.
enum MHD_Result praykit_mhd_stream_header(struct praykit_mhd_stream *stream, const char *name, const char *value);
// Adds bytes to send. 0 when taken; -1 when the stream has ended or its client is gone, or the bytes
// waiting would pass the capacity (the stream then ends).
int praykit_mhd_stream_write(struct praykit_mhd_stream *stream, const void *bytes, size_t count);
// Ends the stream once what waits has been sent.
void praykit_mhd_stream_end(struct praykit_mhd_stream *stream);
// Whether libmicrohttpd is done with it: sent to the end, or its connection closed.
int praykit_mhd_stream_closed(struct praykit_mhd_stream *stream);
// Gives up the creator's reference.
void praykit_mhd_stream_release(struct praykit_mhd_stream *stream);
void praykit_mhd_stop_daemon(struct MHD_Daemon *daemon);

#endif  // __linux__

#endif
