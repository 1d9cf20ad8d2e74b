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
# default, docs/cosmos.md says why).
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
  "${tls_flags[@]}" "${patch_flag[@]}" --port "$server_port"
