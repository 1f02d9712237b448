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
# TLS with a certificate of its own for localhost and 127.0.0.1 (the tests trust it through
# FLYR_TEST_POSTGRES_CA), and one role that must give its password (the others are trusted).
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
  -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
  -keyout "$dir/server.key" -out "$dir/server.crt" >/dev/null 2>&1 || { echo "with-postgres: openssl failed" >&2; exit 69; }
chmod 600 "$dir/server.key"
[ ${#as_owner[@]} -eq 0 ] || chown postgres:postgres "$dir/server.key" "$dir/server.crt"
cat >"$dir/data/pg_hba.conf" <<'HBA'
local all all trust
host all flyr_password 127.0.0.1/32 scram-sha-256
host all all 127.0.0.1/32 trust
HBA
"${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c ssl=on -c ssl_cert_file=$dir/server.crt -c ssl_key_file=$dir/server.key" >/dev/null \
  || { cat "$dir/server.log" >&2; exit 69; }
psql -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -c "CREATE DATABASE flyr_test" \
  -c "CREATE ROLE flyr_password LOGIN PASSWORD 'flyr-test-password'" -c "CREATE DATABASE flyr_password OWNER flyr_password" >/dev/null

export FLYR_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/flyr_test"
export FLYR_TEST_POSTGRES_CA="$dir/server.crt"
echo "with-postgres: PostgreSQL 15 on 127.0.0.1:$port ($dir), FLYR_TEST_POSTGRES_URL=$FLYR_TEST_POSTGRES_URL" >&2
"$@"
