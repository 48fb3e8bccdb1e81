// Loads libmosquitto with dlopen on first use; see include/praykit_mosquitto.h.
#include "praykit_mosquitto.h"

// Linux only, as the header says: elsewhere this file compiles to nothing.
#if defined(__linux__)

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "praykit_system_library.h"

static struct {
    int (*lib_init)(void);
    int (*lib_version)(int *, int *, int *);
    struct mosquitto *(*create)(const char *, bool, void *);
    void (*destroy)(struct mosquitto *);
    int (*threaded_set)(struct mosquitto *, bool);
    int (*int_option)(struct mosquitto *, enum mosq_opt_t, int);
    int (*will_set)(struct mosquitto *, const char *, int, const void *, int, bool);
    int (*username_pw_set)(struct mosquitto *, const char *, const char *);
    int (*tls_set)(struct mosquitto *, const char *, const char *, const char *, const char *,
                   int (*)(char *, int, int, void *));
    int (*tls_insecure_set)(struct mosquitto *, bool);
    int (*connect)(struct mosquitto *, const char *, int, int);
    int (*disconnect)(struct mosquitto *);
    int (*publish)(struct mosquitto *, int *, const char *, int, const void *, int, bool);
    int (*subscribe)(struct mosquitto *, int *, const char *, int);
    int (*loop)(struct mosquitto *, int, int);
    const char *(*strerror)(int);
    const char *(*connack_string)(int);
    void (*connect_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
    void (*disconnect_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
    void (*message_callback_set)(struct mosquitto *,
                                 void (*)(struct mosquitto *, void *, const struct mosquitto_message *));
    void (*log_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int, const char *));
    void (*publish_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
} mosq;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded;

static void *symbol(void *library, const char *name) {
    void *address = dlsym(library, name);
    if (!address && !load_error[0]) snprintf(load_error, sizeof load_error, "libmosquitto lacks %s", name);
    return address;
}

static void load(void) {
    // libmosquitto.so.1 is the runtime package (libmosquitto1 on Debian); libmosquitto.so only exists
    // with -dev. Both only from the system's folders, by absolute path (see praykit_system_library.h).
    static const char *const names[] = {"libmosquitto.so.1", "libmosquitto.so"};
    char reason[384];
    void *library = praykit_system_library_open(names, 2, reason, sizeof reason);
    if (!library) {
        snprintf(load_error, sizeof load_error,
                 "libmosquitto is not installed (%s); install it (apt-get install libmosquitto1) to publish to an "
                 "MQTT broker",
                 reason);
        return;
    }
    mosq.lib_init = (int (*)(void))symbol(library, "mosquitto_lib_init");
    mosq.lib_version = (int (*)(int *, int *, int *))symbol(library, "mosquitto_lib_version");
    mosq.create = (struct mosquitto * (*)(const char *, bool, void *)) symbol(library, "mosquitto_new");
    mosq.destroy = (void (*)(struct mosquitto *))symbol(library, "mosquitto_destroy");
    mosq.threaded_set = (int (*)(struct mosquitto *, bool))symbol(library, "mosquitto_threaded_set");
    mosq.int_option = (int (*)(struct mosquitto *, enum mosq_opt_t, int))symbol(library, "mosquitto_int_option");
    mosq.will_set =
        (int (*)(struct mosquitto *, const char *, int, const void *, int, bool))symbol(library, "mosquitto_will_set");
    mosq.username_pw_set =
        (int (*)(struct mosquitto *, const char *, const char *))symbol(library, "mosquitto_username_pw_set");
    mosq.tls_set = (int (*)(struct mosquitto *, const char *, const char *, const char *, const char *,
                            int (*)(char *, int, int, void *)))symbol(library, "mosquitto_tls_set");
    mosq.tls_insecure_set = (int (*)(struct mosquitto *, bool))symbol(library, "mosquitto_tls_insecure_set");
    mosq.connect = (int (*)(struct mosquitto *, const char *, int, int))symbol(library, "mosquitto_connect");
    mosq.disconnect = (int (*)(struct mosquitto *))symbol(library, "mosquitto_disconnect");
    mosq.publish = (int (*)(struct mosquitto *, int *, const char *, int, const void *, int, bool))symbol(
        library, "mosquitto_publish");
    mosq.subscribe = (int (*)(struct mosquitto *, int *, const char *, int))symbol(library, "mosquitto_subscribe");
    mosq.loop = (int (*)(struct mosquitto *, int, int))symbol(library, "mosquitto_loop");
    mosq.strerror = (const char *(*)(int))symbol(library, "mosquitto_strerror");
    mosq.connack_string = (const char *(*)(int))symbol(library, "mosquitto_connack_string");
    mosq.connect_callback_set = (void (*)(struct mosquitto *, void (*)(struct mosquitto *, void *, int)))symbol(
        library, "mosquitto_connect_callback_set");
    mosq.disconnect_callback_set = (void (*)(struct mosquitto *, void (*)(struct mosquitto *, void *, int)))symbol(
        library, "mosquitto_disconnect_callback_set");
    mosq.message_callback_set =
        (void (*)(struct mosquitto *, void (*)(struct mosquitto *, void *, const struct mosquitto_message *)))symbol(
            library, "mosquitto_message_callback_set");
    mosq.log_callback_set = (void (*)(struct mosquitto *, void (*)(struct mosquitto *, void *, int, const char *)))symbol(
        library, "mosquitto_log_callback_set");
    mosq.publish_callback_set = (void (*)(struct mosquitto *, void (*)(struct mosquitto *, void *, int)))symbol(
        library, "mosquitto_publish_callback_set");
    if (load_error[0]) return;
    // mosquitto_lib_init is not thread-safe: once, here, under pthread_once.
    int code = mosq.lib_init();
    if (code != MOSQ_ERR_SUCCESS) {
        snprintf(load_error, sizeof load_error, "libmosquitto could not start: %s", mosq.strerror(code));
        return;
    }
    loaded = 1;
}

int praykit_mosquitto_load(char *error, size_t capacity) {
    pthread_once(&once, load);
    if (loaded) return 0;
    if (error && capacity > 0) snprintf(error, capacity, "%s", load_error);
    return 1;
}

int praykit_mosquitto_version(void) {
    int major = 0, minor = 0, revision = 0;
    mosq.lib_version(&major, &minor, &revision);
    return major * 1000000 + minor * 1000 + revision;
}

struct mosquitto *praykit_mosquitto_new(const char *id, bool clean_session, void *context) {
    return mosq.create(id, clean_session, context);
}
void praykit_mosquitto_destroy(struct mosquitto *client) { mosq.destroy(client); }
int praykit_mosquitto_threaded_set(struct mosquitto *client, bool threaded) {
    return mosq.threaded_set(client, threaded);
}
int praykit_mosquitto_int_option(struct mosquitto *client, enum mosq_opt_t option, int value) {
    return mosq.int_option(client, option, value);
}
int praykit_mosquitto_will_set(struct mosquitto *client, const char *topic, int length, const void *payload, int qos,
                               bool retain) {
    return mosq.will_set(client, topic, length, payload, qos, retain);
}
int praykit_mosquitto_username_pw_set(struct mosquitto *client, const char *username, const char *password) {
    return mosq.username_pw_set(client, username, password);
}
int praykit_mosquitto_tls(struct mosquitto *client, const char *ca_file) {
    // Never insecure: the broker's certificate must match the name connected to.
    int code = mosq.tls_insecure_set(client, false);
    if (code != MOSQ_ERR_SUCCESS) return code;
    if (ca_file) return mosq.tls_set(client, ca_file, NULL, NULL, NULL, NULL);
    return mosq.int_option(client, MOSQ_OPT_TLS_USE_OS_CERTS, 1);
}
int praykit_mosquitto_connect(struct mosquitto *client, const char *host, int port, int keepalive) {
    return mosq.connect(client, host, port, keepalive);
}
int praykit_mosquitto_disconnect(struct mosquitto *client) { return mosq.disconnect(client); }
int praykit_mosquitto_publish(struct mosquitto *client, int *message_id, const char *topic, int length,
                              const void *payload, int qos, bool retain) {
    return mosq.publish(client, message_id, topic, length, payload, qos, retain);
}
int praykit_mosquitto_subscribe(struct mosquitto *client, const char *pattern, int qos) {
    return mosq.subscribe(client, NULL, pattern, qos);
}
int praykit_mosquitto_loop(struct mosquitto *client, int timeout_ms) { return mosq.loop(client, timeout_ms, 1); }
const char *praykit_mosquitto_strerror(int code) { return mosq.strerror(code); }
const char *praykit_mosquitto_connack_string(int code) { return mosq.connack_string(code); }

void praykit_mosquitto_callbacks_set(struct mosquitto *client, praykit_mosquitto_result_callback on_connect,
                                     praykit_mosquitto_result_callback on_disconnect,
                                     praykit_mosquitto_message_callback on_message,
                                     praykit_mosquitto_log_callback on_log,
                                     praykit_mosquitto_result_callback on_publish) {
    mosq.connect_callback_set(client, on_connect);
    mosq.disconnect_callback_set(client, on_disconnect);
    mosq.message_callback_set(client, on_message);
    mosq.log_callback_set(client, on_log);
    mosq.publish_callback_set(client, on_publish);
}

#endif  // __linux__
