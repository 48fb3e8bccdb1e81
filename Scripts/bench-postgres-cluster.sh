# Sourced by Scripts/bench-sync-postgres.sh and Scripts/bench-sync-servers.sh: a throwaway PostgreSQL
# cluster, as Mocks/Support/PostgresCluster.swift starts one for the tests (initdb into a new temporary
# folder, a server listening only on a Unix socket in that folder, no TCP), but with fsync ON unless
# PRAYKIT_BENCH_FSYNC=off: a commit then waits for the disk, as a production server's does (the
# tests' cluster runs with fsync=off). Run as root, every PostgreSQL command runs as the postgres
# user (the server refuses root), in a folder that user owns.
#
#   pg_start            sets PG_DIR, PG_BIN; the cluster is stopped and removed by pg_stop (call it
#                       from the caller's EXIT trap)
#   pg_new_database N   creates database N and prints its URL
#   pg_stop

pg_run() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$PG_BIN/$1" "${@:2}"
    else
        "$PG_BIN/$1" "${@:2}"
    fi
}

pg_start() {
    PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    [ -x "$PG_BIN/initdb" ] || { echo "needs PostgreSQL's server (apt-get install -y postgresql)" >&2; return 1; }
    PG_DIR="$(mktemp -d /tmp/praykit-bench-pg.XXXXXX)"
    chmod 700 "$PG_DIR"
    if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$PG_DIR"; fi
    local fsync="${PRAYKIT_BENCH_FSYNC:-on}"
    # initdb's own files need no fsync (the folder is thrown away); the server's setting is $fsync.
    pg_run initdb -D "$PG_DIR/data" -U postgres --auth=trust --no-sync -E UTF8 --locale=C >"$PG_DIR/initdb.log" 2>&1 \
        || { cat "$PG_DIR/initdb.log" >&2; return 1; }
    pg_run pg_ctl -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 120 \
        -o "-k $PG_DIR -c listen_addresses='' -c fsync=$fsync -c max_connections=200" start >/dev/null \
        || { cat "$PG_DIR/server.log" >&2; return 1; }
    echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') in $PG_DIR (Unix socket only, fsync=$fsync)" >&2
}

pg_new_database() {
    psql -X -q -v ON_ERROR_STOP=1 -d "postgresql:///postgres?host=$PG_DIR&user=postgres" -c "CREATE DATABASE $1" >&2
    echo "postgresql:///$1?host=$PG_DIR&user=postgres"
}

pg_stop() {
    if [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR" ]; then
        if [ -f "$PG_DIR/data/postmaster.pid" ]; then
            pg_run pg_ctl -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
        fi
        rm -rf "$PG_DIR"
    fi
}
