#!/usr/bin/env bash
# `praykit-bench --sync` on SQLite and on PostgreSQL, side by side (issue 22): starts a throwaway
# PostgreSQL cluster (a temporary folder, a Unix socket only, fsync ON so that a commit waits for the
# disk as SQLite's synchronous=FULL does; PRAYKIT_BENCH_FSYNC=off measures without it, and the output
# says which), creates an empty database, runs the release benchmark with --sync-postgres, then stops
# the cluster and removes its folder (also on failure or Ctrl-C).
#
# Usage: Scripts/bench-sync-postgres.sh [--json]      (arguments go to praykit-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bench-postgres-cluster.sh

trap pg_stop EXIT
swift build -c release --product praykit-bench >/dev/null
pg_start
url="$(pg_new_database praykit_bench)"
.build/release/praykit-bench --sync --sync-postgres "$url" "$@"
