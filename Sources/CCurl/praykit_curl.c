// Loads libcurl with dlopen on first use; see include/praykit_curl.h.
#include "praykit_curl.h"

// Linux only, as the header says: elsewhere this file compiles to nothing.
#if defined(__linux__)

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "praykit_system_library.h"

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded;

static void *symbol(void *library, const char *name) {
    void *address = dlsym(library, name);
    if (!address && !load_error[0]) snprintf(load_error, sizeof load_error, "libcurl lacks %s", name);
    return address;
}

static void load(void) {
    // libcurl.so.4 is the runtime package (libcurl4 on Debian); libcurl.so only exists with -dev. Both
    // only from the system's folders, by absolute path (see praykit_system_library.h).
    static const char *const names[] = {"libcurl.so.4", "libcurl.so"};
    char reason[384];
    void *library = praykit_system_library_open(names, 2, reason, sizeof reason);
    if (!library) {
        snprintf(load_error, sizeof load_error,
                 "libcurl is not installed (%s); install it (apt-get install libcurl4) to use the network (published timetables, sync)",
                 reason);
        return;
    }
    curl.global_init = (CURLcode (*)(long))symbol(library, "curl_global_init");
    curl.easy_init = (CURL * (*)(void)) symbol(library, "curl_easy_init");
    curl.easy_cleanup = (void (*)(CURL *))symbol(library, "curl_easy_cleanup");
    curl.easy_perform = (CURLcode (*)(CURL *))symbol(library, "curl_easy_perform");
    curl.easy_strerror = (const char *(*)(CURLcode))symbol(library, "curl_easy_strerror");
    curl.slist_append = (struct curl_slist * (*)(struct curl_slist *, const char *)) symbol(library, "curl_slist_append");
    curl.slist_free_all = (void (*)(struct curl_slist *))symbol(library, "curl_slist_free_all");
    curl.easy_setopt = (CURLcode (*)(CURL *, CURLoption, ...))symbol(library, "curl_easy_setopt");
    curl.easy_getinfo = (CURLcode (*)(CURL *, CURLINFO, ...))symbol(library, "curl_easy_getinfo");
    loaded = load_error[0] == 0;
}

int praykit_curl_load(char *error, size_t capacity) {
    pthread_once(&once, load);
    if (loaded) return 0;
    if (error && capacity > 0) snprintf(error, capacity, "%s", load_error);
    return 1;
}

CURLcode praykit_global_init(long flags) { return curl.global_init(flags); }
CURL *praykit_easy_init(void) { return curl.easy_init(); }
void praykit_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
CURLcode praykit_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *praykit_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
struct curl_slist *praykit_slist_append(struct curl_slist *list, const char *text) {
    return curl.slist_append(list, text);
}
void praykit_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode praykit_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode praykit_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode praykit_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode praykit_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode praykit_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode praykit_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode praykit_setopt_progress_function(CURL *handle, curl_xferinfo_callback value) {
    return curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}
CURLcode praykit_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}
CURLcode praykit_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl.easy_getinfo(handle, info, value);
}
CURLcode praykit_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl.easy_getinfo(handle, info, value);
}

#endif  // __linux__
