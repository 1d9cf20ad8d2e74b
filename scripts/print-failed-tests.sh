#!/usr/bin/env bash
# Prints, last, what each failed test of a ctest run wrote: ctest's own report of a
# failure is far up a long log, and a CI page shows its tail.
#   scripts/print-failed-tests.sh BUILD_DIR
set -uo pipefail
log="$1/Testing/Temporary/LastTest.log"
failed="$1/Testing/Temporary/LastTestsFailed.log"
[[ -f "$failed" && -f "$log" ]] || exit 0
printf '\n==> what the failed tests in %s printed\n' "$1"
while IFS=: read -r number name; do
  printf '\n---- %s\n' "$name"
  # The test's block: from its "N/M Testing:" line to the line after its verdict.
  awk -v n="$number" '
    $0 ~ "^" n "/[0-9]+ Testing: " { on = 1 }
    on { print }
    on && /^Test (Passed|Failed)|^Test time/ && done_ { exit }
    on && /^<end of output>/ { done_ = 1 }
  ' "$log" | head -n 100
done < "$failed"
