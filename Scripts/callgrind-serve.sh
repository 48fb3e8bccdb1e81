#!/usr/bin/env bash
# Counts the instructions `praykit serve` spends around its answers — reading each request from
# libmicrohttpd into a ServerAPI.Request, and handing the response back — apart from the routes' own,
# under valgrind's callgrind (which does not move with the machine's load, as a time does), while
# `wrk -t1 -c4` sends /v1/timings for random places, days, methods and zones (Scripts/load/timings.lua)
# to one worker thread.
#
#   Scripts/callgrind-serve.sh [praykit] [seconds]   (defaults: builds .build/release/praykit with
#                                                     Scripts/release-flags.sh; 20 seconds of wrk)
#
# Prints `glue: N instructions a request` (the handler's caller, MicroHTTPDContext.answer, less the
# routes) and `routes: N instructions a request`. Under valgrind the server answers a few hundred
# requests a second, so the first seconds also fill the process's cache of the sun's positions: the
# routes' figure is above Scripts/callgrind-routes.sh's warm one; the glue's is not affected.
# valgrind 3.19 cannot read the DWARF 5 debug information Swift writes: the server runs from a copy
# without it.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in valgrind wrk callgrind_annotate; do
    command -v "$tool" >/dev/null || { echo "callgrind-serve: needs $tool (apt-get install -y valgrind wrk)"; exit 1; }
done
praykit="${1:-}"
seconds="${2:-20}"
if [ -z "$praykit" ]; then
    source Scripts/release-flags.sh
    swift build "${release_flags[@]}" --product praykit >/dev/null
    praykit=.build/release/praykit
fi
work="$(mktemp -d /tmp/praykit-callgrind-serve.XXXXXX)"
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
objcopy --strip-debug "$praykit" "$work/praykit"
PRAYKIT_DATABASE="$work/praykit.sqlite" SWIFT_DETERMINISTIC_HASHING=1 \
    valgrind --tool=callgrind --callgrind-out-file="$work/serve.out" \
    "$work/praykit" serve --port 0 --threads 1 >"$work/stdout" 2>"$work/stderr" &
server=$!
# The first line says where it listens (--port 0: a free port).
port=""
for _ in $(seq 1 120); do
    port="$(head -n 1 "$work/stdout" 2>/dev/null | grep -o '127\.0\.0\.1:[0-9]*' | cut -d: -f2 || true)"
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || { echo "callgrind-serve: the server stopped:"; cat "$work/stderr"; exit 1; }
    sleep 0.5
done
[ -n "$port" ] || { echo "callgrind-serve: the server did not say its port"; exit 1; }
wrk -t1 -c4 -d"${seconds}s" -s Scripts/load/timings.lua "http://127.0.0.1:$port" | grep RESULT
# SIGINT: praykit serve stops cleanly, and valgrind writes its profile.
kill -INT "$server"
wait "$server" || true
server=""
callgrind_annotate --tree=calling --inclusive=yes "$work/serve.out" >"$work/tree.txt"
python3 - "$work/tree.txt" <<'EOF'
import re
import sys

lines = open(sys.argv[1]).read().splitlines()
answer = "MicroHTTPDContextC6answer_3url6method7refusal"


def inclusive(name):
    """The inclusive cost of the first function line (`*`) naming `name`."""
    for line in lines:
        if re.match(r"\s*[\d,]+ \(.*\)\s+\*\s", line) and name in line:
            return int(line.split()[0].replace(",", ""))
    sys.exit(f"callgrind-serve: no {name} in the profile")


def calls(caller, callee):
    """How many times `caller` called `callee` (the `>` line under the caller's `*` line)."""
    for index, line in enumerate(lines):
        if re.match(r"\s*[\d,]+ \(.*\)\s+\*\s", line) and caller in line:
            for below in lines[index + 1 :]:
                if ">" not in below:
                    break
                if callee in below:
                    return int(re.search(r"\(([\d,]+)x\)", below).group(1).replace(",", ""))
    sys.exit(f"callgrind-serve: no call of {callee} from {caller}")


routes = "ServerRoutesPAAE7handler"
requests = calls(answer, routes)
total, handled = inclusive(answer), inclusive(routes)
print(f"glue: {round((total - handled) / requests):,} instructions a request ({requests:,} requests)")
print(f"routes: {round(handled / requests):,} instructions a request (the sun's positions filled as they went)")
EOF
