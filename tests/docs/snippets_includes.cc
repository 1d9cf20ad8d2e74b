// The include blocks of README.md and docs/headers.md, compiled: each names headers that
// must exist and compile together (tests/docs/check_snippets.cmake finds them here).
//
// Thread-safety: nothing runs.
// clang-format off
#include "docket/docket.h"              // the application-facing API (docs/headers.md)
#include "docket/sqlite/transaction.h"  // a provider's handler transaction
// clang-format on

// clang-format off
#include "docket/docket.h"              // or the layer headers it uses
#include "docket/sqlite/transaction.h"  // the transaction its handlers write through
// clang-format on
