// The system libmicrohttpd (libmicrohttpd-dev on Debian). Only PrayServices imports this module.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

// MHD_start_daemon, MHD_get_daemon_info and MHD_get_connection_info are variadic, which Swift cannot
// call, and MHD's logger receives a va_list, which Swift cannot format: typed wrappers instead.

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
};

// Formats a libmicrohttpd message and hands it to the settings' logger.
static inline void praykit_mhd_log_trampoline(void *context, const char *format, va_list arguments) {
    const struct praykit_mhd_settings *settings = (const struct praykit_mhd_settings *)context;
    char message[512];
    vsnprintf(message, sizeof message, format, arguments);
    if (settings->log != NULL) settings->log(settings->log_context, message);
}

// Starts a daemon with the typed settings (MHD_start_daemon with an MHD_OPTION_ARRAY).
static inline struct MHD_Daemon *praykit_mhd_start_daemon(
    unsigned int flags, uint16_t port, MHD_AccessHandlerCallback handler, void *handler_context,
    const struct praykit_mhd_settings *settings) {
    struct MHD_OptionItem options[12];
    int count = 0;
    if (settings->address != NULL) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, (void *)settings->address};
    }
    if (settings->thread_pool_size > 1) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, settings->thread_pool_size, NULL};
    }
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit, NULL};
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
    return MHD_start_daemon(
        flags, port, NULL, NULL, handler, handler_context, MHD_OPTION_EXTERNAL_LOGGER, praykit_mhd_log_trampoline,
        (void *)settings, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

// The port the daemon listens on (the one chosen when port 0 was asked for); 0 when unknown.
static inline uint16_t praykit_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// The number of connections open now.
static inline unsigned int praykit_mhd_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

// The socket of a connection, or -1.
static inline int praykit_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}
