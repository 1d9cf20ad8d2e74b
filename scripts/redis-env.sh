# Shared settings of scripts/redis-start.sh and redis-stop.sh (sourced, not run); how a
# server is started, recorded and stopped is scripts/lib/server.sh.
#
# The server is Debian's redis-server (7.0), run with every path and port of its own so
# that it shares nothing with a system Redis:
#   clients     127.0.0.1:$DOCKET_REDIS_PORT   (default 28600; Redis's own 6379 is left alone)
#   a password (requirepass), no other listener, protected mode on
# Everything it writes is under $server_dir (DOCKET_REDIS_DIR, default /tmp/docket-redis):
#   redis.conf  its settings, written by redis-start.sh
#   data/       its working directory: the append-only file (appendonly yes,
#               appendfsync always: every acknowledged write is fsynced first, the
#               setting docket's durability claim on Redis depends on, docs/redis.md)
#   server.pid  written by the launch and again by redis-server itself (pidfile)
# The launched process is redis-server itself, in the foreground of a session of its
# own (daemonize no), so that the PID recorded is the server's.

redis_scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
redis_bin=${DOCKET_REDIS_SERVER:-$(command -v redis-server || echo /usr/bin/redis-server)}

server_name="Redis server"
server_dir=${DOCKET_REDIS_DIR:-/tmp/docket-redis}
server_port=${DOCKET_REDIS_PORT:-28600}

# A throwaway server on loopback: the password is fixed and not a secret.
redis_password=docket-test-secret
server_url="redis://:${redis_password}@127.0.0.1:${server_port}/0"

# The command line redis-start.sh launches, as /proc/PID/cmdline shows it: Redis
# rewrites its process title to "redis-server 127.0.0.1:PORT", so the title is matched.
server_command_pattern() {
  printf '^[^ ]*redis-server 127\\.0\\.0\\.1:%s( |$)' "$1"
}

# True once 127.0.0.1:$1 answers an unauthenticated PING with Redis's -NOAUTH error (a
# password is required), which it sends only once it has loaded its data and accepts
# commands.
server_ready() {
  local first
  first=$( (exec 3<>"/dev/tcp/127.0.0.1/$1" && printf 'PING\r\n' >&3 &&
    timeout 2 head -c 7 <&3) 2>/dev/null || true)
  [ "$first" = "-NOAUTH" ]
}

source "$redis_scripts/lib/server.sh"
