#!/bin/sh
# The official image's first-start duties that the compose file relies on, then PostgreSQL in the foreground.
set -e
mkdir -p "$PGDATA" /var/run/postgresql && chown -R postgres:postgres "$PGDATA" /var/run/postgresql
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    echo "$POSTGRES_PASSWORD" > /tmp/pwfile
    su postgres -c "initdb -D '$PGDATA' -U postgres --encoding=UTF8 --locale=C.UTF-8 --pwfile=/tmp/pwfile --auth-host=scram-sha-256 --auth-local=trust"
    rm /tmp/pwfile
    echo "host all all 0.0.0.0/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
    su postgres -c "pg_ctl -D '$PGDATA' -o '-c listen_addresses=' -w start"
    [ -n "$POSTGRES_DB" ] && su postgres -c "createdb '$POSTGRES_DB'"
    su postgres -c "pg_ctl -D '$PGDATA' -m fast -w stop"
fi
exec su postgres -c "postgres -D '$PGDATA' -c listen_addresses='*'"
