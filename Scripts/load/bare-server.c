// The baseline of Scripts/load-test.sh: a minimal libmicrohttpd server that answers every GET with the
// same 1 KB JSON body, in the same threading mode as `praykit serve` (an epoll thread pool, one thread
// per core), so that the difference between the two is the cost of PrayKit's work per request.
//
// Build: cc -O2 -o /tmp/bare-server Scripts/load/bare-server.c $(pkg-config --cflags --libs libmicrohttpd)
// Run:   /tmp/bare-server PORT THREADS   (prints "Listening on http://127.0.0.1:PORT", stops on SIGTERM/SIGINT)
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char body[1024];
static volatile sig_atomic_t stopping = 0;

static void on_signal(int number) {
    (void)number;
    stopping = 1;
}

// Answers on the last call of a request, as praykit serve does, so that keep-alive is kept.
static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size,
                              void **request_context) {
    (void)cls, (void)url, (void)method, (void)version, (void)upload_data;
    if (*request_context == NULL) {
        *request_context = (void *)1;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    struct MHD_Response *response = MHD_create_response_from_buffer(sizeof body, body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(response, "Content-Type", "application/json");
    enum MHD_Result result = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return result;
}

int main(int argc, char **argv) {
    unsigned int port = argc > 1 ? (unsigned int)atoi(argv[1]) : 8090;
    unsigned int threads = argc > 2 ? (unsigned int)atoi(argv[2]) : 2;
    // A JSON object of exactly 1024 bytes.
    memset(body, 'x', sizeof body);
    memcpy(body, "{\"data\":\"", 9);
    memcpy(body + sizeof body - 2, "\"}", 2);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    // Loopback only, like `praykit serve`'s default.
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC | MHD_USE_ERROR_LOG, (uint16_t)port, NULL, NULL,
        answer, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address, MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, 4096u, MHD_OPTION_CONNECTION_TIMEOUT, 16u, MHD_OPTION_LISTEN_BACKLOG_SIZE, 511u,
        MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "bare-server: cannot listen on port %u\n", port);
        return 1;
    }
    printf("Listening on http://127.0.0.1:%u\n", port);
    fflush(stdout);
    while (!stopping) pause();
    MHD_stop_daemon(daemon);
    return 0;
}
