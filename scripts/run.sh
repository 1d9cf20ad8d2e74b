#!/usr/bin/env bash
# The main job: what `make run` shows a new user. First `docket demo`: 1000 orders
# through the outbox, a relay and a transport that loses acknowledgements, duplicates
# and reorders messages, into an inbox, on an embedded SQLite file in a temporary
# directory; it exits non-zero unless every order was invoiced exactly once. Then a
# short tour of the keys docket writes, and one key a provider refuses.
set -euo pipefail
docket=${1:-build/bin/docket}

echo '$ docket demo --orders 1000 --faults heavy'
"$docket" demo --orders 1000 --faults heavy
echo

show() {
  printf '$ docket keys %s\n' "$*"
  "$docket" keys "$@"
  echo
}

echo "Keys docket writes (see docs/keys.md):"
echo
show inbox --provider firestore --tenant acme --message-id corp_42 --handler MyApp.Handlers.OrderHandler
show inbox --provider cosmos --tenant 'acme/eu' --message-id 'order#7' --handler OrderHandler
show stream --provider dynamodb --tenant acme --aggregate-type Order --aggregate-id A-1001
show stream --provider firestore --tenant acme --aggregate-type Order --aggregate-id A-1001 --version 3
show saga --provider dynamodb --tenant acme --saga-id order_42 --saga-type OrderSaga --json
show legacy-tenant --old-id acme_corp_42_MyApp.Handlers.OrderHandler --message-id 42 --handler MyApp.Handlers.OrderHandler

# The reference case a provider refuses: a GUID tenant and message id with the .NET
# assembly-qualified name of Dictionary<string, List<string>> as handler type.
handler='System.Collections.Generic.Dictionary`2[[System.String, System.Private.CoreLib, Version=10.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e],[System.Collections.Generic.List`1[[System.String, System.Private.CoreLib, Version=10.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e]], System.Private.CoreLib, Version=10.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e]], System.Private.CoreLib, Version=10.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e'
long=(inbox --tenant 3f2504e0-4f89-41d3-9a0c-0305e82c3301
      --message-id 9b2d1c7a-6e04-4f3b-8a51-2c9e7d0f4b16 --handler "$handler")
echo "The same long terms (a 477-character handler type) on two providers:"
echo
json=$("$docket" keys "${long[@]}" --provider firestore --json)
field() { grep -o "\"$1\":[0-9]*" <<<"$json" | cut -d: -f2; }
printf '$ docket keys inbox --provider firestore ... --json\n'
echo "accepted: $(field bytes) bytes, Firestore's limit is $(field limit)"
echo
printf '$ docket keys inbox --provider elasticsearch ...\n'
status=0
"$docket" keys "${long[@]}" --provider elasticsearch 2>&1 || status=$?
if [ "$status" -ne 1 ]; then
  echo "expected Elasticsearch to refuse the 665-byte id (exit 1), got exit $status" >&2
  exit 1
fi
echo "(exit $status: refused, nothing truncated)"
