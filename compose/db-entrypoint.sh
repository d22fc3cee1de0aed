#!/bin/sh
# The `db` service: Debian's PostgreSQL 15 on a named volume. On first start it makes the
# cluster and the `officegym` role (allowed to create databases: every env is one) with the
# password from the db_password secret; later starts reuse the volume as it is.
set -eu

PGDATA="${PGDATA:-/var/lib/postgresql/data}"
PG_PORT="${PG_PORT:-15432}"
PG_LISTEN="${PG_LISTEN:-127.0.0.1}"
SECRET="${DB_PASSWORD_FILE:-/run/secrets/db_password}"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  [ -s "$SECRET" ] || { echo "db: the password secret $SECRET is missing or empty" >&2; exit 1; }
  password="$(cat "$SECRET")"
  initdb -D "$PGDATA" -U postgres -E UTF8 --locale=C --auth-local=peer --auth-host=scram-sha-256 >/dev/null
  # Set up over the Unix socket only, so nothing can connect before the role has a password.
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -k /tmp" -w start >/dev/null
  printf "CREATE ROLE officegym LOGIN CREATEDB PASSWORD :'pw';\nCREATE DATABASE officegym OWNER officegym;\n" \
    | psql -h /tmp -U postgres -v ON_ERROR_STOP=1 -v pw="$password" -q
  pg_ctl -D "$PGDATA" -w stop >/dev/null
  echo "db: made the cluster in $PGDATA"
fi

# Workers each keep a pool; every env and template is a database of its own.
exec postgres -D "$PGDATA" -k /tmp -c listen_addresses="$PG_LISTEN" -c port="$PG_PORT" \
  -c jit=off -c max_connections="${PG_MAX_CONNECTIONS:-300}" -c shared_buffers="${PG_SHARED_BUFFERS:-256MB}"
