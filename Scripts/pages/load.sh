#!/usr/bin/env bash
# What the published pages cost `praykit serve`: wrk on loopback against a sync server (SQLite store)
# with one mosque published through the CLI (settings with iqama and three Jumu'ah times, no timetable:
# every day calculated), for each page in turn — the screen's model (31 days), the month's model, the
# calendar feed (60 days), the feed again with its ETag (a 304), a place's feed — and, to compare,
# /v1/timings of the same place. A published mosque's answers are kept until its version or the quarter
# of an hour changes (PageCache), so its rows measure a read of the store and a kept answer; a place's
# feed is made for each request, so its row measures the making of a 60-day feed.
#
# Usage: Scripts/pages/load.sh      environment: SECONDS_PER_ROUTE (10), CONNECTIONS (8), THREADS (2),
#                                    PRAYKIT (the binary; default: the release build of release-flags.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
duration="${SECONDS_PER_ROUTE:-10}"
connections="${CONNECTIONS:-8}"
threads="${THREADS:-2}"
command -v wrk >/dev/null || { echo "pages/load: needs wrk (apt-get install -y wrk)"; exit 1; }
if [ -z "${PRAYKIT:-}" ]; then
    source Scripts/release-flags.sh
    swift build "${release_flags[@]}" --product praykit >/dev/null
    PRAYKIT="$(swift build "${release_flags[@]}" --show-bin-path)/praykit"
fi
work="$(mktemp -d /tmp/praykit-pages-load.XXXXXX)"
server=""
cleanup() {
    if [ -n "$server" ]; then kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
store="sqlite:$work/server/sync.sqlite"
PRAYKIT_DATABASE="$work/server.sqlite" "$PRAYKIT" serve --port 0 --threads "$threads" --sync-store "$store" \
    >"$work/out" 2>"$work/err" &
server=$!
for _ in $(seq 1 300); do grep -q "^Listening on " "$work/out" 2>/dev/null && break; sleep 0.1; done
url="$(sed -n 's/^Listening on \(http:[^ ]*\)$/\1/p' "$work/out")"
[ -n "$url" ] || { cat "$work/err"; exit 1; }
code="$("$PRAYKIT" serve sync users add amina --sync-store "$store" | grep -oE '[A-Z0-9]{5}-[A-Z0-9]{5}' | head -1)"
home=(env PRAYKIT_DATABASE="$work/home.sqlite" HOME="$work" PRAYKIT_MACHINE_ID_FILE="$work/machine-id")
echo "pages-load-$$" >"$work/machine-id"
"${home[@]}" "$PRAYKIT" config set city London >/dev/null
"${home[@]}" "$PRAYKIT" sync login --server "$url" --code "$code" --device-name bench >/dev/null
"${home[@]}" "$PRAYKIT" mosque create "East London Mosque" >/dev/null
"${home[@]}" "$PRAYKIT" mosque set "East London Mosque" --iqama "fajr=+20,dhuhr=13:30,asr=+10,maghrib=+5,isha=+15" \
    --jumuah 13:00,13:40,14:20 >/dev/null
"${home[@]}" "$PRAYKIT" mosque publish "East London Mosque" --slug elm >/dev/null
tag="$(curl -sI "$url/m/elm.ics" | tr -d '\r' | sed -n 's/^[Ee][Tt]ag: //p')"
echo "| Route | requests/s | p99 |"
echo "|---|---|---|"
run() {
    local name="$1" path="$2"
    shift 2
    local text
    text="$(wrk -t2 -c"$connections" -d"${duration}s" --latency "$@" "$url$path")"
    local rate p99
    rate="$(echo "$text" | awk '/Requests\/sec/ { print $2 }')"
    p99="$(echo "$text" | awk '$1 == "99%" { print $2 }')"
    echo "| $name | ${rate%.*} | $p99 |"
}
run '`/v1/timings` (to compare)' "/v1/timings/05-07-2027?latitude=51.5085&longitude=-0.1257&method=3"
run '`/m/elm.json` (31 days)' "/m/elm.json"
run '`/m/elm/month.json` (a month)' "/m/elm/month.json?month=2027-07"
run '`/m/elm.ics` (60 days)' "/m/elm.ics"
run '`/m/elm.ics` with its ETag (304)' "/m/elm.ics" -H "If-None-Match: $tag"
run '`/calendar.ics` of a place (60 days)' "/calendar.ics?latitude=51.5085&longitude=-0.1257&method=3"
