#!/bin/sh
# Runs an example program (its path: $1) against the PostgreSQL test server, in a schema
# of its own created for the run and dropped after it, so that what the example leaves
# (its tables, its outbox's unpublished messages) reaches no other test. The example gets
# DOCKET_TEST_POSTGRES_URL with that schema as its search_path: only the URL differs from
# its SQLite run. Fails, naming the variable, when DOCKET_TEST_POSTGRES_URL is unset.
set -eu
program=$1
url=${DOCKET_TEST_POSTGRES_URL:-}
if [ -z "$url" ]; then
  echo "set DOCKET_TEST_POSTGRES_URL to a PostgreSQL URL (scripts/pg-start.sh prints one)" >&2
  exit 1
fi
schema="docket_example_$(basename "$program")_$$"
psql -q -v ON_ERROR_STOP=1 "$url" -c "CREATE SCHEMA $schema"
trap 'psql -q "$url" -c "DROP SCHEMA $schema CASCADE" >/dev/null 2>&1 || true' EXIT
case "$url" in
  *\?*) separator='&' ;;
  *) separator='?' ;;
esac
"$program" "${url}${separator}options=-csearch_path%3D${schema}"
