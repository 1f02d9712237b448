#!/usr/bin/env bash
# Runs CMD... with a throwaway PostgreSQL 15 + PostGIS cluster on a loopback port, its URL in
# FLYR_TEST_POSTGRES_URL, and stops and deletes the cluster afterwards, also when CMD fails or
# the script is interrupted. Usage: scripts/with-postgres.sh CMD [ARG...]
# Needs Debian's postgresql-15 and postgresql-15-postgis-3 (scripts/install-deps.sh test).
# initdb refuses to run as root, so as root the cluster belongs to the `postgres` user.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 CMD [ARG...]" >&2; exit 64; }
bin=/usr/lib/postgresql/15/bin
[ -x "$bin/initdb" ] || { echo "with-postgres: $bin/initdb not found; run scripts/install-deps.sh test" >&2; exit 69; }

dir=$(mktemp -d /tmp/flyr-pg.XXXXXX)
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres:postgres "$dir"
  as_owner=(runuser -u postgres --)
fi
stop() {
  status=$?
  if [ -f "$dir/data/postmaster.pid" ]; then
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  exit $status
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A free loopback port: ask the kernel for one.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')

"${as_owner[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 69; }
"${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" >/dev/null \
  || { cat "$dir/server.log" >&2; exit 69; }
psql -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -c "CREATE DATABASE flyr_test" >/dev/null

export FLYR_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/flyr_test"
echo "with-postgres: PostgreSQL 15 on 127.0.0.1:$port ($dir), FLYR_TEST_POSTGRES_URL=$FLYR_TEST_POSTGRES_URL" >&2
"$@"
