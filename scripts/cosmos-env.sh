# Shared settings of scripts/cosmos-install.sh, cosmos-start.sh and cosmos-stop.sh
# (sourced, not run); how a server is started, recorded and stopped is scripts/lib/server.sh.
#
# The server is the npm package @vercel/cosmosdb-server 1.0.1 (a Cosmos DB SQL API server
# written for tests), pinned by scripts/cosmos/ (package.json + package-lock.json),
# installed by `npm ci` into $cosmos_cache, outside the tree, and run by node through
# scripts/cosmos/docket-cosmos-server.js, which applies docket's patch (an all-or-nothing
# transactional batch, the 1,023-byte id limit, 404 for a missing item: docs/cosmos.md).
# Over TLS (DOCKET_COSMOS_TLS=1) it serves a self-signed certificate made at start
# ($server_dir/cert.pem), since the package's own expired in 2021; by default it serves
# plain HTTP, as docket's HTTP client cannot yet be told to trust a certificate file
# (docs/cosmos.md).

cosmos_scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cosmos_pins=$cosmos_scripts/cosmos
cosmos_cache=${DOCKET_COSMOS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/docket/cosmosdb-server}

# The account's master key, which the patched server checks every request's signature
# against and the URL carries: DOCKET_COSMOS_KEY (base64), by default Microsoft's published
# key of the Cosmos DB emulator, so that nothing secret is in the tree.
cosmos_key=${DOCKET_COSMOS_KEY:-'C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw=='}
cosmos_key_in_url=$(printf '%s' "$cosmos_key" | sed 's/+/%2B/g; s,/,%2F,g; s/=/%3D/g')

server_name="the Cosmos DB test server (cosmosdb-server)"
server_dir=${DOCKET_COSMOS_DIR:-/tmp/docket-cosmos}
server_port=${DOCKET_COSMOS_PORT:-28700}
cosmos_tls=${DOCKET_COSMOS_TLS:-0}
cosmos_cert=$server_dir/cert.pem
if [ "$cosmos_tls" = 1 ]; then
  server_url="cosmos://127.0.0.1:${server_port}?database=docket-test&key=${cosmos_key_in_url}&ca=${cosmos_cert}"
else
  server_url="cosmos://127.0.0.1:${server_port}?database=docket-test&key=${cosmos_key_in_url}&tls=off"
fi

server_command_pattern() { printf 'docket-cosmos-server\\.js .*--port %s( |$)' "$1"; }

# True once GET / (the account) answers: 200 from the unpatched package, 401 from the
# patched one, which refuses a request without a signature (over TLS: trusting the
# certificate made at start).
server_ready() {
  local url="http://127.0.0.1:$1/" tls=()
  if [ "$cosmos_tls" = 1 ]; then
    url="https://127.0.0.1:$1/"
    tls=(--cacert "$cosmos_cert")
  fi
  case $(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "${tls[@]}" "$url" 2>/dev/null) in
    200 | 401) return 0 ;;
    *) return 1 ;;
  esac
}

# sha256 of the pins: the stamp an install records, so a changed lockfile reinstalls.
cosmos_pins_stamp() {
  cat "$cosmos_pins/package.json" "$cosmos_pins/package-lock.json" | sha256sum | cut -d' ' -f1
}

source "$cosmos_scripts/lib/server.sh"
