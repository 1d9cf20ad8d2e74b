# What scripts/dynamodb-*.sh and scripts/firestore-*.sh share (sourced, not run): a
# throwaway server of docket's tests, started in a session of its own, recorded by PID
# and stopped by that PID's process group, never by name.
#
# The sourcing env script sets, before sourcing:
#   server_name      what messages call it ("DynamoDB Local")
#   server_dir       the directory it lives in         server_port  its TCP port
#   server_url       the store URL tests export
# and defines:
#   server_command_pattern PORT  prints an extended regex that /proc/PID/cmdline (NULs
#                    as spaces) matches for the command launched on PORT: a stale pid
#                    file may name a PID the system has since given to something else
#   server_ready PORT  true once the server answers on 127.0.0.1:PORT
#
# A running server lives entirely in $server_dir:
#   server.pid  the launched PID, which is also its process group's id
#   port        the port it was started on       server.log  its output
#   url         the store URL                     lock        serialises start/stop
# Nothing outside that directory is touched.

server_pid_file=$server_dir/server.pid
server_port_file=$server_dir/port
server_log=$server_dir/server.log
server_url_file=$server_dir/url

# True while PID $1 runs. A zombie (exited, not yet reaped) counts as gone, but not a
# JVM whose main thread has exited while its other threads still shut down: ps shows
# that process as Z too, so its threads are counted.
server_alive() {
  local state tasks
  state=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  if [[ $state != Z* ]]; then
    return 0
  fi
  tasks=$(find "/proc/$1/task" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
  [ "$tasks" -gt 1 ]
}

# The PIDs of process group $1 that still run.
server_group_members() {
  local pid
  for pid in $(ps -e -o pid=,pgid= 2>/dev/null | awk -v g="$1" '$2 == g { print $1 }'); do
    if server_alive "$pid"; then
      printf '%s\n' "$pid"
    fi
  done
}

# True when PID $1 is the server launched for port $2.
server_is_ours() {
  [[ $1 =~ ^[0-9]+$ ]] && [[ $2 =~ ^[0-9]+$ ]] && server_alive "$1" &&
    [ -r "/proc/$1/cmdline" ] &&
    tr '\0' ' ' <"/proc/$1/cmdline" | grep -Eq "$(server_command_pattern "$2")"
}

# The PID recorded in $server_pid_file, or nothing.
server_recorded_pid() {
  cat "$server_pid_file" 2>/dev/null || true
}

# The port recorded in $server_port_file, or nothing.
server_recorded_port() {
  cat "$server_port_file" 2>/dev/null || true
}

# True when something accepts TCP connections on 127.0.0.1:$1.
server_port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The reply of 127.0.0.1:$1 to GET / (status line, headers and body), or nothing.
server_http_get_root() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1" &&
    printf 'GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3 &&
    timeout 2 cat <&3) 2>/dev/null || true
}

# Takes an exclusive lock on $server_dir/lock for the rest of the calling script.
server_lock() {
  exec 9>>"$server_dir/lock"
  if ! flock -w 120 9; then
    printf '%s: another start/stop of %s has held %s for 120 s\n' "$0" "$server_dir" \
      "$server_dir/lock" >&2
    exit 1
  fi
}

server_log_line() { printf '%s: %s\n' "$(basename "$0" .sh)" "$*" >&2; }
server_die() {
  server_log_line "$*"
  exit 1
}

# Refuses a $1 (the variable's name) that is not a TCP port number.
server_check_port() {
  [[ $server_port =~ ^[0-9]+$ ]] && [ "$server_port" -ge 1 ] && [ "$server_port" -le 65535 ] ||
    server_die "$1 is '$server_port'; set it to a TCP port number (1-65535)"
}

# Start, part one: takes the lock; when this directory's server already runs on the
# port, prints its URL and exits 0 (on another port: refuses); refuses a port something
# else holds. $1: the port variable's name, $2: the directory variable's name.
server_begin_start() {
  local pid port
  mkdir -p "$server_dir"
  server_lock
  pid=$(server_recorded_pid)
  port=$(server_recorded_port)
  if server_is_ours "$pid" "$port" && [ "$port" != "$server_port" ]; then
    server_die "the server of $server_dir (pid $pid) runs on port $port, not $server_port;" \
      "stop it with the matching stop script or use another $2"
  fi
  if server_is_ours "$pid" "$port"; then
    printf '%s\n' "$server_url" >"$server_url_file"
    printf '%s\n' "$server_url"
    exit 0
  fi
  rm -f "$server_pid_file" "$server_port_file" "$server_url_file"
  if server_port_open "$server_port"; then
    server_die "127.0.0.1:$server_port is already in use by another process; set $1"
  fi
}

# Start, part two: runs `$2...` in directory $1 as the leader of a new session (so the
# stop signals it and its children together), records its PID, waits until server_ready
# (at most 60 s; fails as soon as it exits, or stops it after 60 s) and prints the URL.
# 9>&-: the server must not inherit (and so hold forever) the lock.
server_launch() {
  local cwd=$1 pid start
  shift
  (cd "$cwd" && exec setsid "$@") >"$server_log" 2>&1 </dev/null 9>&- &
  pid=$!
  printf '%s\n' "$pid" >"$server_pid_file"
  printf '%s\n' "$server_port" >"$server_port_file"
  start=$SECONDS
  until server_ready "$server_port"; do
    if ! server_alive "$pid"; then
      server_log_line "$server_name (pid $pid) exited during start-up; its log ($server_log)" \
        "ends with:"
      tail -n 20 "$server_log" >&2 || true
      rm -f "$server_pid_file" "$server_port_file"
      exit 1
    fi
    if [ $((SECONDS - start)) -ge 60 ]; then
      server_log_line "$server_name (pid $pid) did not answer on 127.0.0.1:$server_port" \
        "within 60 s; stopping it. Its log ($server_log) ends with:"
      tail -n 20 "$server_log" >&2 || true
      server_stop_group "$pid" || true
      exit 1
    fi
    sleep 0.1
  done
  printf '%s\n' "$server_url" >"$server_url_file"
  server_log_line "$server_name (pid $pid) ready at $server_url after $((SECONDS - start)) s"
  printf '%s\n' "$server_url"
}

# Waits up to $2 tenths of a second for process group $1 to be empty.
server_wait_gone() {
  for _ in $(seq 1 "$2"); do
    [ -z "$(server_group_members "$1")" ] && return 0
    sleep 0.1
  done
  [ -z "$(server_group_members "$1")" ]
}

# SIGTERM to process group $1, then SIGKILL after 20 s; fails when it still runs.
server_stop_group() {
  kill -TERM -- "-$1" 2>/dev/null || true
  if ! server_wait_gone "$1" 200; then
    server_log_line "$server_name (group $1) still runs 20 s after SIGTERM; sending SIGKILL"
    kill -KILL -- "-$1" 2>/dev/null || true
    server_wait_gone "$1" 50
  fi
}

# The whole stop script: stops this directory's server, if it runs, by its recorded
# PID's group, then removes $server_dir. Succeeds when there is nothing to stop.
server_stop() {
  local pid
  [ -d "$server_dir" ] || return 0
  server_lock
  pid=$(server_recorded_pid)
  if server_is_ours "$pid" "$(server_recorded_port)"; then
    if ! server_stop_group "$pid"; then
      server_log_line "$server_name (group $pid) is still running; not removing $server_dir"
      return 1
    fi
  fi
  rm -rf "$server_dir"
}
