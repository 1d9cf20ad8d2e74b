# Shared settings of scripts/pubsub-start.sh and pubsub-stop.sh (sourced, not run); how
# a server is started, recorded and stopped is scripts/lib/server.sh.
#
# The server is Google's Cloud Pub/Sub emulator from the Google Cloud CLI package
# google-cloud-cli-pubsub-emulator (Google's apt repository). Its launcher,
# cloud-pubsub-emulator, is a shell script that execs java: the recorded PID is the
# JVM's, and stopping its process group stops it.

ps_scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ps_package=google-cloud-cli-pubsub-emulator

server_name="the Cloud Pub/Sub emulator"
server_dir=${DOCKET_PUBSUB_DIR:-/tmp/docket-pubsub}
server_port=${DOCKET_PUBSUB_PORT:-28500}
server_url="pubsub://127.0.0.1:${server_port}?project=docket-test"

# The launcher execs java with the arguments it was given, so both match.
server_command_pattern() { printf '(cloud-pubsub-emulator|java) .*--port=%s( |$)' "$1"; }

# True when GET / answers 200 with the body Ok: the emulator is ready.
server_ready() {
  local reply
  reply=$(server_http_get_root "$1")
  [[ $reply == HTTP/*" 200"* ]] && [[ $(printf '%s' "$reply" | tail -n 1 | tr -d '\r\n ') == Ok ]]
}

# The emulator's launcher as the package installed it, or nothing when it is missing.
ps_launcher() {
  local path
  path=$(dpkg -L "$ps_package" 2>/dev/null | grep '/bin/cloud-pubsub-emulator$' | head -n 1 || true)
  if [ -n "$path" ] && [ -x "$path" ]; then
    printf '%s\n' "$path"
  fi
}

source "$ps_scripts/lib/server.sh"
