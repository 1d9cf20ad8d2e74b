# Shared settings of scripts/nats-start.sh and nats-stop.sh (sourced, not run); how a
# server is started, recorded and stopped is scripts/lib/server.sh.
#
# The server is Debian's nats-server (2.9) with JetStream on, run with every path and
# port of its own so that it shares nothing with a system NATS:
#   clients     127.0.0.1:$DOCKET_NATS_PORT    (default 28400; NATS's own 4222 is left alone)
#   no monitoring port, no cluster, no leaf or gateway listener
# Everything it writes is under $server_dir (DOCKET_NATS_DIR, default /tmp/docket-nats):
#   nats.conf   its users and JetStream limits, written by nats-start.sh
#   store/      JetStream's store directory (-sd): streams, consumers, their state
#   server.pid  written by the launch and again by nats-server itself (-P), so that a
#               server restarted in place with the same command line (the tests'
#               and `docket chaos --allow-broker-restart`'s restarts, nats_local_server.h,
#               started in a session of its own) is the one nats-stop.sh stops
# The launched process is nats-server itself.

nats_scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
nats_bin=${DOCKET_NATS_SERVER:-$(command -v nats-server || echo /usr/sbin/nats-server)}

server_name="NATS server"
server_dir=${DOCKET_NATS_DIR:-/tmp/docket-nats}
server_port=${DOCKET_NATS_PORT:-28400}

# The server's users (nats-start.sh writes them into nats.conf). `docket` may do
# anything; `docket_limited` may publish and subscribe but neither create, update nor
# delete a stream or a consumer (its publish permission denies those JetStream API
# subjects), which is how the tests check what a client says about a stream or a
# consumer it may not declare. A throwaway server on loopback: the password is fixed
# and not a secret.
nats_user=docket
nats_limited_user=docket_limited
nats_password=docket-test-secret
server_url="nats://${nats_user}:${nats_password}@127.0.0.1:${server_port}"

# The command line nats-start.sh launches, as /proc/PID/cmdline shows it (NULs as
# spaces): the port is part of it, and so is this directory's config file.
server_command_pattern() {
  printf '^[^ ]*nats-server -c %s/nats\\.conf -js -sd %s/store -a 127\\.0\\.0\\.1 -p %s -P ' \
    "$server_dir" "$server_dir" "$1"
}

# True once 127.0.0.1:$1 greets a client with NATS's INFO line, which the server sends
# once its client listener, opened after JetStream is up, accepts connections.
server_ready() {
  local first
  first=$( (exec 3<>"/dev/tcp/127.0.0.1/$1" && timeout 2 head -c 4 <&3) 2>/dev/null || true)
  [ "$first" = INFO ]
}

source "$nats_scripts/lib/server.sh"
