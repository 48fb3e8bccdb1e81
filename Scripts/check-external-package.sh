#!/usr/bin/env bash
# Builds the Swift samples of docs/app.md (the app developer's guide) and docs/serve.md, copied verbatim, in a new package
# outside this repository that depends on PrayKit by path — the way an app adopts it — then runs the app
# and its test.
#
#   Scripts/check-external-package.sh [work-folder]
#
# The guide's blocks are recognised by their content: the `// Package.swift` fragment becomes the
# manifest, the quick start becomes the app's main.swift (after configurePrayKit), every other block
# with declarations becomes a source file, and the block with `@Test` becomes the test target.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
ln -sfn "$repo" "$work/PrayKit"   # so the guide's `.package(path: "../PrayKit")` works verbatim
app="$work/PrayerApp"
rm -rf "$app/Sources" "$app/Tests"
mkdir -p "$app/Sources/PrayerApp" "$app/Tests/PrayerAppTests"

python3 - "$repo/docs/app.md" "$repo/docs/serve.md" "$app" <<'PY'
import re, sys, pathlib
readme = "".join(pathlib.Path(path).read_text() for path in sys.argv[1:-1])
app = pathlib.Path(sys.argv[-1])
blocks = re.findall(r"```swift\n(.*?)```", readme, re.S)
sources, main, test, manifest = [], None, None, None
for block in blocks:
    if block.startswith("// Package.swift"):
        manifest = block
    elif "@Test" in block:
        test = block
    elif "PrayDependency().prayerManager().days" in block:
        main = block
    else:
        sources.append(block)
assert manifest and main and test and len(sources) >= 3, "docs/app.md samples not found"
(app / "Package.swift").write_text(
    "// swift-tools-version: 6.0\nimport PackageDescription\n\nlet package = Package(\n"
    '    name: "PrayerApp",\n    platforms: [.macOS(.v15), .iOS(.v18)],\n'
    + "".join("    " + line + "\n" for line in manifest.splitlines()[1:])
    + ")\n"
)
for index, block in enumerate(sources):
    (app / "Sources/PrayerApp" / f"Sample{index}.swift").write_text(block)
imports = [line for line in main.splitlines() if line.startswith("import ")]
body = [line for line in main.splitlines() if not line.startswith("import ")]
(app / "Sources/PrayerApp/main.swift").write_text(
    "\n".join(sorted(set(imports + ["import Foundation", "import PrayServices"]))) + "\n\n"
    + "let folder = FileManager.default.temporaryDirectory.appendingPathComponent(\"prayer-app-\\(getpid())\").path\n"
    + "try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)\n"
    + "try configurePrayKit(\n    databasePath: folder + \"/prayers.sqlite\",\n"
    + "    logDestinations: [.console, .file(path: folder + \"/prayers.log\")],\n"
    + "    minLevel: PrayDependency.Configuration.logLevel(fromEnvironment: ProcessInfo.processInfo.environment) ?? .info\n)\n"
    + "\n".join(body) + "\n"
    + "print(try await TodayModel(dependency: PrayDependency()).nextPrayer(at: Date()) as Any)\n"
)
(app / "Tests/PrayerAppTests/TodayModelTests.swift").write_text("@testable import PrayerApp\n" + test)
PY

cd "$app"
echo "== building $app"
swift build
echo "== running the app"
swift run PrayerApp
echo "== testing the app"
swift test
echo "OK: the samples of docs/app.md build, run and pass in $app"
