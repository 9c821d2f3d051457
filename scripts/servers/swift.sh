#!/usr/bin/env bash
# A throw-away one-node OpenStack Swift ("all in one") with the s3api middleware and tempauth, on a
# folder of the local disk, listening on 127.0.0.1 only: an S3-compatible object store for tests.
#   eval "$(scripts/servers/swift.sh start)"   prints the endpoint and credentials to export
#   scripts/servers/swift.sh stop DIR           stops it and removes the folder
# S3 credentials: access key test:tester, secret testing, region us-east-1, path-style URLs.
set -euo pipefail
[ -x /usr/bin/swift-proxy-server ] || { echo "error: OpenStack Swift is not installed (scripts/bootstrap.sh --dev installs it)" >&2; exit 3; }

case "${1:-}" in
start)
  dir=$(mktemp -d /tmp/soundpack-swift.XXXXXX)
  mkdir -p "$dir/etc" "$dir/node/d1" "$dir/run" "$dir/log"
  read -r proxy account container object < <(/usr/bin/python3 - <<'PY'
import socket
ports = []
socks = []
for _ in range(4):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); ports.append(s.getsockname()[1]); socks.append(s)
print(*ports)
PY
)
  suffix=$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
  cat >"$dir/etc/swift.conf" <<CONF
[swift-hash]
swift_hash_path_suffix = $suffix
swift_hash_path_prefix = soundpack
[storage-policy:0]
name = gold
default = yes
CONF
  common="[DEFAULT]
devices = $dir/node
mount_check = false
bind_ip = 127.0.0.1
swift_dir = $dir/etc
user = $(id -un)
log_name = swift
log_facility = LOG_LOCAL0
workers = 1
disable_fallocate = true"
  for kind in account container object; do
    port=${!kind}
    cat >"$dir/etc/$kind-server.conf" <<CONF
$common
bind_port = $port

[pipeline:main]
pipeline = healthcheck $kind-server

[app:$kind-server]
use = egg:swift#$kind

[filter:healthcheck]
use = egg:swift#healthcheck

[$kind-replicator]
[$kind-auditor]
[$kind-updater]
CONF
  done
  cat >"$dir/etc/proxy-server.conf" <<CONF
$common
bind_port = $proxy

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true

[filter:s3api]
use = egg:swift#s3api
location = us-east-1
dns_compliant_bucket_names = true

[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = testing .admin
# Reads every account, writes none: what a pull request's gate is given.
user_test_reader = reading .reseller_reader

[filter:healthcheck]
use = egg:swift#healthcheck
[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:1
[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:copy]
use = egg:swift#copy
[filter:slo]
use = egg:swift#slo
[filter:dlo]
use = egg:swift#dlo
CONF
  for kind in account container object; do
    port=${!kind}
    (cd "$dir/etc" && swift-ring-builder "$kind.builder" create 6 1 1 >/dev/null \
      && swift-ring-builder "$kind.builder" add "r1z1-127.0.0.1:$port/d1" 100 >/dev/null \
      && swift-ring-builder "$kind.builder" rebalance >/dev/null) || true
    [ -s "$dir/etc/$kind.ring.gz" ] || { echo "error: cannot build the $kind ring" >&2; exit 3; }
  done
  for kind in account container object proxy; do
    setsid "/usr/bin/swift-$kind-server" "$dir/etc/$kind-server.conf" --verbose >"$dir/log/$kind.log" 2>&1 < /dev/null &
    echo $! >"$dir/run/$kind.pid"
  done
  for _ in $(seq 1 100); do
    up=0
    for port in "$proxy" "$account" "$container" "$object"; do
      curl -fsS -o /dev/null "http://127.0.0.1:$port/healthcheck" 2>/dev/null && up=$((up + 1))
    done
    if [ "$up" = 4 ]; then ready=1; break; fi
    sleep 0.2
  done
  [ "${ready:-0}" = 1 ] || { echo "error: Swift did not come up in 20 s; logs in $dir/log" >&2; tail -n 20 "$dir"/log/*.log >&2; "$0" stop "$dir"; exit 3; }
  echo "export SOUNDPACK_TEST_S3_ENDPOINT='http://127.0.0.1:$proxy'"
  echo "export SOUNDPACK_SWIFT_DIR='$dir'"
  echo "export AWS_ACCESS_KEY_ID='test:tester' AWS_SECRET_ACCESS_KEY='testing' AWS_REGION='us-east-1'"
  echo "export SOUNDPACK_TEST_S3_READER='test:reader' SOUNDPACK_TEST_S3_READER_SECRET='reading'"
  ;;
stop)
  dir=${2:?usage: swift.sh stop DIR}
  # Each server was started with setsid and forks its workers: signal its whole process group.
  for pid in "$dir"/run/*.pid; do [ -e "$pid" ] && kill -TERM -- "-$(cat "$pid")" 2>/dev/null || true; done
  for _ in $(seq 1 20); do
    alive=0
    for pid in "$dir"/run/*.pid; do [ -e "$pid" ] && kill -0 -- "-$(cat "$pid")" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for pid in "$dir"/run/*.pid; do [ -e "$pid" ] && kill -KILL -- "-$(cat "$pid")" 2>/dev/null || true; done
  rm -rf "$dir"
  ;;
*)
  echo "usage: scripts/servers/swift.sh start | stop DIR" >&2; exit 2 ;;
esac
