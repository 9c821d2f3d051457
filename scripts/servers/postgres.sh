#!/usr/bin/env bash
# A throw-away PostgreSQL 15 cluster for the tests: initdb in a temporary folder, listening on a
# Unix socket there only (no TCP), owned by the postgres user when run as root.
#   eval "$(scripts/servers/postgres.sh start)"   prints SOUNDPACK_TEST_POSTGRES=… and SOUNDPACK_PG_DIR=…
#   scripts/servers/postgres.sh stop DIR           stops it and removes the folder
#   scripts/servers/postgres.sh restart DIR        stops and starts it (for the restart test)
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "error: PostgreSQL is not installed (scripts/bootstrap.sh --servers installs it)" >&2; exit 3; }
as_owner() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "${1:-}" in
start)
  dir=$(mktemp -d /tmp/soundpack-pg.XXXXXX)
  [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
  as_owner "$bin/initdb" -D "$dir/data" -U soundpack --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 3; }
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=on -c max_connections=100" start >/dev/null \
    || { cat "$dir/server.log" >&2; exit 3; }
  as_owner "$bin/createdb" -h "$dir" -U soundpack soundpack
  echo "export SOUNDPACK_TEST_POSTGRES='postgresql://soundpack@/soundpack?host=$dir'"
  echo "export SOUNDPACK_PG_DIR='$dir'"
  ;;
stop)
  dir=${2:?usage: postgres.sh stop DIR}
  as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  ;;
restart)
  dir=${2:?usage: postgres.sh restart DIR}
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart \
    -o "-c listen_addresses='' -c unix_socket_directories='$dir'" >/dev/null
  ;;
*)
  echo "usage: scripts/servers/postgres.sh start | stop DIR | restart DIR" >&2; exit 2 ;;
esac
