#!/usr/bin/env bash
# Starts a PostgreSQL server of its own for the contest server's tests (Debian's
# package; a cluster in a temporary folder on port 54329, trust on loopback) and
# prints the URL the tests take in ARBITER_POSTGRES_URL.
set -euo pipefail
if ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >/dev/null
fi
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
port=54329
url="postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
if "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then  # started already (a second run)
    echo "$url"
    exit 0
fi
data=$(mktemp -d /tmp/arbiter-postgres-XXXXXX)
chown postgres "$data"
su postgres -s /bin/sh -c "$bin/initdb -D $data -A trust -U postgres" >/dev/null
su postgres -s /bin/sh -c "$bin/pg_ctl -D $data -l $data/server.log -w start \
    -o '-p $port -k /tmp -c listen_addresses=127.0.0.1 -c max_connections=200'" >/dev/null
echo "$url"
