#!/usr/bin/env bash
# Checks that PrayKit builds, runs and passes its tests on a bare machine of the project's kind: Swift
# 6.3.1, libsqlite3-dev and the libcurl runtime (libcurl4), but no libcurl4-openssl-dev, no libmicrohttpd,
# no libpq, no PostgreSQL, no libmosquitto and none of the programs .ci/run installs for the tests alone;
# and that without the libcurl runtime too, everything offline still works and the network names libcurl4.
#
#   sudo Scripts/fresh-machine-check.sh [scratch-folder] [swift test arguments…]
#       (default: /tmp/fresh-build, then the whole test suite; e.g. `--filter 'ServerTests|Postgres'`)
#
# Needs root (unshare -m and overlay mounts). On this machine, where those packages are installed:
#  1. Where libcurl4-openssl-dev, libmicrohttpd-dev, libpq-dev or libmosquitto-dev is installed, it first
#     checks that the declarations PrayKit keeps in Sources/CCurl/include/praykit_curl_abi.h,
#     Sources/CMicroHTTPD/include/praykit_mhd_abi.h, Sources/CPostgres/include/praykit_pq_abi.h and
#     Sources/CMosquitto/include/praykit_mosquitto_abi.h
#     (instead of including the system headers) give the same values and layouts as the system
#     headers: one small C program compiled against each, their outputs compared.
#  2. In a private mount namespace, overlays hide — for the commands below only, nothing is removed —
#     libcurl's headers, static library, development link and pkg-config file (the runtime
#     libcurl.so.4 stays), libmicrohttpd's and libpq's headers (/usr/include/microhttpd.h,
#     /usr/include/postgresql), their libraries and pkg-config files (/usr/lib/<multiarch>/libmicrohttpd*,
#     libpq*) and PostgreSQL's server (/usr/lib/postgresql), libmosquitto and libfaketime, and the test
#     tools (man, GNU time, dbus-daemon, dbus-monitor, gdbus, faketime, aplay, the Mosquitto broker and
#     clients, HAProxy, WeasyPrint, poppler's pdftoppm and pdfinfo, Chromium, khal). There, from a new
#     scratch folder:
#     - `swift run praykit times --lat 21.4225 --lon 39.8262` builds and prints the day's times;
#     - `praykit serve` stops, naming the package to install;
#     - `swift test` passes, and the suites that need libmicrohttpd, PostgreSQL or a test tool say in one line
#       that they are skipped and how to install what they need;
#     - with PRAYKIT_REQUIRE_SERVER=1 (as .ci/run sets it) a test that starts a server fails instead;
#     - with libcurl.so.4 hidden as well, `praykit times` still prints the day and `praykit sync login`
#       stops with one line naming libcurl4.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${1:-/tmp/fresh-build}"
shift || true
[ "$(id -u)" -eq 0 ] || { echo "fresh-machine-check: needs root (unshare -m, mount)" >&2; exit 1; }
multiarch="$(gcc -print-multiarch)"

