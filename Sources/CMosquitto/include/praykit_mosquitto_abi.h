// The part of libmosquitto's interface PrayKit uses, declared here instead of included from
// <mosquitto.h>, so that building PrayKit needs no libmosquitto-dev: the library is only loaded at run
// time, by praykit_mosquitto_load. Names, values and the message's layout are copied from Debian 12's
// libmosquitto-dev 2.0.11 (mosquitto.h), and are part of the ABI of libmosquitto.so.1, which keeps
// them across releases (new values are only ever appended). Only what PrayKit uses is here; the enum
// is open (imported by Swift as a struct), so a value not listed here is still a valid answer.
// Scripts/fresh-machine-check.sh compares every value and layout with the system header where it is
// installed.
#ifndef PRAYKIT_MOSQUITTO_ABI_H
#define PRAYKIT_MOSQUITTO_ABI_H

#if defined(__linux__)

#include <stdbool.h>

// A client, opaque.
struct mosquitto;

// A message received on a subscribed topic; valid during the message callback only.
struct mosquitto_message {
    int mid;
    char *topic;
    void *payload;
    int payloadlen;
    int qos;
    bool retain;
};

// Result codes (mosq_err_t).
enum mosq_err_t {
    MOSQ_ERR_CONN_PENDING = -1,
    MOSQ_ERR_SUCCESS = 0,
    MOSQ_ERR_NOMEM = 1,
    MOSQ_ERR_PROTOCOL = 2,
    MOSQ_ERR_INVAL = 3,
    MOSQ_ERR_NO_CONN = 4,
    MOSQ_ERR_CONN_REFUSED = 5,
    MOSQ_ERR_NOT_FOUND = 6,
    MOSQ_ERR_CONN_LOST = 7,
    MOSQ_ERR_TLS = 8,
    MOSQ_ERR_PAYLOAD_SIZE = 9,
    MOSQ_ERR_NOT_SUPPORTED = 10,
    MOSQ_ERR_AUTH = 11,
    MOSQ_ERR_ACL_DENIED = 12,
    MOSQ_ERR_UNKNOWN = 13,
    MOSQ_ERR_ERRNO = 14,
    MOSQ_ERR_EAI = 15,
    MOSQ_ERR_KEEPALIVE = 19,
    MOSQ_ERR_LOOKUP = 20,
    MOSQ_ERR_TLS_HANDSHAKE = 23,
};

// Options (mosq_opt_t).
enum mosq_opt_t {
    MOSQ_OPT_PROTOCOL_VERSION = 1,
    MOSQ_OPT_TLS_USE_OS_CERTS = 13,
};

// MQTT 3.1.1, for MOSQ_OPT_PROTOCOL_VERSION.
#define MQTT_PROTOCOL_V311 4

// Log levels of the log callback.
#define MOSQ_LOG_WARNING (1 << 2)
#define MOSQ_LOG_ERR (1 << 3)

#endif  // __linux__

#endif
