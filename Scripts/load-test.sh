#!/usr/bin/env bash
# Load test of `praykit serve` on loopback, against a bare libmicrohttpd server measured in the same
# run on the same cores (Scripts/load/bare-server.c: a fixed 1 KB body, the same thread pool).
#
# wrk, keep-alive, 64 connections: every request asks /v1/timings for a random place, day, method and
# zone (Scripts/load/timings.lua; the bare server gets the same requests and ignores them). Rounds
# alternate bare / praykit so that other load on the machine falls on both alike; the medians are
# compared. Then a slowloris phase: hundreds of connections sending their request a byte a second
# (Scripts/load/slowloris.py) while wrk measures the other clients.
#
# Targets (issue #14, the ratio as issue #23 restates it): requests/s ≥ 0.6 × bare, p99 ≤ max(15 ms,
# 2 × bare's p99), no errors, flat RSS, and clients still served during the slowloris phase.
#
# Each round also reads each server's CPU time (user + system, /proc/PID/stat) before and after, and
# wrk's own (GNU time): CPU per request of both servers and of the load generator, medians of the rounds
# (issue 40: the server's at most 2 × the bare server's). WRK_CPUS pins wrk to those cores (taskset
# -c), to see how much of the servers' throughput the load generator's own wake-ups take.
#
# Usage: Scripts/load-test.sh          environment: ROUNDS (3), SECONDS_PER_ROUND (10), CONNECTIONS (64),
#                                       SLOW_CONNECTIONS (300), SLOW_SECONDS (25), THREADS (the core count),
#                                       SLOWLORIS (1; 0 skips that phase while iterating), WRK_CPUS (unset:
#                                       wrk not pinned; "1": wrk on core 1), PRAYKIT (a praykit binary
#                                       to measure instead of building one)
set -euo pipefail
cd "$(dirname "$0")/.."

rounds="${ROUNDS:-3}"
duration="${SECONDS_PER_ROUND:-10}"
connections="${CONNECTIONS:-64}"
slow_connections="${SLOW_CONNECTIONS:-300}"
slow_seconds="${SLOW_SECONDS:-25}"
threads="${THREADS:-$(nproc)}"
slowloris="${SLOWLORIS:-1}"
wrk_threads=2

for tool in wrk cc pkg-config python3; do
    command -v "$tool" >/dev/null || { echo "load-test: needs $tool (apt-get install -y wrk build-essential pkg-config python3)"; exit 1; }
done
pkg-config --exists libmicrohttpd || { echo "load-test: needs libmicrohttpd-dev"; exit 1; }

work="$(mktemp -d /tmp/praykit-load.XXXXXX)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

echo "load-test: building praykit (release) and the bare server"
# The binary users install (Scripts/build-release.sh's flags), or the one PRAYKIT names (an older build,
# to compare two in the same hour).
if [ -n "${PRAYKIT:-}" ]; then
    praykit="$PRAYKIT"
else
    source Scripts/release-flags.sh
    swift build "${release_flags[@]}" --product praykit >/dev/null
    praykit="$(swift build "${release_flags[@]}" --show-bin-path)/praykit"
fi
# shellcheck disable=SC2046
cc -O2 -o "$work/bare-server" Scripts/load/bare-server.c $(pkg-config --cflags --libs libmicrohttpd)

# A free loopback port from the kernel.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
wait_listening() {
    for _ in $(seq 1 300); do
        grep -q "^Listening on " "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "load-test: a server did not start ($1)"
    exit 1
}

bare_port="$(free_port)"
"$work/bare-server" "$bare_port" "$threads" >"$work/bare.out" &
pids+=($!)
wait_listening "$work/bare.out"
# Every client here is 127.0.0.1 (wrk and the slowloris connections): no per-address limit of its own.
PRAYKIT_DATABASE="$work/praykit.sqlite" "$praykit" serve --port 0 --threads "$threads" \
    --max-connections-per-address 0 >"$work/praykit.out" 2>"$work/praykit.err" &
praykit_pid=$!
pids+=("$praykit_pid")
wait_listening "$work/praykit.out"
praykit_url="$(sed -n 's/^Listening on //p' "$work/praykit.out")"
bare_url="http://127.0.0.1:$bare_port"

rss() { awk '/^VmRSS/ { print $2 }' "/proc/$praykit_pid/status"; }
bare_pid="${pids[0]}"
clock_ticks="$(getconf CLK_TCK)"
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }  # user + system, every thread
pin=()
[ -n "${WRK_CPUS:-}" ] && pin=(taskset -c "$WRK_CPUS")
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f "WRKCPU %U %S")
run_wrk() { # url seconds [server pid] → RESULT line, with server_cpu_ns and wrk_cpu_ns a request when measured
    local before after output line requests wrk_cpu
    before="$( [ -n "${3:-}" ] && cpu_ticks "$3" || echo 0)"
    output="$("${timer[@]}" "${pin[@]}" wrk -t"$wrk_threads" -c"$connections" -d"${2}s" --latency \
        -s Scripts/load/timings.lua "$1" 2>&1)"
    after="$( [ -n "${3:-}" ] && cpu_ticks "$3" || echo 0)"
    line="$(grep '^RESULT' <<<"$output")"
    requests="$(sed -n 's/.* requests=\([0-9]*\).*/\1/p' <<<"$line")"
    wrk_cpu="$(awk '/^WRKCPU/ { print $2 + $3 }' <<<"$output")"
    awk -v line="$line" -v t="$((after - before))" -v hz="$clock_ticks" -v n="${requests:-0}" -v w="${wrk_cpu:-0}" \
        'BEGIN { if (n > 0) printf "%s server_cpu_ns=%d wrk_cpu_ns=%d\n", line, t / hz * 1e9 / n, w * 1e9 / n;
                 else print line }'
}
field() { sed -n "s/.* $2=\([0-9]*\).*/\1/p" <<<"$1"; }

