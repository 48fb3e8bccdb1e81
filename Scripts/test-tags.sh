#!/usr/bin/env bash
# The Swift Testing tests that carry any of the given tags (Mocks/Support/TestTags.swift), as one
# regular expression for `swift test --filter` or `--skip`.
#
# This toolchain's `swift test` selects tests by their names only: Swift 6.3.1 takes
# `--filter tag:server` as a name pattern, which matches nothing (tried). The tags are read instead
# from the built tests' own listing: `swift test list` with an event stream (an experimental version
# of it, whose records carry each suite's and each test's tags), turned into the tests' IDs. A test
# carries its own tags and its suites'; a tagged suite is selected whole.
#
#   Scripts/test-tags.sh [--list] TAG… [-- swift test list options…]
#
#   swift test --skip-build --filter "$(Scripts/test-tags.sh server postgres)"   # those only
#   swift test --skip-build --skip "$(Scripts/test-tags.sh process server postgres)"  # in one process
#   Scripts/test-tags.sh --list binary                        # which tests run the built praykit
#   Scripts/test-tags.sh concurrency -- --sanitize=thread --scratch-path .build/tsan
#
# The tests must be built (the listing does not build). Fails, saying so, when no test carries any
# of the tags: a misspelt tag, or a toolchain whose listing has no tags.
set -euo pipefail
cd "$(dirname "$0")/.."

list=0
tags=()
while [ "$#" -gt 0 ]; do
    case "$1" in
        --list) list=1 ;;
        --) shift; break ;;
        -*) echo "error: unknown option '$1' (swift test's options go after --)" >&2; exit 64 ;;
        *) tags+=("$1") ;;
    esac
    shift
done
if [ "${#tags[@]}" -eq 0 ]; then
    echo "usage: Scripts/test-tags.sh [--list] TAG… [-- swift test list options…]" >&2
    exit 64
fi

events="$(mktemp)"
trap 'rm -f "$events"' EXIT
# 99 is the testing library's experimental event stream version, the one whose test records carry
# `_tags`; from Swift 6.4 the stable version has `tags`, which the reader below takes too.
swift test list --skip-build --disable-xctest --event-stream-output-path "$events" \
    --experimental-event-stream-version 99 "$@" >/dev/null

python3 - "$list" "$events" "${tags[@]}" <<'PY'
import json, re, sys

list_them, path, wanted = sys.argv[1] == "1", sys.argv[2], set(sys.argv[3:])
suites, functions, any_tags = {}, {}, False
for line in open(path, encoding="utf-8"):
    record = json.loads(line)
    if record.get("kind") != "test":
        continue
    test = record["payload"]
    tags = {tag.lstrip(".") for tag in test.get("tags") or test.get("_tags") or []}
    any_tags = any_tags or bool(tags)
    (suites if test["kind"] == "suite" else functions)[test["id"]] = tags
if not any_tags:
    sys.exit("error: no test in the listing carries a tag: a build from before the tags, or a toolchain "
             "whose event stream leaves them out")

def ancestors(test_id):
    """The suites that hold a test: every ID that is a prefix of the test's up to a slash."""
    parts = test_id.split("/")
    return ["/".join(parts[:n]) for n in range(1, len(parts))]

chosen_suites = sorted(s for s, tags in suites.items() if tags & wanted)
chosen = set(chosen_suites)
chosen_functions = sorted(
    f for f, tags in functions.items()
    if not any(a in chosen for a in ancestors(f)) and tags & wanted)
everything = sorted(
    f for f, tags in functions.items() if tags & wanted or any(a in chosen for a in ancestors(f)))
if not everything:
    sys.exit("error: no test carries %s" % " or ".join(sorted(wanted)))
if list_them:
    for f in everything:
        # The ID without its source location: Module.Suite/test(labels:)
        print(re.sub(r"/[^/]+\.swift:\d+:\d+$", "", f))
    sys.exit(0)
# A suite's pattern takes its tests (`Module.Suite/…`), a test's pattern that test alone; Swift
# Testing matches a pattern anywhere in an ID, so both are anchored.
patterns = ["^%s(/|$)" % re.escape(s) for s in chosen_suites] + ["^%s$" % re.escape(f) for f in chosen_functions]
print("|".join(patterns))
PY
