#!/usr/bin/env bash
# Installs the Cosmos DB test server for docket's tests: `npm ci` of scripts/cosmos/ (npm
# @vercel/cosmosdb-server 1.0.1, pinned with integrity hashes by its package-lock.json)
# into $DOCKET_COSMOS_CACHE (default ~/.cache/docket/cosmosdb-server), outside the tree.
# Skipped when that directory was installed from the same package.json + package-lock.json
# (a stamp holds their sha256). The package's files are never changed: docket's patch is
# applied in memory at start (scripts/cosmos/docket-cosmos-server.js). Prints the
# node_modules folder on stdout.
#
# Needs Node 18 or later and npm (scripts/deps.sh installs them) and the npm registry on
# the first run.
set -euo pipefail
source "$(dirname "$0")/cosmos-env.sh"

log() { printf 'cosmos-install: %s\n' "$*" >&2; }
die() {
  log "$*"
  exit 1
}

command -v node >/dev/null || die "node not found; run scripts/deps.sh (nodejs, npm)"
command -v npm >/dev/null || die "npm not found; run scripts/deps.sh (nodejs, npm)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 18 ] || die "the Cosmos DB test server needs Node 18 or later, found $node_major"

mkdir -p "$cosmos_cache"
# One install at a time: two starts (of two server directories) may share the cache.
exec 8>>"$cosmos_cache/.install-lock"
flock -w 300 8 || die "another install has held $cosmos_cache/.install-lock for 300 s"
want=$(cosmos_pins_stamp)
have=$(cat "$cosmos_cache/.installed-from" 2>/dev/null || true)
modules=$cosmos_cache/node_modules
if [ "$want" != "$have" ] || [ ! -f "$modules/@vercel/cosmosdb-server/lib/index.js" ]; then
  log "installing npm @vercel/cosmosdb-server into $cosmos_cache (npm ci)"
  rm -f "$cosmos_cache/.installed-from"
  cp "$cosmos_pins/package.json" "$cosmos_pins/package-lock.json" "$cosmos_cache/"
  (cd "$cosmos_cache" && npm ci --no-audit --no-fund --loglevel=error >&2)
  [ -f "$modules/@vercel/cosmosdb-server/lib/index.js" ] ||
    die "npm ci left no @vercel/cosmosdb-server/lib/index.js in $modules"
  printf '%s\n' "$want" >"$cosmos_cache/.installed-from"
fi
printf '%s\n' "$modules"
