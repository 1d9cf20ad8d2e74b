#!/usr/bin/env bash
# Starts a throwaway Redis server (Debian's redis-server 7.0) for docket's tests and
# prints, on stdout, the URL to export as DOCKET_TEST_REDIS_URL (also written to
# $DOCKET_REDIS_DIR/url):
#
#   export DOCKET_TEST_REDIS_URL=$(scripts/redis-start.sh)
#
# Settings (environment): DOCKET_REDIS_PORT (client port, default 28600, below Linux's
# ephemeral ports), DOCKET_REDIS_DIR (default /tmp/docket-redis), DOCKET_REDIS_SERVER
# (the redis-server binary, default the one on PATH or /usr/bin/redis-server),
# DOCKET_REDIS_APPENDFSYNC (always, the default; everysec or no, to see what a server
# that does not fsync every write gives: `docket chaos --allow-server-restart`),
# DOCKET_REDIS_REPLICA_OF (HOST:PORT of another test server: this one starts as its
# replica, for the tests of the URL's replicas= option).
#
# Listens on 127.0.0.1 alone, with a password (requirepass); persistence is the
# append-only file with appendfsync always (every write fsynced before it is
# acknowledged) unless DOCKET_REDIS_APPENDFSYNC says otherwise and no RDB snapshots, so what the tests measure is the durable
# configuration docs/redis.md describes. A fresh data directory each start: a throwaway
# server keeps nothing from an earlier run. Waits until the port answers (scripts/lib/
# server.sh: at most 60 s, failing as soon as the server exits); a start takes well
# under a second. Refuses a port something else holds. Idempotent: when this
# directory's server already runs on the port, prints its URL and exits 0. Stop it, by
# PID, with scripts/redis-stop.sh.
set -euo pipefail
source "$(dirname "$0")/redis-env.sh"

server_check_port DOCKET_REDIS_PORT
appendfsync=${DOCKET_REDIS_APPENDFSYNC:-always}
case "$appendfsync" in
  always | everysec | no) ;;
  *) server_die "DOCKET_REDIS_APPENDFSYNC='$appendfsync': give always, everysec or no" ;;
esac
if [ ! -x "$redis_bin" ]; then
  server_die "no redis-server at $redis_bin; run scripts/deps.sh (Debian package redis-server)" \
    "or set DOCKET_REDIS_SERVER"
fi
server_begin_start DOCKET_REDIS_PORT DOCKET_REDIS_DIR

rm -rf "$server_dir/data"
mkdir -p "$server_dir/data"
cat >"$server_dir/redis.conf" <<CONF
# docket test server (scripts/redis-start.sh)
bind 127.0.0.1
port $server_port
protected-mode yes
requirepass $redis_password
daemonize no
pidfile $server_dir/server.pid
dir $server_dir/data
logfile ""
save ""
appendonly yes
appendfsync $appendfsync
# A replica (DOCKET_REDIS_REPLICA_OF) gets its first copy at once, not 5 s later.
repl-diskless-sync-delay 0
CONF
if [ -n "${DOCKET_REDIS_REPLICA_OF:-}" ]; then
  case "$DOCKET_REDIS_REPLICA_OF" in
    *:*) ;;
    *) server_die "DOCKET_REDIS_REPLICA_OF='$DOCKET_REDIS_REPLICA_OF': give HOST:PORT" ;;
  esac
  printf 'replicaof %s %s\nmasterauth %s\n' "${DOCKET_REDIS_REPLICA_OF%:*}" \
    "${DOCKET_REDIS_REPLICA_OF##*:}" "$redis_password" >>"$server_dir/redis.conf"
fi

server_launch "$server_dir" "$redis_bin" "$server_dir/redis.conf"
