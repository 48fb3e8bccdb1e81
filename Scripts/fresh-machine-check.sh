#!/usr/bin/env bash
# Checks that PrayKit builds, runs and passes its tests on a machine set up only as swift.org describes
# for Debian 12 (Swift plus binutils-gold, libicu-dev, libcurl4-openssl-dev, libedit-dev, libsqlite3-dev,
# libncurses-dev, libpython3-dev, libxml2-dev, pkg-config, uuid-dev, tzdata, git, gcc, libstdc++-12-dev,
# zlib1g-dev): no libmicrohttpd, no libpq, no PostgreSQL.
#
#   sudo Scripts/fresh-machine-check.sh [scratch-folder] [swift test arguments…]
#       (default: /tmp/fresh-build, then the whole test suite; e.g. `--filter 'ServerTests|Postgres'`)
#
# Needs root (unshare -m and overlay mounts). On this machine, where those packages are installed:
#  1. Where libmicrohttpd-dev and libpq-dev are installed, it first checks that the declarations PrayKit
#     keeps in Sources/CMicroHTTPD/include/praykit_mhd_abi.h and Sources/CPostgres/include/
#     praykit_pq_abi.h (instead of including the system headers) give the same values and layouts as
#     the system headers: one small C program compiled against each, their outputs compared.
#  2. In a private mount namespace, overlays hide — for the commands below only, nothing is removed —
#     libmicrohttpd's and libpq's headers (/usr/include/microhttpd.h, /usr/include/postgresql), their
#     libraries and pkg-config files (/usr/lib/<multiarch>/libmicrohttpd*, libpq*) and PostgreSQL's
#     server (/usr/lib/postgresql). There, from a new scratch folder:
#     - `swift run praykit times --lat 21.4225 --lon 39.8262` builds and prints the day's times;
#     - `praykit serve` stops, naming the package to install;
#     - `swift test` passes, and the suites that need libmicrohttpd or PostgreSQL say in one line
#       that they are skipped and how to install what they need;
#     - with PRAYKIT_REQUIRE_SERVER=1 (as .ci/run sets it) a test that starts a server fails instead.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${1:-/tmp/fresh-build}"
shift || true
[ "$(id -u)" -eq 0 ] || { echo "fresh-machine-check: needs root (unshare -m, mount)" >&2; exit 1; }
multiarch="$(gcc -print-multiarch)"

# 1. The copied declarations against the system headers, when they are here.
if [ -e /usr/include/microhttpd.h ] && [ -e /usr/include/postgresql/libpq-fe.h ]; then
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    cat >"$work/abi.c" <<'C'
#include <stddef.h>
#include <stdio.h>
#ifdef SYSTEM
#include <microhttpd.h>
#include <postgresql/libpq-fe.h>
#else
#include "praykit_mhd_abi.h"
#include "praykit_pq_abi.h"
#endif
#define V(x) printf("%s %lld\n", #x, (long long)(x))
int main(void) {
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
    V(CONNECTION_OK); V(CONNECTION_BAD); V(PGRES_EMPTY_QUERY); V(PGRES_COMMAND_OK); V(PGRES_TUPLES_OK);
    V(PGRES_FATAL_ERROR); V(PQPING_OK); V(PQPING_REJECT); V(PQPING_NO_RESPONSE); V(PQPING_NO_ATTEMPT);
    V(sizeof(ConnStatusType)); V(sizeof(ExecStatusType)); V(sizeof(PGPing)); V(sizeof(Oid));
    return 0;
}
C
    # -w: the system header marks one value deprecated.
    cc -w -DSYSTEM -o "$work/system" "$work/abi.c"
    cc -Werror -I "$repo/Sources/CMicroHTTPD/include" -I "$repo/Sources/CPostgres/include" -o "$work/praykit" "$work/abi.c"
    if ! diff <("$work/system") <("$work/praykit"); then
        echo "fresh-machine-check: the declarations differ from the system headers (above: < system, > ours)" >&2
        exit 1
    fi
    echo "== declarations: $("$work/system" | wc -l) values and layouts match the system headers"
else
    echo "== declarations: not compared (libmicrohttpd-dev and libpq-dev are not installed)"
fi

# 2. The build, a run and the tests, with libmicrohttpd, libpq and PostgreSQL hidden.
export PRAYKIT_FRESH_REPO="$repo" PRAYKIT_FRESH_SCRATCH="$scratch" PRAYKIT_FRESH_MULTIARCH="$multiarch"
# The script for the namespace is passed with -c, not on standard input, where a command it runs could
# read the rest of it.
inside="$(cat <<'INSIDE'
set -euo pipefail
repo="$PRAYKIT_FRESH_REPO" scratch="$PRAYKIT_FRESH_SCRATCH" multiarch="$PRAYKIT_FRESH_MULTIARCH"
unset PRAYKIT_REQUIRE_SERVER PRAYKIT_REQUIRE_POSTGRES
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
hide /usr/include microhttpd.h postgresql
hide /usr/lib postgresql "$multiarch/libmicrohttpd*" "$multiarch/libpq*" "$multiarch/pkgconfig/libmicrohttpd.pc" \
    "$multiarch/pkgconfig/libpq.pc"
for path in /usr/include/microhttpd.h /usr/include/postgresql /usr/lib/postgresql \
    "/usr/lib/$multiarch/libmicrohttpd.so.12" "/usr/lib/$multiarch/libpq.so.5"; do
    if [ -e "$path" ]; then echo "fresh-machine-check: $path is still there" >&2; exit 1; fi
done
pkg-config --exists libmicrohttpd && { echo "fresh-machine-check: pkg-config still finds libmicrohttpd" >&2; exit 1; }
echo "== hidden: libmicrohttpd's and libpq's headers, libraries and .pc files, /usr/lib/postgresql"

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
echo "== fresh machine: build, run and tests pass"
INSIDE
)"
unshare -m bash -c "$inside" fresh-machine-check "$@" </dev/null
