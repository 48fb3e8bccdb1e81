#!/usr/bin/env bash
# Measures praykit's start-up against a Foundation hello-world that reads a time zone, both built the
# same way (release, --static-swift-stdlib, as Scripts/build-release.sh builds praykit), in one run
# of praykit-bench (median of 21 each), and prints the bench's figures with startupRatio.
#
#   Scripts/startup.sh [--json]
set -euo pipefail
cd "$(dirname "$0")/.."
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
(cd "$hello" && swift build -c release --static-swift-stdlib > /dev/null)
swift build -c release --static-swift-stdlib --product praykit > /dev/null
swift build -c release --static-swift-stdlib --product praykit-bench > /dev/null
.build/release/praykit-bench --hello "$hello/.build/release/hello" "$@"
