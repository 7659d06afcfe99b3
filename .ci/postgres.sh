#!/usr/bin/env bash
# Start a throwaway PostgreSQL cluster for the server tests and print its SQLAlchemy URL on stdout.
#
#   url=$(bash .ci/postgres.sh start)    # installs Debian's postgresql if missing (needs root), starts a cluster
#   GOUJI_TEST_POSTGRES="$url" .venv/bin/pytest tests/server
#   bash .ci/postgres.sh stop            # stops it and removes its data directory
#
# The cluster listens on 127.0.0.1 only, on a free port, with trust authentication for the local user
# `postgres`; its data lives in $GOUJI_PG_DIR (default /tmp/gouji-pg).  Everything but the URL goes to stderr.
# The tests' cluster does not sync its disk (fsync=off: the server's commits are the same, and nothing in the
# tests outlives the machine); GOUJI_PG_FSYNC=on makes every commit reach the disk, as a real database's
# does (`make bench-server` measures durable acknowledgement on such a cluster).
set -euo pipefail

DIR=${GOUJI_PG_DIR:-/tmp/gouji-pg}
ACTION=${1:-start}

bindir() {
    local d
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    [ -n "$d" ] && [ -x "$d/initdb" ] && echo "$d"
}

as_pg() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "$ACTION" in
stop)
    BIN=$(bindir) || exit 0
    if [ -f "$DIR/data/postmaster.pid" ]; then
        as_pg "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >&2 || true
    fi
    rm -rf "$DIR"
    exit 0
    ;;
start) ;;
*)
    echo "usage: $0 [start|stop]" >&2
    exit 2
    ;;
esac

if ! BIN=$(bindir); then
    echo "installing postgresql from Debian's packages" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
    BIN=$(bindir)
fi
if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
fi

FSYNC=${GOUJI_PG_FSYNC:-off}
case "$FSYNC" in on | off) ;; *)
    echo "GOUJI_PG_FSYNC must be on or off, not '$FSYNC'" >&2
    exit 2
    ;;
esac

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
if [ -f "$DIR/data/postmaster.pid" ]; then
    as_pg "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >&2 || true
fi
rm -rf "$DIR"
mkdir -p "$DIR"
[ "$(id -u)" = 0 ] && chown postgres "$DIR"
as_pg "$BIN/initdb" -D "$DIR/data" -U postgres -A trust -E UTF8 --no-locale >&2
as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c fsync=$FSYNC -c max_connections=200" start >&2
as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres gouji_test >&2
echo "postgresql+psycopg://postgres@127.0.0.1:$PORT/gouji_test"
