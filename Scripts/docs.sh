#!/usr/bin/env bash
# Builds the DocC documentation of every library target — PrayCore, PrayServices, PrayPlaces,
# PrayServer, PrayMocks and PrayKit — into .build/docs/<Module>.doccarchive, and fails on any DocC
# warning: an unresolved symbol link, a parameter left undocumented, a topic that names nothing.
#
#   Scripts/docs.sh                # archives
#   Scripts/docs.sh --static       # plus static HTML in .build/docs/<Module>-html (open index.html)
#
# The symbol graphs come from the modules of the normal debug build (swift-symbolgraph-extract reads
# their .swiftmodule and .swiftdoc files), so after `swift build --build-tests` nothing is compiled
# again: `.ci/run` runs this after its build, in seconds.
#
# DocC builds one module per archive and cannot resolve a link from one module's documentation to a
# symbol of another (``ValidationError`` in a comment of PrayServices, say). Such a link, and only
# such a link — its first component a top-level symbol that another of these modules declares and this
# one does not — is shown as code voice instead; every other link must resolve.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in docc swift-symbolgraph-extract python3; do
    command -v "$tool" >/dev/null || { echo "docs.sh: $tool is not on PATH (docc and swift-symbolgraph-extract come with the Swift toolchain)" >&2; exit 1; }
done
modules=(PrayCore PrayServices PrayPlaces PrayServer PrayMocks PrayKit)
catalog() { if [ "$1" = PrayMocks ]; then echo Mocks/PrayMocks.docc; else echo "Sources/$1/$1.docc"; fi; }

# The modules, built if they are not already (a no-op after `swift build --build-tests`).
swift build --target PrayKit
swift build --target PrayMocks
bin="$(swift build --show-bin-path)"
triple="$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"

# The C modules the Swift modules import, as SwiftPM compiled them.
clang_modules=(-Xcc "-fmodule-map-file=$PWD/Sources/CSQLite/module.modulemap")
for map in "$bin"/*.build/module.modulemap; do
    clang_modules+=(-Xcc "-fmodule-map-file=$map")
done

graphs=.build/docs/symbol-graphs
rm -rf "$graphs"
for module in "${modules[@]}"; do
    mkdir -p "$graphs/$module"
    swift-symbolgraph-extract -module-name "$module" -target "$triple" -I "$bin/Modules" "${clang_modules[@]}" \
        -minimum-access-level public -output-dir "$graphs/$module"
done

# Links into another module become code voice (see above).
python3 - "$graphs" "${modules[@]}" <<'PY'
import glob, json, os, re, sys

root, modules = sys.argv[1], sys.argv[2:]
declared = {}
for module in modules:
    graph = json.load(open(os.path.join(root, module, module + ".symbols.json")))
    declared[module] = {symbol["pathComponents"][0] for symbol in graph["symbols"]}
link = re.compile(r"``([^`]+)``")
for module in modules:
    elsewhere = set().union(*(declared[other] for other in modules if other != module)) - declared[module]

    def code_voice(match):
        first = re.split(r"[/.(]", match.group(1).lstrip("/"))[0]
        return "`" + match.group(1) + "`" if first in elsewhere else match.group(0)

    for path in glob.glob(os.path.join(root, module, "*.symbols.json")):
        graph = json.load(open(path))
        for symbol in graph["symbols"]:
            for line in (symbol.get("docComment") or {}).get("lines", []):
                line["text"] = link.sub(code_voice, line["text"])
        json.dump(graph, open(path, "w"))
PY

for module in "${modules[@]}"; do
    output=".build/docs/$module.doccarchive"
    rm -rf "$output"
    docc convert "$(catalog "$module")" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.praykit.$module" \
        --output-path "$output" --warnings-as-errors
    if [ "${1:-}" = "--static" ]; then
        rm -rf ".build/docs/$module-html"
        docc process-archive transform-for-static-hosting "$output" --output-path ".build/docs/$module-html"
    fi
    echo "built $output"
done
