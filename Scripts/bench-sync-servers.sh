#!/usr/bin/env bash
# Sync pushes per second with 1, 2 and 4 `praykit serve` processes on one PostgreSQL database behind
# HAProxy (round robin), and with 1 server on SQLite for reference (issue 22).
#
# For each configuration and run: a new database (or SQLite file), N release `praykit serve
# --sync-store …` on loopback ports, HAProxy in front (a generated config, run in the foreground as a
# child of this script), then `praykit-bench --sync-pair` adds users through the store and pairs
# their devices through HAProxy (POST /sync/v1/devices, as a phone does), and `praykit-bench
# --sync-load` pushes through HAProxy from all of them at once for SECONDS_PER_RUN seconds after a 2 s
# warm-up: every request one new log row with the device's next mutation ID (never a retry), one
# request in flight per device, CONNECTIONS keep-alive connections. Two loads each time:
#   spread: USERS users with DEVICES_PER_USER devices each (the user's row lock rarely meets itself);
#   hot:    one user with HOT_DEVICES devices (every push takes that one user's lock).
# A device sends at most 115 pushes a run: `praykit serve` allows a device 120 requests a minute, so no
# push is refused for its rate (the report counts any answer but 200).
#
# While each load runs, the CPU time of every process is read from /proc before and after (utime +
# stime of the servers, of the PostgreSQL postmaster and its backends, of HAProxy, of the load
# generator, and the machine's total from /proc/stat), and printed as cores used.
#
# PostgreSQL runs with fsync ON (PRAYKIT_BENCH_FSYNC=off to compare), the cluster thrown away at the end.
#
# Usage: Scripts/bench-sync-servers.sh     environment: SERVERS ("1 2 4"; NxT: N servers of T threads), RUNS (3), SECONDS_PER_RUN (15),
#        CONNECTIONS (32), USERS (300), DEVICES_PER_USER (2), HOT_DEVICES (128), SQLITE (1: also 1 server
#        on SQLite), RESULTS (a file for the JSON lines; default: in the temporary folder, printed)
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bench-postgres-cluster.sh

servers_list="${SERVERS:-1 2 4}"
runs="${RUNS:-3}"
seconds="${SECONDS_PER_RUN:-15}"
connections="${CONNECTIONS:-32}"
users="${USERS:-300}"
devices_per_user="${DEVICES_PER_USER:-2}"
hot_devices="${HOT_DEVICES:-128}"
with_sqlite="${SQLITE:-1}"

