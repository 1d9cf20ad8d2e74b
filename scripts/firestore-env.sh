# Shared settings of scripts/firestore-start.sh and firestore-stop.sh (sourced, not run);
# how a server is started, recorded and stopped is scripts/lib/server.sh.
#
# The server is Google's Cloud Firestore emulator from the Google Cloud CLI package
# google-cloud-cli-firestore-emulator (Google's apt repository). Its launcher,
# cloud_firestore_emulator, is a shell script that runs java as its child: stopping the
# launcher's process group stops both.

fs_scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fs_package=google-cloud-cli-firestore-emulator

server_name="the Cloud Firestore emulator"
server_dir=${DOCKET_FIRESTORE_DIR:-/tmp/docket-firestore}
server_port=${DOCKET_FIRESTORE_PORT:-28100}
server_url="firestore://127.0.0.1:${server_port}?project=docket-test"

server_command_pattern() { printf 'cloud_firestore_emulator start .*--port=%s( |$)' "$1"; }

# True when GET / answers 200 with the body Ok: the emulator is ready.
server_ready() {
  local reply
  reply=$(server_http_get_root "$1")
  [[ $reply == HTTP/*" 200"* ]] && [[ $(printf '%s' "$reply" | tail -n 1 | tr -d '\r\n ') == Ok ]]
}

# The emulator's launcher as the package installed it, or nothing when it is missing.
fs_launcher() {
  local path
  path=$(dpkg -L "$fs_package" 2>/dev/null | grep '/cloud_firestore_emulator$' | head -n 1 || true)
  if [ -n "$path" ] && [ -x "$path" ]; then
    printf '%s\n' "$path"
  fi
}

source "$fs_scripts/lib/server.sh"
