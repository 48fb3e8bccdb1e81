#!/usr/bin/env bash
# Measures praykit's start-up and peak memory against a Foundation hello-world that reads a time zone,
# each build against a hello-world built the same way, in one run:
#
#   static   the binary users install (Scripts/build-release.sh: release, --static-swift-stdlib, every
#            module with direct metadata accessors, debug information stripped), against a
#            hello-world built --static-swift-stdlib;
#   default  a plain `swift build -c release` (the Swift runtime and Foundation as shared libraries;
#            Package.swift's own flags only), against a plain release hello-world.
#
# praykit-bench --startup times `praykit times --lat 21.4225 --lon 39.8262` and the hello-world as
# fresh processes, median of 21 each, and reports startupRatio and the peak RSS of one day; then the
# static build's praykit-bench reports the first day in a fresh process and the rest of its figures.
#
#   Scripts/startup.sh [--json]
set -euo pipefail
cd "$(dirname "$0")/.."
json=()
[ "${1:-}" = "--json" ] && json=(--json)
hello="$(mktemp -d)"
trap 'rm -rf "$hello"' EXIT
mkdir -p "$hello/Sources/hello"
cat > "$hello/Package.swift" <<'SWIFT'
// swift-tools-version: 6.0
import PackageDescription
let package = Package(name: "hello", targets: [.executableTarget(name: "hello")])
SWIFT
cat > "$hello/Sources/hello/main.swift" <<'SWIFT'
import Foundation
// A formatting API keeps ICU linked in a static build (else TimeZone(identifier:) has no zones).
_ = 1.5.formatted()
let zone = TimeZone(identifier: "Asia/Riyadh")!
print("hello \(zone.secondsFromGMT(for: Date()))")
SWIFT
(cd "$hello" && swift build -c release --static-swift-stdlib --scratch-path "$hello/static" > /dev/null)
(cd "$hello" && swift build -c release --scratch-path "$hello/default" > /dev/null)

source Scripts/release-flags.sh
Scripts/build-release.sh > /dev/null
swift build "${release_flags[@]}" --product praykit-bench > /dev/null
swift build -c release --scratch-path .build/default-build --product praykit > /dev/null
bench=.build/release/praykit-bench

echo "== default build (swift build -c release): $(ls -l .build/default-build/release/praykit | awk '{printf "%.1f", $5 / 1048576}') MB"
"$bench" --startup --praykit .build/default-build/release/praykit --hello "$hello/default/release/hello" "${json[@]}"
echo "== static build (Scripts/build-release.sh): $(ls -l .build/release/praykit | awk '{printf "%.1f", $5 / 1048576}') MB"
"$bench" --startup --hello "$hello/static/release/hello" "${json[@]}"
echo "== praykit-bench (static build)"
"$bench" --hello "$hello/static/release/hello" "${json[@]}"
