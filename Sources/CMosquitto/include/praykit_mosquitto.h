// libmosquitto (Eclipse Mosquitto's MQTT client library) for `praykit mqtt`, loaded on first use:
// praykit_mosquitto_abi.h declares the types and constants (so building needs no libmosquitto-dev), and
// the functions are reached through dlopen of libmosquitto.so.1 from the system's library folders (by
// absolute path, never from beside the binary: see praykit_system_library.h), so that only the MQTT
// publisher loads it and the OpenSSL it links. Only PrayServices imports this module; it calls the
// praykit_mosquitto_* functions, never libmosquitto's own.
#ifndef PRAYKIT_MOSQUITTO_H
#define PRAYKIT_MOSQUITTO_H

// Linux only (the dlopen names are Linux ones): elsewhere this module is empty. Package.swift depends
// on it only on Linux.
#if defined(__linux__)

#include <stdbool.h>
#include <stddef.h>

#include "praykit_mosquitto_abi.h"

// Loads libmosquitto once and initialises it (mosquitto_lib_init, which is not thread-safe, runs once
// here); 0 on success. On failure, 1 and a message in `error` that names the package to install.
int praykit_mosquitto_load(char *error, size_t capacity);

// The library's version, `major * 1000000 + minor * 1000 + revision`.
int praykit_mosquitto_version(void);

// The libmosquitto functions PrayKit calls; valid only after praykit_mosquitto_load returned 0.
struct mosquitto *praykit_mosquitto_new(const char *id, bool clean_session, void *context);
void praykit_mosquitto_destroy(struct mosquitto *client);
int praykit_mosquitto_threaded_set(struct mosquitto *client, bool threaded);
int praykit_mosquitto_int_option(struct mosquitto *client, enum mosq_opt_t option, int value);
int praykit_mosquitto_will_set(struct mosquitto *client, const char *topic, int length, const void *payload, int qos,
                               bool retain);
int praykit_mosquitto_username_pw_set(struct mosquitto *client, const char *username, const char *password);
// TLS verified against `ca_file` (PEM), or with NULL against the system's trusted certificates
// (MOSQ_OPT_TLS_USE_OS_CERTS); the broker's name is always checked against its certificate.
int praykit_mosquitto_tls(struct mosquitto *client, const char *ca_file);
int praykit_mosquitto_connect(struct mosquitto *client, const char *host, int port, int keepalive);
int praykit_mosquitto_disconnect(struct mosquitto *client);
// Publishes; `message_id` (when not NULL) is set to the message's id, which the publish callback is
// told once the broker has acknowledged it (QoS 1: PUBACK).
int praykit_mosquitto_publish(struct mosquitto *client, int *message_id, const char *topic, int length,
                              const void *payload, int qos, bool retain);
int praykit_mosquitto_subscribe(struct mosquitto *client, const char *pattern, int qos);
int praykit_mosquitto_loop(struct mosquitto *client, int timeout_ms);
const char *praykit_mosquitto_strerror(int code);
const char *praykit_mosquitto_connack_string(int code);

// The callbacks, each told the context given to praykit_mosquitto_new (the publish callback's `code` is
// the acknowledged message's id).
typedef void (*praykit_mosquitto_result_callback)(struct mosquitto *, void *context, int code);
typedef void (*praykit_mosquitto_message_callback)(struct mosquitto *, void *context,
                                                    const struct mosquitto_message *message);
typedef void (*praykit_mosquitto_log_callback)(struct mosquitto *, void *context, int level, const char *text);
void praykit_mosquitto_callbacks_set(struct mosquitto *client, praykit_mosquitto_result_callback on_connect,
                                     praykit_mosquitto_result_callback on_disconnect,
                                     praykit_mosquitto_message_callback on_message,
                                     praykit_mosquitto_log_callback on_log,
                                     praykit_mosquitto_result_callback on_publish);

#endif  // __linux__

#endif