echo "load-test: $(nproc) cores, $threads server threads, wrk -t$wrk_threads -c$connections${WRK_CPUS:+ on cores $WRK_CPUS}, $rounds rounds of ${duration}s each"
echo "load-test: warm-up"
run_wrk "$bare_url" 3 >/dev/null
run_wrk "$praykit_url" 3 >/dev/null
rss_start="$(rss)"
bare_rps=() praykit_rps=() bare_p99=() praykit_p99=() errors=0 rss_trace="$rss_start"
bare_cpu=() praykit_cpu=() bare_wrk_cpu=() praykit_wrk_cpu=()
for round in $(seq 1 "$rounds"); do
    bare="$(run_wrk "$bare_url" "$duration" "$bare_pid")"
    ours="$(run_wrk "$praykit_url" "$duration" "$praykit_pid")"
    echo "  round $round  bare:    $bare"
    echo "  round $round  praykit: $ours"
    bare_rps+=("$(field "$bare" rps)") bare_p99+=("$(field "$bare" p99_us)")
    praykit_rps+=("$(field "$ours" rps)") praykit_p99+=("$(field "$ours" p99_us)")
    bare_cpu+=("$(field "$bare" server_cpu_ns)") praykit_cpu+=("$(field "$ours" server_cpu_ns)")
    bare_wrk_cpu+=("$(field "$bare" wrk_cpu_ns)") praykit_wrk_cpu+=("$(field "$ours" wrk_cpu_ns)")
    errors=$((errors + $(field "$ours" socket_errors) + $(field "$ours" non200)))
    rss_trace="$rss_trace $(rss)"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
b_rps="$(median "${bare_rps[@]}")" p_rps="$(median "${praykit_rps[@]}")"
b_p99="$(median "${bare_p99[@]}")" p_p99="$(median "${praykit_p99[@]}")"
b_cpu="$(median "${bare_cpu[@]}")" p_cpu="$(median "${praykit_cpu[@]}")"
b_wrk="$(median "${bare_wrk_cpu[@]}")" p_wrk="$(median "${praykit_wrk_cpu[@]}")"
rss_end="$(rss)"

if [ "$slowloris" = 1 ]; then
    echo "load-test: slowloris, $slow_connections connections sending a byte a second for ${slow_seconds}s, while wrk runs"
    python3 Scripts/load/slowloris.py "$(sed 's/.*://' <<<"$praykit_url")" "$slow_connections" "$slow_seconds" \
        >"$work/slow.out" &
    slow_pid=$!
    sleep 3
    during="$(run_wrk "$praykit_url" $((slow_seconds - 6)))"
    wait "$slow_pid"
    slow="$(cat "$work/slow.out")"
    echo "  during slowloris: $during"
    echo "  $slow"
else
    echo "load-test: slowloris phase skipped (SLOWLORIS=0)"
    during="RESULT rps=0 p99_us=0 socket_errors=0 non200=0" slow="SLOWLORIS skipped"
fi
errors_during=$(($(field "$during" socket_errors) + $(field "$during" non200)))

ratio="$(awk -v p="$p_rps" -v b="$b_rps" 'BEGIN { printf "%.2f", p / b }')"
p99_limit="$(awk -v b="$b_p99" 'BEGIN { l = 2 * b; if (l < 15000) l = 15000; print l }')"
verdict() { if [ "$1" = 1 ]; then echo "ok"; else echo "MISSED"; fi; }
cat <<EOF

RESULTS  (medians of $rounds rounds; $(nproc) cores shared by wrk and the server)
  bare libmicrohttpd, 1 KB:  $b_rps req/s   p99 $(awk -v x="$b_p99" 'BEGIN { printf "%.1f", x / 1000 }') ms
  praykit serve /v1/timings: $p_rps req/s   p99 $(awk -v x="$p_p99" 'BEGIN { printf "%.1f", x / 1000 }') ms
  requests/s ratio:          $ratio  (target ≥ 0.60: $(verdict "$(awk -v r="$ratio" 'BEGIN { print (r >= 0.6) }')"))
  server CPU a request:      bare $(awk -v x="$b_cpu" 'BEGIN { printf "%.1f", x / 1000 }') µs, praykit $(awk -v x="$p_cpu" 'BEGIN { printf "%.1f", x / 1000 }') µs: $(awk -v p="$p_cpu" -v b="$b_cpu" 'BEGIN { printf "%.2f", (b > 0 ? p / b : 0) }')× (target ≤ 2: $(verdict "$(awk -v p="$p_cpu" -v b="$b_cpu" 'BEGIN { print (b > 0 && p <= 2 * b) }')"))
  wrk's CPU a request:       against bare $(awk -v x="$b_wrk" 'BEGIN { printf "%.1f", x / 1000 }') µs, against praykit $(awk -v x="$p_wrk" 'BEGIN { printf "%.1f", x / 1000 }') µs${WRK_CPUS:+ (wrk on cores $WRK_CPUS)}
  p99 limit:                 $(awk -v x="$p99_limit" 'BEGIN { printf "%.1f", x / 1000 }') ms  ($(verdict "$(awk -v p="$p_p99" -v l="$p99_limit" 'BEGIN { print (p <= l) }')"))
  errors:                    $errors  ($(verdict "$((errors == 0))"))
  RSS (kB) after warm-up, each round, end: $rss_trace  (growth $((rss_end - rss_start)) kB)
  during slowloris:          $(field "$during" rps) req/s, p99 $(awk -v x="$(field "$during" p99_us)" 'BEGIN { printf "%.1f", x / 1000 }') ms, errors $errors_during
  $slow
EOF
