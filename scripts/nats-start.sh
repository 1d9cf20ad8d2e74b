#!/usr/bin/env bash
# Starts a throwaway NATS server with JetStream (Debian's nats-server) for docket's tests
# and prints, on stdout, the URL to export as DOCKET_TEST_NATS_URL (also written to
# $DOCKET_NATS_DIR/url):
#
#   export DOCKET_TEST_NATS_URL=$(scripts/nats-start.sh)
#
# Settings (environment): DOCKET_NATS_PORT (client port, default 28400, below Linux's
# ephemeral ports), DOCKET_NATS_DIR (default /tmp/docket-nats), DOCKET_NATS_SERVER (the
# nats-server binary, default the one on PATH or /usr/sbin/nats-server).
#
# Listens on 127.0.0.1 alone, no monitoring port; JetStream on (-js) with its store in
# $DOCKET_NATS_DIR/store; users `docket` (everything) and `docket_limited` (publish and
# subscribe, but no stream or consumer created, updated or deleted); no anonymous
# access. A fresh store each start: a throwaway server keeps nothing from an earlier
# run. Waits until the port greets a client (scripts/lib/server.sh: at most 60 s,
# failing as soon as the server exits); a start takes well under a second. Refuses a
# port something else holds. Idempotent: when this directory's server already runs on
# the port, prints its URL and exits 0. Stop it, by PID, with scripts/nats-stop.sh.
set -euo pipefail
source "$(dirname "$0")/nats-env.sh"

server_check_port DOCKET_NATS_PORT
if [ ! -x "$nats_bin" ]; then
  server_die "no nats-server at $nats_bin; run scripts/deps.sh (Debian package nats-server)" \
    "or set DOCKET_NATS_SERVER"
fi
server_begin_start DOCKET_NATS_PORT DOCKET_NATS_DIR

rm -rf "$server_dir/store"
mkdir -p "$server_dir/store"
# The limited user's publish permission denies the JetStream API subjects that create,
# update or delete streams and consumers; reading their info stays allowed.
cat >"$server_dir/nats.conf" <<CONF
# docket test server (scripts/nats-start.sh)
server_name: docket-$server_port
jetstream {
  max_memory_store: 64MB
  max_file_store: 2GB
}
authorization {
  users = [
    {user: "$nats_user", password: "$nats_password"}
    {user: "$nats_limited_user", password: "$nats_password", permissions: {
      publish: {
        allow: [">"]
        deny: ["\$JS.API.STREAM.CREATE.>", "\$JS.API.STREAM.UPDATE.>",
               "\$JS.API.STREAM.DELETE.>", "\$JS.API.STREAM.PURGE.>",
               "\$JS.API.CONSUMER.CREATE.>", "\$JS.API.CONSUMER.DURABLE.CREATE.>",
               "\$JS.API.CONSUMER.DELETE.>"]
      }
      subscribe: {allow: [">"]}
    }}
  ]
}
CONF

server_launch "$server_dir" "$nats_bin" -c "$server_dir/nats.conf" -js -sd "$server_dir/store" \
  -a 127.0.0.1 -p "$server_port" -P "$server_dir/server.pid"
