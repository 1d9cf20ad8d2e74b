# Shared settings of scripts/pg-start.sh and scripts/pg-stop.sh (sourced, not run).
#
# The throwaway cluster lives entirely in $DOCKET_PG_DIR:
#   data/    the cluster (initdb), owned by the user the server runs as
#   socket/  its unix socket directory
#   log      the server log
#   url      the URL to export as DOCKET_TEST_POSTGRES_URL
#   lock     serialises concurrent start/stop of this one cluster
# Nothing outside that directory is touched; a system cluster on 5432 is left alone.

pg_bin=${DOCKET_PG_BIN:-/usr/lib/postgresql/15/bin}
pg_dir=${DOCKET_PG_DIR:-/tmp/docket-pg}
pg_port=${DOCKET_PG_PORT:-55432}
pg_data=$pg_dir/data
pg_socket=$pg_dir/socket
pg_log=$pg_dir/log
pg_url_file=$pg_dir/url
pg_url="postgresql://docket@127.0.0.1:${pg_port}/docket"

# initdb and postgres refuse to run as root: as root, every server-side command runs as
# the `postgres` OS user (created by Debian's postgresql package); otherwise as the
# current user.
if [ "$(id -u)" -eq 0 ]; then
  pg_owner=postgres
  as_owner() { runuser -u postgres -- "$@"; }
else
  pg_owner=$(id -un)
  as_owner() { "$@"; }
fi

# True when the cluster in $pg_data has a live postmaster.
pg_running() {
  [ -f "$pg_data/postmaster.pid" ] && as_owner "$pg_bin/pg_ctl" status -D "$pg_data" >/dev/null 2>&1
}

# Takes an exclusive lock on $pg_dir/lock for the rest of the calling script.
pg_lock() {
  exec 9>>"$pg_dir/lock"
  if ! flock -w 120 9; then
    printf '%s: another start/stop of %s has held %s for 120 s\n' "$0" "$pg_dir" \
      "$pg_dir/lock" >&2
    exit 1
  fi
}
