#!/usr/bin/env bash
# Which files a praykit command has mapped when it ends, read from its own /proc/self/maps: a tiny
# library preloaded into the process (LD_PRELOAD) copies that file to standard error from a destructor
# that runs at exit. Prints, per command, the shared objects mapped and whether ICU's data
# (lib_FoundationICU.so, or a system libicudata) is among them (issue 40: none for times, next, qibla).
#
#   Scripts/mapped-files.sh [praykit]     (default: .build/release/praykit)
#
# In the binary of Scripts/build-release.sh the Swift runtime, Foundation and ICU are inside the binary
# itself: its maps show one file, and what ICU costs is whether its code runs and its pages are touched
# (see docs/performance.md, callgrind). In a default build they are shared libraries of their own.
set -euo pipefail
cd "$(dirname "$0")/.."
praykit="${1:-.build/release/praykit}"
work="$(mktemp -d /tmp/praykit-maps.XXXXXX)"
trap 'rm -rf "$work"' EXIT
cat >"$work/maps.c" <<'C'
#include <fcntl.h>
#include <unistd.h>
/* At exit: /proc/self/maps to standard error, between markers. */
__attribute__((destructor)) static void dump_maps(void) {
    char buffer[65536];
    int fd = open("/proc/self/maps", O_RDONLY);
    if (fd < 0) return;
    write(2, "MAPS-BEGIN\n", 11);
    ssize_t count;
    while ((count = read(fd, buffer, sizeof buffer)) > 0) write(2, buffer, (size_t)count);
    write(2, "MAPS-END\n", 9);
    close(fd);
}
C
cc -shared -fPIC -O2 -o "$work/maps.so" "$work/maps.c"
export PRAYKIT_DATABASE="$work/praykit.sqlite"
for command in "times --lat 21.4225 --lon 39.8262" "next --lat 21.4225 --lon 39.8262" "qibla --lat 21.4225 --lon 39.8262"; do
    # shellcheck disable=SC2086
    LD_PRELOAD="$work/maps.so" "$praykit" $command 2>"$work/maps.txt" >/dev/null
    files="$(sed -n '/^MAPS-BEGIN$/,/^MAPS-END$/p' "$work/maps.txt" | awk '$6 ~ /^\// { print $6 }' | sort -u |
        grep -v "$work/maps.so")"
    icu="$(grep -E 'FoundationICU|libicu' <<<"$files" || true)"
    echo "praykit $command: $(wc -l <<<"$files") files mapped; ICU: ${icu:-none}"
    sed 's/^/    /' <<<"$files"
done
