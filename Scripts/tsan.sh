#!/usr/bin/env bash
# ThreadSanitizer over the tests that exercise PrayKit's concurrency — those tagged `concurrency`
# (Mocks/Support/TestTags.swift): the curl client's threads and cancellation, the loopback server,
# praykit serve's libmicrohttpd server and routes, the SQLite connection behind its Mutex and its
# change observers, the stores' and look-ups' async views, the file logger's concurrent writers, the
# container's lazy statics and set-once configuration, the mocks' recorders, the reminder daemon's
# concurrent deliveries and the hooks' process groups, and sync (the client's scheduler, status stream
# and cycles against the real store, the routes, the server with POST bodies, the PostgreSQL routes on
# a throwaway cluster). Never the tests tagged `binary`: the praykit they would run is this build's,
# sanitized. Builds into .build/tsan (the normal build is untouched) and fails on any report that
# Scripts/tsan.supp does not suppress (only the documented Synchronization.Mutex false positive).
#
#   Scripts/tsan.sh [extra swift test arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

export TSAN_OPTIONS="suppressions=$PWD/Scripts/tsan.supp print_suppressions=1 ${TSAN_OPTIONS:-}"

# First, the suppression itself: it must hide the Mutex false positive and nothing else.
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
swiftc -sanitize=thread -Onone Scripts/tsan-mutex-probe.swift -o "$probe/probe"
for mode in mutex racy; do
    "$probe/probe" "$mode" >"$probe/$mode.log" 2>&1 || true
done
if grep -q 'WARNING: ThreadSanitizer' "$probe/mutex.log" || ! grep -q 'WARNING: ThreadSanitizer' "$probe/racy.log"; then
    echo "Scripts/tsan.supp does not do its job: see the probe's output below" >&2
    cat "$probe/mutex.log" "$probe/racy.log" >&2
    exit 1
fi
echo "Suppression check: the Mutex false positive is suppressed, a real race is still reported."

build=(--sanitize=thread --scratch-path .build/tsan)
swift build --build-tests "${build[@]}"
# Selected by tag from the built tests' listing (this swift test has no tag filter: Scripts/test-tags.sh).
tagged="$(Scripts/test-tags.sh concurrency -- "${build[@]}")"
binary="$(Scripts/test-tags.sh binary -- "${build[@]}")"
output="$probe/tests.log"
status=0
swift test --skip-build "${build[@]}" --filter "$tagged" --skip "$binary" "$@" 2>&1 \
    | tee "$output" || status=$?
reports="$(grep -c 'WARNING: ThreadSanitizer' "$output" || true)"
suppressed="$(grep -a -A20 'ThreadSanitizer: Matched' "$output" | grep -a -E '^ *[0-9]+ ' || true)"
echo "ThreadSanitizer: ${reports} unsuppressed reports; suppressed (count, pattern): ${suppressed:-none}"
[ "$status" -eq 0 ] && [ "$reports" -eq 0 ]
