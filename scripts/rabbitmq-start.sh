#!/usr/bin/env bash
# Starts a throwaway RabbitMQ (Debian's rabbitmq-server) for docket's tests and prints,
# on stdout, the URL to export as DOCKET_TEST_RABBITMQ_URL (also written to
# $DOCKET_RABBITMQ_DIR/url):
#
#   export DOCKET_TEST_RABBITMQ_URL=$(scripts/rabbitmq-start.sh)
#
# Settings (environment): DOCKET_RABBITMQ_PORT (AMQP, default 28200, below Linux's
# ephemeral ports), DOCKET_RABBITMQ_DIST_PORT (Erlang distribution, default AMQP + 1),
# DOCKET_RABBITMQ_EPMD_PORT (its epmd, default AMQP + 2), DOCKET_RABBITMQ_DIR (default
# /tmp/docket-rabbitmq), DOCKET_RABBITMQ_BIN (default /usr/lib/rabbitmq/bin).
#
# Every port listens on 127.0.0.1 alone; node docket-<AMQP port>@localhost; no plugins;
# vhost `docket`, users `docket` (all permissions there) and `docket_limited` (read and
# write, configure nothing), no `guest`; definitions.json defines them, loaded at boot,
# so the broker needs no rabbitmqctl round trip. Waits until the AMQP port answers the
# protocol header (scripts/lib/server.sh: at most 60 s, failing as soon as the broker
# exits); a fresh start takes about 4 s. As root the broker runs as root with HOME in
# $DOCKET_RABBITMQ_DIR (its Erlang cookie is written there, nowhere else). Refuses ports
# something else holds. Idempotent: when this directory's broker already runs on the
# port, prints its URL and exits 0. Stop it, by PID, with scripts/rabbitmq-stop.sh.
set -euo pipefail
source "$(dirname "$0")/rabbitmq-env.sh"

server_check_port DOCKET_RABBITMQ_PORT
if [ ! -x "$rmq_bin/rabbitmq-server" ] || ! command -v epmd >/dev/null; then
  server_die "no RabbitMQ in $rmq_bin; run scripts/deps.sh (Debian package rabbitmq-server)"
fi
server_begin_start DOCKET_RABBITMQ_PORT DOCKET_RABBITMQ_DIR
for extra in "DOCKET_RABBITMQ_DIST_PORT:$rmq_dist_port" "DOCKET_RABBITMQ_EPMD_PORT:$rmq_epmd_port"; do
  if server_port_open "${extra#*:}"; then
    server_die "127.0.0.1:${extra#*:} is already in use by another process; set ${extra%%:*}"
  fi
done

# A fresh node each start: a throwaway broker keeps nothing from an earlier run.
rm -rf "$server_dir/home" "$server_dir/mnesia" "$server_dir/log"
mkdir -p "$server_dir/home" "$server_dir/mnesia" "$server_dir/log"

# RabbitMQ's SHA-256 password hash: base64(salt ++ sha256(salt ++ password)), 4-byte salt.
password_hash() {
  { printf 'dckt' && printf '%s' "$1" | cat <(printf 'dckt') - | openssl dgst -sha256 -binary; } |
    base64 -w0
}
hash=$(password_hash "$rmq_password")
cat >"$server_dir/definitions.json" <<JSON
{
  "users": [
    {"name": "$rmq_user", "password_hash": "$hash",
     "hashing_algorithm": "rabbit_password_hashing_sha256", "tags": ["administrator"]},
    {"name": "$rmq_limited_user", "password_hash": "$hash",
     "hashing_algorithm": "rabbit_password_hashing_sha256", "tags": []}
  ],
  "vhosts": [{"name": "$rmq_vhost"}],
  "permissions": [
    {"user": "$rmq_user", "vhost": "$rmq_vhost", "configure": ".*", "write": ".*", "read": ".*"},
    {"user": "$rmq_limited_user", "vhost": "$rmq_vhost", "configure": "^\$", "write": ".*",
     "read": ".*"}
  ]
}
JSON
cat >"$server_dir/rabbitmq.conf" <<CONF
# docket test broker (scripts/rabbitmq-start.sh)
load_definitions = $server_dir/definitions.json
# Should the empty database's default user be created, it is docket's, not guest.
default_user = $rmq_user
default_pass = $rmq_password
default_vhost = $rmq_vhost
# CI machines' disks are small; the default limit (50 MB) is kept explicitly.
disk_free_limit.absolute = 50MB
log.console = false
log.file.level = info
CONF
printf '[].\n' >"$server_dir/enabled_plugins"
: >"$server_dir/rabbitmq-env.conf"

rmq_environment
# The launched bash starts epmd in the foreground of its process group, waits until it
# answers, then becomes the broker's rabbitmq-server script (scripts/rabbitmq-env.sh).
server_launch "$server_dir" bash -c '
  epmd -port "$ERL_EPMD_PORT" -address 127.0.0.1 &
  for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$ERL_EPMD_PORT") 2>/dev/null && break
    sleep 0.05
  done
  exec "$0/rabbitmq-server" -docket_test_broker "$RABBITMQ_NODE_PORT"' "$rmq_bin"
