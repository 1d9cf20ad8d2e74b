# Shared settings of scripts/firestore-start.sh and firestore-stop.sh (sourced, not run).
#
# The server is Google's Cloud Firestore emulator from the Google Cloud CLI package
# google-cloud-cli-firestore-emulator (Google's apt repository). Its launcher,
# cloud_firestore_emulator, is a shell script that runs java as its child, so the
# server is started in a session of its own and stopped as that whole process group.
#
# A running server lives entirely in $DOCKET_FIRESTORE_DIR:
#   server.pid  the launcher's PID, which is also the process group's id
#   port        the port it was started on       server.log  its output
#   url         the store URL                     lock        serialises start/stop
# Nothing outside that directory is touched.

fs_scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fs_package=google-cloud-cli-firestore-emulator
fs_dir=${DOCKET_FIRESTORE_DIR:-/tmp/docket-firestore}
fs_port=${DOCKET_FIRESTORE_PORT:-28100}
fs_pid_file=$fs_dir/server.pid
fs_port_file=$fs_dir/port
fs_log=$fs_dir/server.log
fs_url_file=$fs_dir/url
fs_url="firestore://127.0.0.1:${fs_port}?project=docket-test"

# The emulator's launcher as the package installed it, or nothing when it is missing.
fs_launcher() {
  local path
  path=$(dpkg -L "$fs_package" 2>/dev/null | grep '/cloud_firestore_emulator$' | head -n 1 || true)
  if [ -n "$path" ] && [ -x "$path" ]; then
    printf '%s\n' "$path"
  fi
}

# True while PID $1 runs (a zombie counts as gone).
fs_alive() {
  local state
  state=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  [[ $state != Z* ]]
}

# The PIDs of process group $1 that still run (zombies left out).
fs_group_members() {
  ps -e -o pid=,pgid=,stat= 2>/dev/null | awk -v g="$1" '$2 == g && $3 !~ /^Z/ { print $1 }'
}

# True when PID $1 is the emulator launcher started for port $2: a stale pid file may
# name a PID the system has since given to something else.
fs_is_our_server() {
  [[ $1 =~ ^[0-9]+$ ]] && fs_alive "$1" && [ -r "/proc/$1/cmdline" ] &&
    tr '\0' ' ' <"/proc/$1/cmdline" | grep -q "cloud_firestore_emulator start .*--port=$2\\( \\|\$\\)"
}

# The PID recorded in $fs_pid_file, or nothing.
fs_recorded_pid() {
  cat "$fs_pid_file" 2>/dev/null || true
}

# True when something accepts TCP connections on 127.0.0.1:$1.
fs_port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# True when GET / on 127.0.0.1:$1 answers with the body Ok: the emulator is ready.
fs_ready() {
  local reply
  reply=$( (exec 3<>"/dev/tcp/127.0.0.1/$1" &&
    printf 'GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3 &&
    timeout 2 cat <&3) 2>/dev/null || true)
  [[ $reply == HTTP/*" 200"* ]] && [[ $(printf '%s' "$reply" | tail -n 1 | tr -d '\r\n ') == Ok ]]
}

# Takes an exclusive lock on $fs_dir/lock for the rest of the calling script.
fs_lock() {
  exec 9>>"$fs_dir/lock"
  if ! flock -w 120 9; then
    printf '%s: another start/stop of %s has held %s for 120 s\n' "$0" "$fs_dir" \
      "$fs_dir/lock" >&2
    exit 1
  fi
}
