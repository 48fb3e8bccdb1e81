// libcurl for PrayKit, loaded on first use: praykit_curl_abi.h declares the types and constants (so
// building needs no libcurl4-openssl-dev), and the functions are reached through dlopen of libcurl.so.4 from the system's library folders (by absolute
// path, never from beside the binary: see praykit_system_library.h), so that commands that never
// touch the network do not load libcurl and the ~30 libraries it pulls in (TLS, Kerberos, LDAP,
// SSH, …). Only PrayServices imports this module.
#ifndef PRAYKIT_CURL_H
#define PRAYKIT_CURL_H

// Linux only (the dlopen names above are Linux ones): elsewhere this module is empty, so that a
// build for another platform never needs libcurl's headers. Package.swift depends on it only on Linux.
#if defined(__linux__)

#include <stddef.h>

#include "praykit_curl_abi.h"

// Loads libcurl once (thread-safe); 0 on success. On failure, 1 and a message in `error`.
int praykit_curl_load(char *error, size_t capacity);

// The libcurl functions PrayKit calls; valid only after praykit_curl_load returned 0.
CURLcode praykit_global_init(long flags);
CURL *praykit_easy_init(void);
void praykit_easy_cleanup(CURL *handle);
CURLcode praykit_easy_perform(CURL *handle);
const char *praykit_easy_strerror(CURLcode code);
struct curl_slist *praykit_slist_append(struct curl_slist *list, const char *text);
void praykit_slist_free_all(struct curl_slist *list);

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper
// per argument type instead.
CURLcode praykit_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode praykit_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode praykit_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode praykit_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode praykit_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode praykit_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value);
CURLcode praykit_setopt_progress_function(CURL *handle, curl_xferinfo_callback value);
CURLcode praykit_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode praykit_getinfo_string(CURL *handle, CURLINFO info, char **value);
CURLcode praykit_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value);

#endif  // __linux__

#endif