# 1. The copied declarations against the system headers, each where its header is here.
compared=()
[ -e "/usr/include/$multiarch/curl/curl.h" ] && compared+=(CURL)
[ -e /usr/include/microhttpd.h ] && compared+=(MHD)
[ -e /usr/include/postgresql/libpq-fe.h ] && compared+=(PQ)
[ -e /usr/include/mosquitto.h ] && compared+=(MOSQ)
if [ "${#compared[@]}" -gt 0 ]; then
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    cat >"$work/abi.c" <<'C'
#include <stddef.h>
#include <stdio.h>
#ifdef SYSTEM
#ifdef HAVE_CURL
#include <curl/curl.h>
#endif
#ifdef HAVE_MHD
#include <microhttpd.h>
#endif
#ifdef HAVE_PQ
#include <postgresql/libpq-fe.h>
#endif
#ifdef HAVE_MOSQ
#include <mosquitto.h>
#endif
#else
#include "praykit_curl_abi.h"
#include "praykit_mhd_abi.h"
#include "praykit_pq_abi.h"
#include "praykit_mosquitto_abi.h"
#endif
#define V(x) printf("%s %lld\n", #x, (long long)(x))
int main(void) {
#ifdef HAVE_CURL
    V(CURLE_OK); V(CURLE_UNSUPPORTED_PROTOCOL); V(CURLE_FAILED_INIT); V(CURLE_URL_MALFORMAT);
    V(CURLE_COULDNT_RESOLVE_PROXY); V(CURLE_COULDNT_RESOLVE_HOST); V(CURLE_COULDNT_CONNECT); V(CURLE_HTTP2);
    V(CURLE_PARTIAL_FILE); V(CURLE_WRITE_ERROR); V(CURLE_OPERATION_TIMEDOUT); V(CURLE_ABORTED_BY_CALLBACK);
    V(CURLE_GOT_NOTHING); V(CURLE_SEND_ERROR); V(CURLE_RECV_ERROR); V(CURLE_FILESIZE_EXCEEDED);
    V(CURLE_HTTP2_STREAM); V(sizeof(CURLcode)); V(sizeof(CURLoption)); V(sizeof(CURLINFO));
    V(CURLOPT_WRITEDATA); V(CURLOPT_URL); V(CURLOPT_ERRORBUFFER); V(CURLOPT_WRITEFUNCTION); V(CURLOPT_POSTFIELDS);
    V(CURLOPT_USERAGENT); V(CURLOPT_HTTPHEADER); V(CURLOPT_HEADERDATA); V(CURLOPT_CUSTOMREQUEST);
    V(CURLOPT_NOPROGRESS); V(CURLOPT_NOBODY); V(CURLOPT_FOLLOWLOCATION); V(CURLOPT_XFERINFODATA);
    V(CURLOPT_SSL_VERIFYPEER); V(CURLOPT_HEADERFUNCTION); V(CURLOPT_SSL_VERIFYHOST); V(CURLOPT_NOSIGNAL);
    V(CURLOPT_ACCEPT_ENCODING); V(CURLOPT_MAXFILESIZE_LARGE); V(CURLOPT_POSTFIELDSIZE_LARGE); V(CURLOPT_TIMEOUT_MS);
    V(CURLOPT_CONNECTTIMEOUT_MS); V(CURLOPT_XFERINFOFUNCTION); V(CURLOPT_PROTOCOLS_STR);
    V(CURLINFO_RESPONSE_CODE); V(CURL_ERROR_SIZE); V(CURL_GLOBAL_DEFAULT); V(sizeof(curl_off_t));
    V(sizeof(struct curl_slist)); V(offsetof(struct curl_slist, data)); V(offsetof(struct curl_slist, next));
#endif
#ifdef HAVE_MHD
    V(MHD_NO); V(MHD_YES); V(MHD_USE_ERROR_LOG); V(MHD_USE_INTERNAL_POLLING_THREAD); V(MHD_USE_IPv6);
    V(MHD_USE_EPOLL); V(MHD_USE_ITC); V(MHD_USE_AUTO); V(MHD_OPTION_END); V(MHD_OPTION_CONNECTION_MEMORY_LIMIT);
    V(MHD_OPTION_CONNECTION_LIMIT); V(MHD_OPTION_CONNECTION_TIMEOUT); V(MHD_OPTION_NOTIFY_COMPLETED);
    V(MHD_OPTION_PER_IP_CONNECTION_LIMIT); V(MHD_OPTION_SOCK_ADDR); V(MHD_OPTION_URI_LOG_CALLBACK);
    V(MHD_OPTION_EXTERNAL_LOGGER); V(MHD_OPTION_THREAD_POOL_SIZE); V(MHD_OPTION_ARRAY);
    V(MHD_OPTION_NOTIFY_CONNECTION); V(MHD_OPTION_LISTEN_BACKLOG_SIZE); V(MHD_RESPONSE_HEADER_KIND);
    V(MHD_HEADER_KIND); V(MHD_COOKIE_KIND); V(MHD_POSTDATA_KIND); V(MHD_GET_ARGUMENT_KIND); V(MHD_FOOTER_KIND);
    V(MHD_RESPMEM_PERSISTENT); V(MHD_RESPMEM_MUST_FREE); V(MHD_RESPMEM_MUST_COPY);
    V(MHD_REQUEST_TERMINATED_COMPLETED_OK); V(MHD_REQUEST_TERMINATED_WITH_ERROR);
    V(MHD_REQUEST_TERMINATED_TIMEOUT_REACHED); V(MHD_REQUEST_TERMINATED_DAEMON_SHUTDOWN);
    V(MHD_REQUEST_TERMINATED_READ_ERROR); V(MHD_REQUEST_TERMINATED_CLIENT_ABORT);
    V(MHD_CONNECTION_NOTIFY_STARTED); V(MHD_CONNECTION_NOTIFY_CLOSED); V(MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    V(MHD_DAEMON_INFO_BIND_PORT); V(MHD_CONNECTION_INFO_CLIENT_ADDRESS); V(MHD_CONNECTION_INFO_CONNECTION_FD);
    V(MHD_CONNECTION_INFO_SOCKET_CONTEXT); V(sizeof(((union MHD_ConnectionInfo *)0)->socket_context));
    V(sizeof(struct MHD_OptionItem)); V(offsetof(struct MHD_OptionItem, value));
    V(offsetof(struct MHD_OptionItem, ptr_value)); V(sizeof(enum MHD_OPTION)); V(sizeof(MHD_socket));
    V(offsetof(union MHD_DaemonInfo, port)); V(sizeof(((union MHD_DaemonInfo *)0)->port));
    V(sizeof(((union MHD_DaemonInfo *)0)->num_connections)); V(sizeof(((union MHD_ConnectionInfo *)0)->connect_fd));
    V(sizeof(((union MHD_ConnectionInfo *)0)->client_addr));
#endif
#ifdef HAVE_PQ
    V(CONNECTION_OK); V(CONNECTION_BAD); V(PGRES_EMPTY_QUERY); V(PGRES_COMMAND_OK); V(PGRES_TUPLES_OK);
    V(PGRES_FATAL_ERROR); V(PQPING_OK); V(PQPING_REJECT); V(PQPING_NO_RESPONSE); V(PQPING_NO_ATTEMPT);
    V(sizeof(ConnStatusType)); V(sizeof(ExecStatusType)); V(sizeof(PGPing)); V(sizeof(Oid));
    V(sizeof(PGnotify)); V(offsetof(PGnotify, relname)); V(offsetof(PGnotify, be_pid));
    V(offsetof(PGnotify, extra)); V(offsetof(PGnotify, next));
#endif
#ifdef HAVE_MOSQ
    V(MOSQ_ERR_CONN_PENDING); V(MOSQ_ERR_SUCCESS); V(MOSQ_ERR_NOMEM); V(MOSQ_ERR_PROTOCOL); V(MOSQ_ERR_INVAL);
    V(MOSQ_ERR_NO_CONN); V(MOSQ_ERR_CONN_REFUSED); V(MOSQ_ERR_NOT_FOUND); V(MOSQ_ERR_CONN_LOST); V(MOSQ_ERR_TLS);
    V(MOSQ_ERR_PAYLOAD_SIZE); V(MOSQ_ERR_NOT_SUPPORTED); V(MOSQ_ERR_AUTH); V(MOSQ_ERR_ACL_DENIED); V(MOSQ_ERR_UNKNOWN);
    V(MOSQ_ERR_ERRNO); V(MOSQ_ERR_EAI); V(MOSQ_ERR_KEEPALIVE); V(MOSQ_ERR_LOOKUP); V(MOSQ_ERR_TLS_HANDSHAKE);
    V(MOSQ_OPT_PROTOCOL_VERSION); V(MOSQ_OPT_TLS_USE_OS_CERTS); V(MQTT_PROTOCOL_V311); V(MOSQ_LOG_WARNING);
    V(MOSQ_LOG_ERR); V(sizeof(enum mosq_err_t)); V(sizeof(enum mosq_opt_t)); V(sizeof(struct mosquitto_message));
    V(offsetof(struct mosquitto_message, mid)); V(offsetof(struct mosquitto_message, topic));
    V(offsetof(struct mosquitto_message, payload)); V(offsetof(struct mosquitto_message, payloadlen));
    V(offsetof(struct mosquitto_message, qos)); V(offsetof(struct mosquitto_message, retain));
#endif
    return 0;
}
C
    defines=()
    for name in "${compared[@]}"; do defines+=("-DHAVE_$name"); done
    # -w: the system headers mark some values deprecated.
    cc -w -DSYSTEM "${defines[@]}" -o "$work/system" "$work/abi.c"
    cc -Werror "${defines[@]}" -I "$repo/Sources/CCurl/include" -I "$repo/Sources/CMicroHTTPD/include" \
        -I "$repo/Sources/CPostgres/include" -I "$repo/Sources/CMosquitto/include" -o "$work/praykit" "$work/abi.c"
    if ! diff <("$work/system") <("$work/praykit"); then
        echo "fresh-machine-check: the declarations differ from the system headers (above: < system, > ours)" >&2
        exit 1
    fi
    echo "== declarations (${compared[*]}): $("$work/system" | wc -l) values and layouts match the system headers"
fi
[ "${#compared[@]}" -eq 4 ] || echo "== declarations: only ${compared[*]:-none} compared (install libcurl4-openssl-dev, libmicrohttpd-dev, libpq-dev and libmosquitto-dev for all)"

# 2. The build, a run and the tests, with libmicrohttpd, libpq and PostgreSQL hidden.
export PRAYKIT_FRESH_REPO="$repo" PRAYKIT_FRESH_SCRATCH="$scratch" PRAYKIT_FRESH_MULTIARCH="$multiarch"
# The script for the namespace is passed with -c, not on standard input, where a command it runs could
# read the rest of it.
inside="$(cat <<'INSIDE'
set -euo pipefail
repo="$PRAYKIT_FRESH_REPO" scratch="$PRAYKIT_FRESH_SCRATCH" multiarch="$PRAYKIT_FRESH_MULTIARCH"
unset PRAYKIT_REQUIRE_SERVER PRAYKIT_REQUIRE_POSTGRES PRAYKIT_REQUIRE_PRINT PRAYKIT_REQUIRE_AUDIO \
    PRAYKIT_REQUIRE_BROWSER PRAYKIT_REQUIRE_MQTT PRAYKIT_REQUIRE_TOOLS
mount --make-rprivate /
# Overlays whose upper layers hold whiteouts (character devices 0:0): the files seem absent.
layers="$(mktemp -d)"
mount -t tmpfs tmpfs "$layers"
hide() {  # hide FOLDER NAME…: NAME (a glob) disappears from FOLDER
    local folder="$1" key
    shift
    key="$(echo "$folder" | tr / _)"
    mkdir -p "$layers/$key/upper" "$layers/$key/work"
    for pattern in "$@"; do
        for path in "$folder"/$pattern; do
            [ -e "$path" ] || [ -L "$path" ] || continue
            mkdir -p "$layers/$key/upper/$(dirname "${path#"$folder"/}")"
            mknod "$layers/$key/upper/${path#"$folder"/}" c 0 0
        done
    done
    mount -t overlay overlay -o "lowerdir=$folder,upperdir=$layers/$key/upper,workdir=$layers/$key/work" "$folder"
}
hide /usr/include microhttpd.h postgresql "$multiarch/curl"
hide /usr/lib postgresql "$multiarch/libmicrohttpd*" "$multiarch/libpq*" "$multiarch/pkgconfig/libmicrohttpd.pc" \
    "$multiarch/pkgconfig/libpq.pc" "$multiarch/libcurl.so" "$multiarch/libcurl.a" "$multiarch/libcurl.la" \
    "$multiarch/pkgconfig/libcurl.pc" "$multiarch/faketime" "$multiarch/libmosquitto*"
# The programs .ci/run installs for the tests alone, which a bare machine has not either: each test that
# needs one must skip, naming its package (Mocks/Support/TestRequirement.swift).
test_tools=(man time dbus-daemon dbus-monitor gdbus faketime aplay mosquitto_sub mosquitto_pub mosquitto_passwd
    weasyprint pdftoppm pdfinfo chromium khal)
hide /usr/bin "${test_tools[@]}"
hide /usr/sbin haproxy mosquitto
for path in /usr/include/microhttpd.h /usr/include/postgresql /usr/lib/postgresql "/usr/include/$multiarch/curl" \
    "/usr/lib/$multiarch/libmicrohttpd.so.12" "/usr/lib/$multiarch/libpq.so.5" "/usr/lib/$multiarch/libcurl.so" \
    "/usr/lib/$multiarch/faketime" /usr/bin/man /usr/bin/time /usr/bin/gdbus /usr/sbin/haproxy; do
    if [ -e "$path" ]; then echo "fresh-machine-check: $path is still there" >&2; exit 1; fi
done
for module in libmicrohttpd libcurl; do
    pkg-config --exists "$module" && { echo "fresh-machine-check: pkg-config still finds $module" >&2; exit 1; }
done
[ -e "/usr/lib/$multiarch/libcurl.so.4" ] || echo "fresh-machine-check: note: the libcurl runtime (libcurl4) is not installed"
echo "== hidden: libcurl's headers and development files, libmicrohttpd's and libpq's headers, libraries and .pc files, /usr/lib/postgresql, libmosquitto, libfaketime, and the test tools (${test_tools[*]} haproxy mosquitto)"

cd "$repo"
echo "== swift run praykit times --lat 21.4225 --lon 39.8262"
swift run -j 2 --scratch-path "$scratch" praykit times --lat 21.4225 --lon 39.8262
echo "== praykit serve (without libmicrohttpd)"
set +e
serve="$("$scratch/debug/praykit" serve --port 0 2>&1)"
status=$?
set -e
echo "$serve (exit $status)"
if [ "$status" -ne 1 ] || ! grep -q "apt-get install libmicrohttpd12" <<<"$serve"; then
    echo "fresh-machine-check: serve should stop and name libmicrohttpd12" >&2
    exit 1
fi
echo "== swift test $*"
swift build -j 2 --scratch-path "$scratch" --build-tests
log="$(mktemp)"
swift test -j 2 --skip-build --scratch-path "$scratch" "$@" 2>&1 | tee "$log"
echo "== skipped, and why"
grep -E "skipped" "$log" | grep -oE '"[^"]*"' | sort | uniq -c
echo "== PRAYKIT_REQUIRE_SERVER=1: a test that starts a server fails instead of skipping"
if PRAYKIT_REQUIRE_SERVER=1 swift test --skip-build --scratch-path "$scratch" \
    --filter theServeSampleStartsAndStopsAServer >"$log" 2>&1; then
    cat "$log"
    echo "fresh-machine-check: with PRAYKIT_REQUIRE_SERVER=1 the server test should have failed" >&2
    exit 1
fi
grep -E "libmicrohttpd" "$log" | head -3
echo "== without the libcurl runtime either: offline works, the network names libcurl4"
hide /usr/lib "$multiarch/libcurl.so.4*"
[ -e "/usr/lib/$multiarch/libcurl.so.4" ] && { echo "fresh-machine-check: libcurl.so.4 is still there" >&2; exit 1; }
home="$(mktemp -d)"
HOME="$home" PRAYKIT_DATABASE="$home/praykit.sqlite" "$scratch/debug/praykit" times --lat 21.4225 --lon 39.8262 \
    >"$log" 2>&1 || { cat "$log"; echo "fresh-machine-check: times failed without libcurl" >&2; exit 1; }
grep -q "Fajr" "$log" || { cat "$log"; echo "fresh-machine-check: times printed no day" >&2; exit 1; }
set +e
HOME="$home" PRAYKIT_DATABASE="$home/praykit.sqlite" "$scratch/debug/praykit" sync login --server http://127.0.0.1:9 \
    --code ABCD-EFGH >"$log" 2>&1
status=$?
set -e
cat "$log"
if [ "$status" -ne 1 ] || ! grep -q "apt-get install libcurl4" "$log"; then
    echo "fresh-machine-check: without libcurl, sync login should stop (exit 1) naming libcurl4" >&2
    exit 1
fi
echo "== fresh machine: build, run and tests pass"
INSIDE
)"
unshare -m bash -c "$inside" fresh-machine-check "$@" </dev/null
