// The system libcurl (libcurl4-openssl-dev on Debian). Only PrayServices imports this module.
#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper
// per argument type instead.

// Sets an option that takes a long (flags, timeouts, limits).
static inline CURLcode praykit_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

// Sets an option that takes a curl_off_t (sizes).
static inline CURLcode praykit_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

// Sets an option that takes a C string; libcurl copies it.
static inline CURLcode praykit_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

// Sets an option that takes an opaque pointer (callback data, a request body that outlives the transfer).
static inline CURLcode praykit_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

// Sets an option that takes a header list.
static inline CURLcode praykit_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

// Sets the body and header callbacks (curl_write_callback's signature).
static inline CURLcode praykit_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

// Sets the progress callback that lets a cancelled task stop the transfer.
static inline CURLcode praykit_setopt_progress_function(CURL *handle, curl_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

// Reads a long (the response code, the redirect count).
static inline CURLcode praykit_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

// Reads a string owned by the handle (the effective URL).
static inline CURLcode praykit_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

// Reads a duration in microseconds.
static inline CURLcode praykit_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