command -v haproxy >/dev/null || { echo "bench-sync-servers: needs haproxy (apt-get install -y haproxy)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "bench-sync-servers: needs python3 (for the medians)" >&2; exit 1; }

work="$(mktemp -d /tmp/praykit-bench-servers.XXXXXX)"
results="${RESULTS:-$work/results.jsonl}"
: >"$results"
children=()
stop_children() {
    for pid in "${children[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${children[@]}"; do wait "$pid" 2>/dev/null || true; done
    children=()
}
cleanup() {
    stop_children
    pg_stop
    if [ -z "${RESULTS:-}" ] && [ -f "$results" ]; then cp "$results" "/tmp/praykit-bench-servers-results.jsonl"; fi
    rm -rf "$work"
}
trap cleanup EXIT

swift build -c release --product praykit >/dev/null
swift build -c release --product praykit-bench >/dev/null
praykit="$PWD/.build/release/praykit"
bench="$PWD/.build/release/praykit-bench"
pg_start
# Loopback ports below the kernel's ephemeral range (32768 up, where this machine's own outgoing
# connections take theirs), chosen again for each configuration among those nothing listens on.
choose_ports() {
    local port taken
    taken="$(ss -ltnH 2>/dev/null | awk '{print $4}' | sed 's/.*://' | sort -u)"
    while true; do
        base_port=$((20000 + RANDOM % 1200 * 10))
        for port in $(seq "$base_port" $((base_port + 9))); do
            if grep -qx "$port" <<<"$taken"; then continue 2; fi
        done
        return 0
    done
}
ticks="$(getconf CLK_TCK)"

# utime + stime, in clock ticks, of the processes given (those that have ended count 0).
cpu_of() {
    local total=0 pid stat
    for pid in "$@"; do
        # The fields after the command's closing parenthesis: the 12th and 13th are utime and stime.
        if stat="$(cut -d')' -f2- "/proc/$pid/stat" 2>/dev/null)"; then
            read -ra fields <<<"$stat"
            total=$((total + fields[11] + fields[12]))
        fi
    done
    echo "$total"
}
# The postmaster and every process it started (backends, checkpointer, WAL writer, …).
postgres_pids() {
    local master
    master="$(head -n 1 "$PG_DIR/data/postmaster.pid")"
    echo "$master" $(pgrep -P "$master" || true)
}
# Every process's utime + stime and name, as JSON lines of [pid, name, ticks], to attribute the rest.
snapshot_all() {
    python3 - >"$1" <<'EOF'
import json, os
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        text = open(f"/proc/{pid}/stat").read()
    except OSError:
        continue
    name, fields = text[text.index("(") + 1:text.rindex(")")], text[text.rindex(")") + 2:].split()
    print(json.dumps([int(pid), name, int(fields[11]) + int(fields[12])]))
EOF
}
# Busy, total and stolen clock ticks of the whole machine (all cores) from /proc/stat: busy is user,
# nice, system, irq, softirq and steal (the hypervisor's, for another machine); total adds idle and
# iowait.
machine_ticks() {
    awk '/^cpu /{busy=$2+$3+$4+$7+$8+$9; total=busy+$5+$6; print busy, total, $9}' /proc/stat
}

start_servers() { # count, store, threads of each server (empty: praykit's default, one a core)
    local count="$1" store="$2" threads="$3" i port
    choose_ports
    server_pids=()
    for i in $(seq 1 "$count"); do
        port=$((base_port + i))
        XDG_DATA_HOME="$work/xdg" XDG_CONFIG_HOME="$work/xdg" "$praykit" serve --port "$port" \
            --sync-store "$store" --max-connections-per-address 0 ${threads:+--threads "$threads"} >"$work/server-$i.log" 2>&1 &
        children+=("$!")
        server_pids+=("$!")
    done
    for i in $(seq 1 "$count"); do
        for _ in $(seq 1 100); do
            grep -q "^Sync at" "$work/server-$i.log" 2>/dev/null && break
            sleep 0.1
        done
        grep -q "^Sync at" "$work/server-$i.log" || { cat "$work/server-$i.log" >&2; exit 1; }
    done
    {
        printf 'global\n    maxconn 4000\n'
        printf 'defaults\n    mode http\n    timeout connect 5s\n    timeout client 60s\n    timeout server 60s\n'
        printf 'frontend sync\n    bind 127.0.0.1:%s\n    default_backend praykit\n' "$base_port"
        printf 'backend praykit\n    balance roundrobin\n'
        for i in $(seq 1 "$count"); do printf '    server s%s 127.0.0.1:%s\n' "$i" "$((base_port + i))"; done
    } >"$work/haproxy.cfg"
    haproxy -db -f "$work/haproxy.cfg" >"$work/haproxy.log" 2>&1 &
    children+=("$!")
    haproxy_pid="$!"
    for _ in $(seq 1 100); do
        curl -s -o /dev/null "http://127.0.0.1:$base_port/status" && return 0
        sleep 0.1
    done
    cat "$work/haproxy.log" >&2
    exit 1
}

# One load through HAProxy, with the CPU of each part around it: appends a JSON line to $results.
load() { # label, tokens file
    local label="$1" tokens="$2" before_servers before_pg before_haproxy machine_before after output
    before_servers="$(cpu_of "${server_pids[@]}")"
    before_pg="$(cpu_of $(postgres_pids))"
    before_haproxy="$(cpu_of "$haproxy_pid")"
    machine_before="$(machine_ticks)"
    snapshot_all "$work/before.procs"
    local started ended
    started="$(date +%s.%N)"
    output="$("$bench" --sync-load "http://127.0.0.1:$base_port" --tokens "$tokens" --seconds "$seconds" \
        --connections "$connections" --json)"
    ended="$(date +%s.%N)"
    after="$(machine_ticks)"
    snapshot_all "$work/after.procs"
    local known="${server_pids[*]} $(postgres_pids) $haproxy_pid"
    python3 - "$results" "$label" "$output" "$started" "$ended" "$ticks" "$(nproc)" \
        "$before_servers" "$(cpu_of "${server_pids[@]}")" "$before_pg" "$(cpu_of $(postgres_pids))" \
        "$before_haproxy" "$(cpu_of "$haproxy_pid")" $machine_before $after \
        "$work/before.procs" "$work/after.procs" "$known" <<'EOF'
import json, sys
results, label, output, started, ended, ticks, cores = sys.argv[1:8]
s0, s1, p0, p1, h0, h1, mb0, mt0, ms0, mb1, mt1, ms1 = map(int, sys.argv[8:20])
wall, ticks, cores = float(ended) - float(started), int(ticks), int(cores)
r = {"label": label, **json.loads(output),
     "coresServers": round((s1 - s0) / ticks / wall, 2), "coresPostgres": round((p1 - p0) / ticks / wall, 2),
     "coresHAProxy": round((h1 - h0) / ticks / wall, 2),
     "coresMachineBusy": round((mb1 - mb0) / (mt1 - mt0) * cores, 2),
     "coresStolen": round((ms1 - ms0) / (mt1 - mt0) * cores, 2), "cores": cores}
# The other processes that used the most CPU meanwhile (this generator included, then left out by name).
before = {p: t for p, _, t in map(json.loads, open(sys.argv[20]))}
known = set(map(int, sys.argv[22].split()))
others = {}
for pid, name, t in map(json.loads, open(sys.argv[21])):
    if pid not in known and name != "praykit-bench":
        others[name] = others.get(name, 0) + t - before.get(pid, 0)
top = sorted(((t / ticks / wall, name) for name, t in others.items() if t > 0), reverse=True)
r["coresOthersTop"] = [f"{name} {c:.2f}" for c, name in top[:4]]
with open(results, "a") as file:
    file.write(json.dumps(r) + "\n")
rest = r["coresMachineBusy"] - r["coresServers"] - r["coresPostgres"] - r["coresHAProxy"] - r["syncLoadGeneratorCores"]
print(f"  {label:<26} {r['syncLoadPushesPerSecond']:>6} pushes/s  p50 {r['syncLoadLatencyP50Milliseconds']:>6} ms"
      f"  p99 {r['syncLoadLatencyP99Milliseconds']:>7} ms  other answers {r['syncLoadFailures'] or 'none'}"
      f"  | cores: servers {r['coresServers']:.2f}, postgres {r['coresPostgres']:.2f}, haproxy {r['coresHAProxy']:.2f},"
      f" generator {r['syncLoadGeneratorCores']:.2f}, rest {rest:.2f}; machine busy {r['coresMachineBusy']:.2f} of {cores}"
      f" (stolen {r['coresStolen']:.2f})"
      f" (other processes: {', '.join(r['coresOthersTop']) or 'none'})")
EOF
}

