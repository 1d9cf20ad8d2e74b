# Shared settings of scripts/rabbitmq-start.sh and rabbitmq-stop.sh (sourced, not run);
# how a server is started, recorded and stopped is scripts/lib/server.sh.
#
# The broker is Debian's rabbitmq-server (3.10), run from /usr/lib/rabbitmq/bin with
# every path and port of its own, so that it shares nothing with a system broker:
#   AMQP        127.0.0.1:$DOCKET_RABBITMQ_PORT                (default 28200)
#   Erlang distribution 127.0.0.1:$DOCKET_RABBITMQ_DIST_PORT   (default AMQP + 1)
#   epmd        127.0.0.1:$DOCKET_RABBITMQ_EPMD_PORT           (default AMQP + 2)
# (RabbitMQ's own defaults, 5672, 25672 and 4369, are left alone.) Everything it writes
# is under $server_dir:
#   home/       HOME of the broker and of rabbitmqctl: the Erlang cookie
#   mnesia/     RABBITMQ_MNESIA_BASE (the node's database, queues, quorum logs)
#   log/        RABBITMQ_LOG_BASE
#   rabbitmq.conf, definitions.json, enabled_plugins   written by rabbitmq-start.sh
# The launched process is a bash that starts this broker's own epmd in the foreground
# (so it is in the launched process group, and stopping the group stops it too), waits
# for it, then execs rabbitmq-server, which runs the Erlang VM (beam.smp) as its child.

rmq_scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rmq_bin=${DOCKET_RABBITMQ_BIN:-/usr/lib/rabbitmq/bin}

server_name="RabbitMQ"
server_dir=${DOCKET_RABBITMQ_DIR:-/tmp/docket-rabbitmq}
server_port=${DOCKET_RABBITMQ_PORT:-28200}
rmq_dist_port=${DOCKET_RABBITMQ_DIST_PORT:-$((server_port + 1))}
rmq_epmd_port=${DOCKET_RABBITMQ_EPMD_PORT:-$((server_port + 2))}
rmq_node=docket-${server_port}@localhost

# The broker's users (scripts/rabbitmq-start.sh defines them in definitions.json) and
# vhost. `docket` may do anything in vhost `docket`; `docket_limited` may read and write
# but declare nothing (configure permission "^$"), which is how the tests check what a
# client says about topology it may not declare. A throwaway broker on loopback: the
# password is fixed and not a secret.
rmq_user=docket
rmq_limited_user=docket_limited
rmq_password=docket-test-secret
rmq_vhost=docket
server_url="amqp://${rmq_user}:${rmq_password}@127.0.0.1:${server_port}/${rmq_vhost}"

# The launched PID stays the rabbitmq-server shell script (it runs the VM as its child and
# turns SIGTERM into a clean shutdown); rabbitmq-start.sh passes it the plain argument
# `-docket_test_broker PORT`, which the VM ignores and this pattern recognises.
server_command_pattern() { printf 'rabbitmq-server -docket_test_broker %s( |$)' "$1"; }

# True once 127.0.0.1:$1 answers AMQP's protocol header with a frame (type 1, the
# method frame carrying connection.start): the broker has booted and its listener,
# which it opens last, accepts clients.
server_ready() {
  local first
  first=$( (exec 3<>"/dev/tcp/127.0.0.1/$1" && printf 'AMQP\x00\x00\x09\x01' >&3 &&
    timeout 2 head -c 1 <&3 | od -An -tu1 | tr -d ' ') 2>/dev/null || true)
  [ "$first" = 1 ]
}

# The environment of every rabbitmq-server and rabbitmqctl run of this broker.
rmq_environment() {
  export HOME=$server_dir/home
  export RABBITMQ_NODENAME=$rmq_node
  export RABBITMQ_NODE_IP_ADDRESS=127.0.0.1
  export RABBITMQ_NODE_PORT=$server_port
  export RABBITMQ_DIST_PORT=$rmq_dist_port
  export ERL_EPMD_PORT=$rmq_epmd_port
  export ERL_EPMD_ADDRESS=127.0.0.1
  export RABBITMQ_MNESIA_BASE=$server_dir/mnesia
  export RABBITMQ_LOG_BASE=$server_dir/log
  export RABBITMQ_CONFIG_FILE=$server_dir/rabbitmq.conf
  export RABBITMQ_ADVANCED_CONFIG_FILE=$server_dir/advanced.config
  export RABBITMQ_ENABLED_PLUGINS_FILE=$server_dir/enabled_plugins
  export RABBITMQ_CONF_ENV_FILE=$server_dir/rabbitmq-env.conf
  export RABBITMQ_PID_FILE=$server_dir/rabbitmq.pid
  # Distribution listens on loopback alone; the VM starts no epmd of its own.
  export RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1} -start_epmd false"
  export RABBITMQ_CTL_ERL_ARGS="-start_epmd false"
}

source "$rmq_scripts/lib/server.sh"
