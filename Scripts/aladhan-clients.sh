#!/usr/bin/env bash
# Real AlAdhan clients against `praykit serve`: installs the PyPI clients people use —
# prayer-times-calculator (Home Assistant's Islamic prayer times integration) and aladhan-py — in a
# throwaway virtualenv, starts `praykit serve --port 0` on loopback, points the clients at it, and
# checks what they parse against `praykit times`, `praykit hijri` and `praykit qibla`
# (Scripts/clients/check_clients.py).
#
# Usage: Scripts/aladhan-clients.sh [path/to/praykit]   (default: the debug build, built if needed)
# Skips with exit 0 and a message when python3, venv or PyPI is not available (an offline CI).
set -euo pipefail
cd "$(dirname "$0")/.."

skip() {
    echo "aladhan-clients: SKIPPED — $1"
    exit 0
}

command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
work="$(mktemp -d /tmp/praykit-clients.XXXXXX)"
server=""
cleanup() {
    if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill -KILL "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

python3 -m venv "$work/venv" >/dev/null 2>&1 || skip "python3 cannot create a virtualenv (install python3-venv)"
if ! timeout 300 "$work/venv/bin/pip" install --quiet --disable-pip-version-check --timeout 20 --retries 1 \
    "prayer-times-calculator==0.0.12" "aladhan-py==1.2.2" >"$work/pip.log" 2>&1; then
    tail -3 "$work/pip.log" | sed 's/^/  /'
    skip "PyPI is unreachable or the clients could not be installed"
fi

binary="${1:-}"
if [ -z "$binary" ]; then
    swift build --product praykit >/dev/null
    binary="$(swift build --show-bin-path)/praykit"
fi

# The server, on a port the system picks, with a database of its own.
PRAYKIT_DATABASE="$work/praykit.sqlite" "$binary" serve --port 0 >"$work/serve.out" 2>"$work/serve.err" &
server=$!
for _ in $(seq 1 600); do
    grep -q "^Listening on " "$work/serve.out" 2>/dev/null && break
    kill -0 "$server" 2>/dev/null || { cat "$work/serve.err"; echo "aladhan-clients: the server did not start"; exit 1; }
    sleep 0.1
done
base="$(sed -n 's/^Listening on //p' "$work/serve.out")"
[ -n "$base" ] || { echo "aladhan-clients: the server did not say where it listens"; exit 1; }
echo "aladhan-clients: praykit serve at $base"

status=0
PRAYKIT_DATABASE="$work/praykit.sqlite" "$work/venv/bin/python" Scripts/clients/check_clients.py "$base" "$binary" \
    || status=$?

# A graceful stop: SIGTERM, then exit 0.
kill -TERM "$server"
wait "$server" || { echo "aladhan-clients: the server did not exit cleanly on SIGTERM"; status=1; }
server=""
if [ -s "$work/serve.err" ]; then
    echo "aladhan-clients: the server wrote to standard error:"
    sed 's/^/  /' "$work/serve.err"
fi
exit "$status"