run_configuration() { # label, count, store, threads
    local label="$1" count="$2" store="$3" threads="${4:-}"
    start_servers "$count" "$store" "$threads"
    "$bench" --sync-pair "http://127.0.0.1:$base_port" --store "$store" --users "$users" \
        --devices "$devices_per_user" --tokens "$work/spread.tokens" >/dev/null
    "$bench" --sync-pair "http://127.0.0.1:$base_port" --store "$store" --users 1 \
        --devices "$hot_devices" --tokens "$work/hot.tokens" >/dev/null
    load "$label spread" "$work/spread.tokens"
    load "$label hot" "$work/hot.tokens"
    stop_children
    # Every push answered 200 (warm-up included) must be a row in the store: one new row each.
    local answered stored
    answered="$(tail -n 2 "$results" | python3 -c 'import json, sys; print(sum(json.loads(l)["syncLoadPushesAnswered"] for l in sys.stdin))')"
    case "$store" in
    sqlite:*) stored="$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM sync_rows").fetchone()[0])' "${store#sqlite:}")" ;;
    *) stored="$(psql -X -At -d "$store" -c "SELECT count(*) FROM sync_rows")" ;;
    esac
    if [ "$answered" != "$stored" ]; then
        echo "  CHECK FAILED: $answered pushes answered 200, $stored rows stored" >&2
        exit 1
    fi
    echo "  checked: $stored rows stored = $answered pushes answered 200 (warm-up included)"
}

echo "bench-sync-servers: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $runs runs of $seconds s;" \
    "spread: $users users × $devices_per_user devices, hot: 1 user × $hot_devices devices; $connections connections"
database=0
for run in $(seq 1 "$runs"); do
    echo "run $run"
    if [ "$with_sqlite" = 1 ]; then
        run_configuration "sqlite 1 server" 1 "sqlite:$work/sqlite-$run/sync.sqlite"
    fi
    for servers in $servers_list; do
        # N, or NxT: N servers of T worker threads each.
        database=$((database + 1))
        count="${servers%x*}"
        threads=""
        label="postgres $count server(s)"
        if [ "$count" != "$servers" ]; then
            threads="${servers#*x}"
            label="postgres $count × $threads threads"
        fi
        run_configuration "$label" "$count" "$(pg_new_database "praykit_load_$database")" "$threads"
    done
done

echo "medians of $runs runs: pushes/s (each run), p50 and p99 ms; cores used by servers / postgres / haproxy /"
echo "generator / the whole machine; CPU ms a push (the cores each part used ÷ pushes/s) of servers / postgres / haproxy:"
python3 - "$results" <<'EOF'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
labels = list(dict.fromkeys(r["label"] for r in rows))
for label in labels:
    mine = [r for r in rows if r["label"] == label]
    m = lambda key: statistics.median(float(r[key]) for r in mine)
    runs = ", ".join(str(r["syncLoadPushesPerSecond"]) for r in mine)
    print(f"  {label:<28} {m('syncLoadPushesPerSecond'):>6.0f} pushes/s ({runs})  p50 {m('syncLoadLatencyP50Milliseconds'):.1f}"
          f"  p99 {m('syncLoadLatencyP99Milliseconds'):.1f}  | {m('coresServers'):.2f} / {m('coresPostgres'):.2f} /"
          f" {m('coresHAProxy'):.2f} / {m('syncLoadGeneratorCores'):.2f} / {m('coresMachineBusy'):.2f}"
          f"  | {statistics.median(1000 * r['coresServers'] / r['syncLoadPushesPerSecond'] for r in mine):.2f} /"
          f" {statistics.median(1000 * r['coresPostgres'] / r['syncLoadPushesPerSecond'] for r in mine):.2f} /"
          f" {statistics.median(1000 * r['coresHAProxy'] / r['syncLoadPushesPerSecond'] for r in mine):.2f}")
EOF
echo "JSON lines: ${RESULTS:-/tmp/praykit-bench-servers-results.jsonl (copied at exit)}"
