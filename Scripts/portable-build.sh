#!/usr/bin/env bash
# Builds and tests, on Linux, PrayKit as an app on an Apple platform gets it: what the PrayKit and
# PrayMocks products link once every Linux-only dependency is left out — no CCurl, no CMicroHTTPD, no
# PrayServer, no CLI, no benchmark — so that the other side of every `#if canImport(CCurl)`,
# `#if os(Linux) && canImport(PrayServer)` and `#if canImport(CMicroHTTPD)` is compiled, with warnings
# as errors, and the tests of those targets run (the HTTP client is NetworkServiceURLSession there).
#
#   Scripts/portable-build.sh [work-folder]      (default: .build/portable)
#
# The package is generated from this repository's own manifest (`swift package dump-package`): the
# targets reachable from the PrayKit and PrayMocks products without following a dependency marked
# `.when(platforms: [.linux])`, and the test targets of those alone; each target folder is a link to
# the real one, so nothing is copied and the normal package builds as before. Then PrayServer, which
# that package leaves out, is type-checked against it without CMicroHTTPD (as a build of the whole
# package on macOS compiles it). What this cannot check — the Darwin side of `#if canImport(Darwin)`,
# `#if os(macOS)` and the iOS branch without `Process`, and Apple's SDKs themselves — is listed in the
# docs/app.md ("Apple platforms").
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mkdir -p "${1:-$repo/.build/portable}" && cd "${1:-$repo/.build/portable}" && pwd)"
package="$work/package"
scratch="$work/build"

rm -rf "$package"
mkdir -p "$package"
(cd "$repo" && swift package dump-package) >"$work/manifest.json"
python3 - "$work/manifest.json" "$repo" "$package" <<'PY'
import json, os, sys

manifest, repo, package = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
targets = {t["name"]: t for t in manifest["targets"]}
ROOT_PRODUCTS = ["PrayKit", "PrayMocks"]


def linux_only(condition):
    return bool(condition) and condition.get("platformNames") == ["linux"]


def dependencies(target):
    """The names of a target's dependencies, Linux-only ones left out."""
    names = []
    for dependency in target["dependencies"]:
        (kind, value), = dependency.items()
        if kind not in ("byName", "target"):
            sys.exit(f"portable-build: {target['name']} depends on a {kind}; teach the generator about it")
        name, condition = value[0], value[1]
        if not linux_only(condition):
            names.append(name)
    return names


roots = [name for product in manifest["products"] if product["name"] in ROOT_PRODUCTS for name in product["targets"]]
included, pending = set(), list(roots)
while pending:
    name = pending.pop()
    if name not in included:
        included.add(name)
        pending.extend(dependencies(targets[name]))
tests = [t["name"] for t in manifest["targets"] if t["type"] == "test" and set(dependencies(t)) <= included]
keep = [t for t in manifest["targets"] if t["name"] in included or t["name"] in tests]
print("portable: " + ", ".join(t["name"] for t in keep))
print("left out: " + ", ".join(t["name"] for t in manifest["targets"] if t not in keep))


def swift_list(values):
    return "[" + ", ".join(json.dumps(v) for v in values) + "]"


def settings(target):
    """Swift settings, Linux-only ones left out; anything else the generator does not know stops it."""
    kept = []
    for setting in target["settings"]:
        if linux_only(setting.get("condition")):
            continue
        if setting["tool"] != "swift" or list(setting["kind"]) != ["define"] or setting.get("condition"):
            sys.exit(f"portable-build: {target['name']} has a setting the generator does not know: {setting}")
        kept.append(f'.define({json.dumps(setting["kind"]["define"])})')
    return kept


def declaration(target):
    name, kind = target["name"], target["type"]
    path = target.get("path") or ("Tests/" if kind == "test" else "Sources/") + name
    os.makedirs(os.path.dirname(os.path.join(package, path)), exist_ok=True)
    os.symlink(os.path.join(repo, path), os.path.join(package, path))
    arguments = [f"name: {json.dumps(name)}"]
    if kind == "system":
        providers = [f".apt({swift_list(p['apt'][0])})" for p in target.get("providers") or []]
        arguments += [f'pkgConfig: {json.dumps(target["pkgConfig"])}', f"providers: [{', '.join(providers)}]"]
        return f"        .systemLibrary({', '.join(arguments)}),"
    arguments.append(f"dependencies: {swift_list(dependencies(target))}")
    if target.get("path"):
        arguments.append(f"path: {json.dumps(path)}")
    if target["exclude"]:
        arguments.append(f"exclude: {swift_list(target['exclude'])}")
    if target["resources"]:
        rules = [f'.{list(r["rule"])[0]}({json.dumps(r["path"])})' for r in target["resources"]]
        arguments.append(f"resources: [{', '.join(rules)}]")
    if settings(target):
        arguments.append(f"swiftSettings: [{', '.join(settings(target))}]")
    return f"        .{'testTarget' if kind == 'test' else 'target'}({', '.join(arguments)}),"


names = {"macos": "macOS", "ios": "iOS", "watchos": "watchOS", "tvos": "tvOS", "visionos": "visionOS"}
platforms = [f'.{names[p["platformName"]]}("{p["version"]}")' for p in manifest["platforms"]]
lines = [
    f"// swift-tools-version: {manifest['toolsVersion']['_version']}",
    "// Generated by Scripts/portable-build.sh from PrayKit's manifest: its Linux-only targets left out.",
    "import PackageDescription",
    "",
    "let package = Package(",
    '    name: "PrayKitPortable",',
    f"    platforms: [{', '.join(platforms)}],",
    "    targets: [",
    *[declaration(t) for t in keep],
    "    ]",
    ")",
]
open(os.path.join(package, "Package.swift"), "w").write("\n".join(lines) + "\n")
PY

cd "$package"
echo "== portable build (warnings are errors)"
swift build --build-tests --scratch-path "$scratch" -Xswiftc -warnings-as-errors
echo "== portable tests"
swift test --skip-build --scratch-path "$scratch"

# PrayServer without CMicroHTTPD, type-checked against the modules just built. It is not a target of
# the package above: SwiftPM puts every module it builds in one folder, where PrayKit's
# `canImport(PrayServer)` would find it.
echo "== PrayServer without libmicrohttpd (type-check)"
# `package` declarations (PrayCore's ZoneClock, PrayServices' SQLite layer that the sync server's SQLite
# store runs on) are visible within one package name: the one SwiftPM gave.
package_name="$(grep -m1 -A1 '"-package-name",' "$scratch/debug/description.json" | tail -1 | tr -d ' ",')"
# The pages' C target (CPrayPages) is not in the portable package (only PrayServer uses it): its header
# is enough to type-check against, through a module map of its own.
pages_map="$work/CPrayPages.modulemap"
printf 'module CPrayPages {\n    header "%s"\n    export *\n}\n' \
    "$repo/Sources/CPrayPages/include/praykit_pages.h" >"$pages_map"
find "$repo/Sources/PrayServer" -name '*.swift' -print0 | xargs -0 swiftc -typecheck -swift-version 6 \
    -warnings-as-errors -module-name PrayServer -package-name "$package_name" -I "$scratch/debug/Modules" \
    -Xcc -fmodule-map-file="$repo/Sources/CSQLite/module.modulemap" -Xcc -fmodule-map-file="$pages_map"
echo "portable build: OK"
