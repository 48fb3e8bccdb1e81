#!/usr/bin/env bash
# Proves the test suite does not depend on timing: from a clean clone of the repository (with the
# shared folder copied beside it, as CI has it), runs CI (.ci/run) several times in a row while one
# CPU hog per core keeps every core 100 % busy, reports each run's result and time, and exits
# non-zero if any run failed. The hogs are stopped however the script ends.
#
#   Scripts/stress-tests.sh [repository] [runs]      # defaults: this repository, 5 runs
#
# The clone checks out the commit the repository has checked out (uncommitted changes are not
# tested). The hogs are `stress-ng --cpu N` when stress-ng is installed, else N `yes > /dev/null`.
# Each run's full output is kept in the log folder printed at the start.
set -euo pipefail

repository="$(cd "${1:-"$(dirname "$0")/.."}" && pwd)"
runs="${2:-5}"
cores="$(nproc)"
work="$(mktemp -d "${TMPDIR:-/tmp}/praykit-stress.XXXXXX")"
logs="$(mktemp -d "${TMPDIR:-/tmp}/praykit-stress-logs.XXXXXX")"
hogs=()

stop_hogs() {
    for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${hogs[@]}"; do wait "$pid" 2>/dev/null || true; done
    hogs=()
}
cleanup() {
    stop_hogs
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

commit="$(git -C "$repository" rev-parse HEAD)"
echo "Repository $repository at $commit; $runs runs with $cores cores kept busy; logs in $logs"
git clone --quiet "$repository" "$work/PrayKit"
git -C "$work/PrayKit" checkout --quiet "$commit"
if [ -d "$repository/../shared" ]; then cp -R "$repository/../shared" "$work/shared"; fi

# The hogs also end by themselves after a few hours, should this script be killed with SIGKILL.
if command -v stress-ng >/dev/null 2>&1; then
    stress-ng --cpu "$cores" --timeout 4h --quiet &
    hogs+=("$!")
else
    for _ in $(seq "$cores"); do
        timeout 4h yes >/dev/null &
        hogs+=("$!")
    done
fi

failed=0
for run in $(seq "$runs"); do
    log="$logs/run-$run.log"
    started=$SECONDS
    if (cd "$work/PrayKit" && .ci/run) >"$log" 2>&1; then result="passed"; else result="FAILED"; failed=1; fi
    summary="$(grep -a 'Test run with' "$log" | tail -1 | sed 's/^[^A-Za-z]*//' || true)"
    echo "run $run: $result in $((SECONDS - started)) s (build and tests) — ${summary:-no test summary}"
    if [ "$result" = "FAILED" ]; then
        grep -a -E '✘|error:' "$log" | head -20 || true
    fi
done

stop_hogs
if [ "$failed" -ne 0 ]; then
    echo "At least one run failed; see $logs"
    exit 1
fi
echo "All $runs runs passed under full CPU load."
