#!/usr/bin/env bash
# Builds the praykit binary a user installs: release, with the Swift runtime linked in
# (--static-swift-stdlib), so it starts faster and runs without the toolchain, and without the
# `$ORIGIN` RUNPATH SwiftPM gives executables (--disable-local-rpath), so that the dynamic loader
# never takes a library planted next to the binary (libsqlite3.so.0, which it links). Then checks
# that no RUNPATH is left, that the binary really has ICU (a static build that drops it loses every
# named time zone and the Islamic calendars) by asking it for zones and Hijri dates, and prints its
# size and start-up time. Debug information is stripped (symbols kept). Every module is compiled with concrete metadata reached through direct
# accessors, not by mangled name (Package.swift's directMetadataAccess, which the package itself can
# only give its executables): a one-day command starts without demangling types and searching the
# binary's protocol conformances. With patchelf, the shared libstdc++ the binary does not use is not
# loaded (see below).
#
#   Scripts/build-release.sh            # builds .build/release/praykit
#   install -m 755 .build/release/praykit ~/.local/bin/
set -euo pipefail
cd "$(dirname "$0")/.."

source Scripts/release-flags.sh
swift build "${release_flags[@]}" --product praykit
binary=.build/release/praykit
# Without the DWARF debug information (about 9 MB), keeping the symbols, so that a crash's backtrace
# still names its functions.
objcopy --strip-debug "$binary"
# libstdc++ is linked in (Scripts/release-flags.sh), yet the toolchain's -lstdc++ still names the shared
# library as NEEDED: the loader would map it and relocate its 4,000 symbols at every start for nothing
# (a quarter of a one-day command's peak memory). Removed when no symbol of the binary binds to it.
if command -v patchelf > /dev/null; then
    if ! nm -D --undefined-only "$binary" | grep -qE 'GLIBCXX|CXXABI'; then
        patchelf --remove-needed libstdc++.so.6 "$binary"
    fi
else
    echo "note: patchelf is not installed (apt-get install -y patchelf): $binary still loads libstdc++.so" >&2
fi

if command -v readelf > /dev/null && readelf -d "$binary" | grep -q 'R.*PATH.*\$ORIGIN'; then
    echo "error: $binary searches its own folder for libraries (\$ORIGIN in its RUNPATH)" >&2
    exit 1
fi

# Named zones, a zone at coordinates, Umm al-Qura and the tabular calendar must all work.
export PRAYKIT_DATABASE="$(mktemp -d)/check.sqlite"
"$binary" times --lat 21.4225 --lon 39.8262 --tz Asia/Riyadh --date 2026-11-29 --format json | grep -q '"timeZone": "Asia/Riyadh"'
"$binary" times --lat 51.5074 --lon -0.1278 --date 2026-07-01 --format json | grep -q '+01:00'
"$binary" hijri --date 2027-02-08 | grep -q '1448-09-01'
"$binary" hijri --date 2027-02-08 --calendar civil | grep -q '1448-'
echo "OK: zones and calendars work in $binary"
ls -l "$binary" | awk '{printf "size: %.1f MB\n", $5 / 1048576}'
if command -v hyperfine > /dev/null; then
    hyperfine -N -w 3 -r 21 "$binary times --lat 21.4225 --lon 39.8262" | grep -E 'Time|±'
fi
