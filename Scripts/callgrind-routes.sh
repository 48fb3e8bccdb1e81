#!/usr/bin/env bash
# Counts the instructions of one `praykit serve` answer in process, under valgrind's callgrind, which
# does not move with the machine's load as a time does: praykit-bench --routes, the release build of
# Scripts/release-flags.sh, two warm passes of each route divided by their requests (2,000 /v1/timings,
# 200 /v1/calendar months), after a warm-up pass that is not counted.
#
#   Scripts/callgrind-routes.sh [praykit-bench]     (default: builds and uses .build/release/praykit-bench)
#
# Prints `timings: N instructions an answer` and `calendar: N instructions a month`. valgrind 3.19 cannot
# read the DWARF 5 debug information Swift writes, so the benchmark is profiled from a copy without it.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "callgrind-routes: needs valgrind (apt-get install -y valgrind)"; exit 1; }
bench="${1:-}"
if [ -z "$bench" ]; then
    source Scripts/release-flags.sh
    swift build "${release_flags[@]}" --product praykit-bench >/dev/null
    bench=.build/release/praykit-bench
fi
work="$(mktemp -d /tmp/praykit-callgrind.XXXXXX)"
trap 'rm -rf "$work"' EXIT
objcopy --strip-debug "$bench" "$work/praykit-bench"
# One valgrind run a route, counting only its timed passes (two rounds; the warm-up pass is not counted).
count() { # pass-function → instructions of the two passes
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect="*$1*" --callgrind-out-file="$work/$1.out" \
        "$work/praykit-bench" --routes --rounds 2 >/dev/null 2>"$work/valgrind.log"
    awk '/^(summary|totals):/ { print $2; exit }' "$work/$1.out"
}
timings="$(count timingsPass)"
calendar="$(count calendarPass)"
echo "timings: $((timings / 4000)) instructions an answer (two warm passes of 2,000: $timings)"
echo "calendar: $((calendar / 400)) instructions a month (two warm passes of 200: $calendar)"
