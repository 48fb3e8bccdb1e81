// The part of libcurl's interface PrayKit uses, declared here instead of included from <curl/curl.h>,
// so that building PrayKit needs no libcurl4-openssl-dev (a fresh machine of the project's kind has the
// runtime, libcurl4, and not the headers): the library is only loaded at run time, by praykit_curl_load.
// Names, values and layouts are copied from Debian 12's libcurl4-openssl-dev 7.88.1, and are part of
// the ABI of libcurl.so.4, which keeps them (curl never renumbers an option, a code or an info: it only
// adds new ones). Scripts/fresh-machine-check.sh compares every value here with the system header
// where that header is installed. Only what PrayKit uses is here.
#ifndef PRAYKIT_CURL_ABI_H
#define PRAYKIT_CURL_ABI_H

#if defined(__linux__)

#include <stddef.h>

// An easy handle, opaque (curl.h: `typedef void CURL;`).
typedef void CURL;

// A 64-bit signed integer: `long` on LP64 Linux, as curl/system.h decides for gcc and clang there.
#if defined(__LP64__)
typedef long curl_off_t;
#else
typedef long long curl_off_t;
#endif

// The result codes PrayKit tells apart (curl.h's CURLcode); the rest arrive as their numbers.
typedef enum {
    CURLE_OK = 0,
    CURLE_UNSUPPORTED_PROTOCOL = 1,
    CURLE_FAILED_INIT = 2,
    CURLE_URL_MALFORMAT = 3,
    CURLE_COULDNT_RESOLVE_PROXY = 5,
    CURLE_COULDNT_RESOLVE_HOST = 6,
    CURLE_COULDNT_CONNECT = 7,
    CURLE_HTTP2 = 16,
    CURLE_PARTIAL_FILE = 18,
    CURLE_WRITE_ERROR = 23,
    CURLE_OPERATION_TIMEDOUT = 28,
    CURLE_ABORTED_BY_CALLBACK = 42,
    CURLE_GOT_NOTHING = 52,
    CURLE_SEND_ERROR = 55,
    CURLE_RECV_ERROR = 56,
    CURLE_FILESIZE_EXCEEDED = 63,
    CURLE_HTTP2_STREAM = 92,
    CURL_LAST_PLACEHOLDER = 10000  // keeps the enum as wide as curl.h's (an int)
} CURLcode;

// An option is its argument type's base plus its number (curl.h's CURLOPT macro).
#define PRAYKIT_CURLOPTTYPE_LONG 0
#define PRAYKIT_CURLOPTTYPE_OBJECTPOINT 10000
#define PRAYKIT_CURLOPTTYPE_FUNCTIONPOINT 20000
#define PRAYKIT_CURLOPTTYPE_OFF_T 30000

typedef enum {
    CURLOPT_WRITEDATA = PRAYKIT_CURLOPTTYPE_OBJECTPOINT + 1,
    CURLOPT_URL = PRAYKIT_CURLOPTTYPE_OBJECTPOINT + 2,
    CURLOPT_ERRORBUFFER = PRAYKIT_CURLOPTTYPE_OBJECTPOINT + 10,
    CURLOPT_WRITEFUNCTION = PRAYKIT_CURLOPTTYPE_FUNCTIONPOINT + 11,
    CURLOPT_POSTFIELDS = PRAYKIT_CURLOPTTYPE_OBJECTPOINT + 15,
    CURLOPT_USERAGENT = PRAYKIT_CURLOPTTYPE_OBJECTPOINT + 18,
    CURLOPT_LOW_SPEED_LIMIT = PRAYKIT_CURLOPTTYPE_LONG + 19,
    CURLOPT_LOW_SPEED_TIME = PRAYKIT_CURLOPTTYPE_LONG + 20,
    CURLOPT_HTTPHEADER = PRAYKIT_CURLOPTTYPE_OBJECTPOINT + 23,
    CURLOPT_HEADERDATA = PRAYKIT_CURLOPTTYPE_OBJECTPOINT + 29,
    CURLOPT_CUSTOMREQUEST = PRAYKIT_CURLOPTTYPE_OBJECTPOINT + 36,
    CURLOPT_NOPROGRESS = PRAYKIT_CURLOPTTYPE_LONG + 43,
    CURLOPT_NOBODY = PRAYKIT_CURLOPTTYPE_LONG + 44,
    CURLOPT_FOLLOWLOCATION = PRAYKIT_CURLOPTTYPE_LONG + 52,
    CURLOPT_XFERINFODATA = PRAYKIT_CURLOPTTYPE_OBJECTPOINT + 57,
    CURLOPT_SSL_VERIFYPEER = PRAYKIT_CURLOPTTYPE_LONG + 64,
    CURLOPT_HEADERFUNCTION = PRAYKIT_CURLOPTTYPE_FUNCTIONPOINT + 79,
    CURLOPT_SSL_VERIFYHOST = PRAYKIT_CURLOPTTYPE_LONG + 81,
    CURLOPT_NOSIGNAL = PRAYKIT_CURLOPTTYPE_LONG + 99,
    CURLOPT_ACCEPT_ENCODING = PRAYKIT_CURLOPTTYPE_OBJECTPOINT + 102,
    CURLOPT_MAXFILESIZE_LARGE = PRAYKIT_CURLOPTTYPE_OFF_T + 117,
    CURLOPT_POSTFIELDSIZE_LARGE = PRAYKIT_CURLOPTTYPE_OFF_T + 120,
    CURLOPT_TIMEOUT_MS = PRAYKIT_CURLOPTTYPE_LONG + 155,
    CURLOPT_CONNECTTIMEOUT_MS = PRAYKIT_CURLOPTTYPE_LONG + 156,
    CURLOPT_XFERINFOFUNCTION = PRAYKIT_CURLOPTTYPE_FUNCTIONPOINT + 219,
    CURLOPT_PROTOCOLS_STR = PRAYKIT_CURLOPTTYPE_OBJECTPOINT + 318,
    CURLOPT_LASTENTRY
} CURLoption;

// An info is its result type's base plus its number (curl.h's CURLINFO_LONG + 2).
typedef enum {
    CURLINFO_NONE = 0,
    CURLINFO_RESPONSE_CODE = 0x200000 + 2,
    CURLINFO_LASTONE = 0x7fffffff  // keeps the enum as wide as curl.h's
} CURLINFO;

// The size CURLOPT_ERRORBUFFER's buffer must have.
#define CURL_ERROR_SIZE 256

// curl_global_init's flags: everything (CURL_GLOBAL_SSL | CURL_GLOBAL_WIN32).
#define CURL_GLOBAL_DEFAULT 3

// A list of header lines (curl.h's struct curl_slist).
struct curl_slist {
    char *data;
    struct curl_slist *next;
};

// The body and header callbacks (curl.h's curl_write_callback) and the progress callback
// (curl_xferinfo_callback: a non-zero result aborts the transfer).
typedef size_t (*curl_write_callback)(char *buffer, size_t size, size_t nitems, void *outstream);
typedef int (*curl_xferinfo_callback)(void *clientp, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                                      curl_off_t ulnow);

#endif  // __linux__

#endif
