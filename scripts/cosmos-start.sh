#!/usr/bin/env bash
# Starts a throwaway Cosmos DB test server (@vercel/cosmosdb-server with docket's patch, in
# memory, over TLS) for docket's tests and prints, on stdout, the store URL to export as
# DOCKET_TEST_COSMOS_URL (also written to $DOCKET_COSMOS_DIR/url):
#
#   export DOCKET_TEST_COSMOS_URL=$(scripts/cosmos-start.sh)
#
# Settings (environment): DOCKET_COSMOS_PORT (default 28700, below Linux's ephemeral
# ports), DOCKET_COSMOS_DIR (default /tmp/docket-cosmos), DOCKET_COSMOS_CACHE (where
# cosmos-install.sh puts the package), DOCKET_COSMOS_UNPATCHED=1 (serve the package without
# docket's patch: only to see the patch's test fail, docs/cosmos.md), DOCKET_COSMOS_TLS=1
# (serve HTTPS; the URL then names the certificate with &ca=; plain HTTP and &tls=off by
# default, docs/cosmos.md says why), DOCKET_COSMOS_KEY (the account's master key, base64,
# that every request must be signed with and the URL carries; default: the Cosmos DB
# emulator's published key), DOCKET_COSMOS_SPLIT_AT (default 0: a partition key range
# holding more than this many items splits when a query next names it, which that query
# meets as 410 Gone; for the test of docket's handling of a split, docs/cosmos.md).
#
# Installs the package first when needed; over TLS makes a self-signed certificate for
# 127.0.0.1 and localhost ($DOCKET_COSMOS_DIR/cert.pem, key.pem; valid 30 days; the
# package's own expired in 2021); runs `node scripts/cosmos/docket-cosmos-server.js ...
# --port PORT` and waits until GET / answers 200 (scripts/lib/server.sh: at most 60 s,
# failing as soon as node exits). Refuses a port something else holds. Idempotent: when this
# directory's server already runs on the port, prints its URL and exits 0. Stop it, by
# PID, with scripts/cosmos-stop.sh.
set -euo pipefail
source "$(dirname "$0")/cosmos-env.sh"

server_check_port DOCKET_COSMOS_PORT
case ${DOCKET_COSMOS_UNPATCHED:-0} in
  0) patch_flag=() ;;
  1) patch_flag=(--unpatched) ;;
  *) server_die "DOCKET_COSMOS_UNPATCHED is '${DOCKET_COSMOS_UNPATCHED}'; set it to 0 or 1" ;;
esac
case $cosmos_tls in
  0 | 1) ;;
  *) server_die "DOCKET_COSMOS_TLS is '${cosmos_tls}'; set it to 0 (plain HTTP) or 1 (HTTPS)" ;;
esac
[[ $cosmos_key =~ ^[A-Za-z0-9+/]+={0,2}$ && $((${#cosmos_key} % 4)) = 0 ]] ||
  server_die "DOCKET_COSMOS_KEY is not a master key in base64 (padded, + and / alphabet)"
[[ ${DOCKET_COSMOS_SPLIT_AT:-0} =~ ^[0-9]{1,9}$ ]] ||
  server_die "DOCKET_COSMOS_SPLIT_AT is '${DOCKET_COSMOS_SPLIT_AT}'; set it to a whole number of items (0: never split)"
command -v curl >/dev/null || server_die "curl is not installed; run scripts/deps.sh"
modules=$("$cosmos_scripts/cosmos-install.sh")
server_begin_start DOCKET_COSMOS_PORT DOCKET_COSMOS_DIR
tls_flags=(--no-tls)
if [ "$cosmos_tls" = 1 ]; then
  command -v openssl >/dev/null || server_die "openssl is not installed; run scripts/deps.sh"
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj /CN=127.0.0.1 \
    -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
    -keyout "$server_dir/key.pem" -out "$cosmos_cert" >/dev/null 2>&1 ||
    server_die "openssl could not make a self-signed certificate in $server_dir"
  tls_flags=(--cert "$cosmos_cert" --key "$server_dir/key.pem")
fi
server_launch "$server_dir" node "$cosmos_pins/docket-cosmos-server.js" --modules "$modules" \
  "${tls_flags[@]}" "${patch_flag[@]}" --master-key "$cosmos_key" \
  --split-range-at "${DOCKET_COSMOS_SPLIT_AT:-0}" --port "$server_port"
