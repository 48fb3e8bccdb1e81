#!/usr/bin/env bash
# Builds the DocC documentation of PrayCore and PrayKit into .build/docs/<Module>.doccarchive, and
# fails on any DocC warning (an unresolved symbol link, say).
#
#   Scripts/docs.sh                # archives
#   Scripts/docs.sh --static       # plus static HTML in .build/docs/<Module>-html (open index.html)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build/docs-build
graphs=.build/docs/symbol-graphs
mkdir -p "$graphs/all"
# The symbol graphs are written when the modules compile (the scratch folder is kept apart so the
# extra flags do not rebuild the main build).
swift build --scratch-path "$scratch" --target PrayKit \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs/all" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
for module in PrayCore PrayKit; do
    rm -rf "$graphs/$module" && mkdir -p "$graphs/$module"
    cp "$graphs/all/$module".symbols.json "$graphs/$module/"
    cp "$graphs/all/$module"@*.symbols.json "$graphs/$module/" 2>/dev/null || true
    output=".build/docs/$module.doccarchive"
    rm -rf "$output"
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.praykit.$module" \
        --output-path "$output" --warnings-as-errors
    if [ "${1:-}" = "--static" ]; then
        rm -rf ".build/docs/$module-html"
        docc process-archive transform-for-static-hosting "$output" --output-path ".build/docs/$module-html"
    fi
    echo "built $output"
done
