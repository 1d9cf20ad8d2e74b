#!/usr/bin/env bash
# The main job: what `make run` shows a new user. Shows, for the reference terms, the
# keys each document provider would store, the way an operator checks them before an
# upgrade.
set -euo pipefail
docket=${1:-build/bin/docket}

show() {
  printf '%-58s ' "$*"
  "$docket" keys "$@"
}

echo "Keys docket writes (see docs/keys.md):"
show inbox --provider firestore --tenant acme --message-id corp_42 --handler MyApp.Handlers.OrderHandler
show inbox --provider elasticsearch --tenant acme_corp --message-id 42 --handler MyApp.Handlers.OrderHandler
show inbox --provider cosmos --tenant 'acme/eu' --message-id 'order#7' --handler OrderHandler
show stream --provider dynamodb --tenant acme --aggregate-type Order --aggregate-id A-1001
show stream --provider firestore --tenant acme --aggregate-type Order --aggregate-id A-1001 --version 3
show saga --provider firestore --tenant acme --saga-id order_42 --saga-type OrderSaga
show snapshot --provider mongodb --tenant __default__ --aggregate-type Order --aggregate-id A-1001
show legacy-tenant --old-id acme_corp_42_MyApp.Handlers.OrderHandler --message-id 42 --handler MyApp.Handlers.OrderHandler
