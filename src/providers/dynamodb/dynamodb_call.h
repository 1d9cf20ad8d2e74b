// One DynamoDB operation as the client sends it (Call) and what comes back (Response).
//
// Replay (kit/http/replay.h) is the caller's promise about sending the request twice.
// The client repeats a request that was provably not applied (throttled, or the
// connection never made) whatever the promise; it repeats a request that may have been
// applied (a server error, a timeout or broken connection after sending) only when
// replay is kSafe. kUnsafe: an UpdateItem that adds, a conditional put whose second try
// would report a duplicate that was its own first. kSafe: reads (GetItem, Query,
// DescribeTable), a whole-item put or delete that is the same each time,
// TransactWriteItems with a ClientRequestToken (DynamoDB applies one token once within
// ten minutes).
//
// Thread-safety: plain values.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CALL_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CALL_H_

#include <string_view>

#include "providers/dynamodb/dynamodb_service_error.h"
#include "providers/kit/http/json_response.h"
#include "providers/kit/http/replay.h"

namespace docket::dynamodb::detail {

using Replay = kit::http::Replay;

struct Call {
  std::string_view operation{};  // "PutItem": the X-Amz-Target is DynamoDB_20120810.<operation>
  std::string_view table{};      // for messages; empty when the operation names none
  Replay replay = Replay::kUnsafe;
  // Error kinds handed back as a Response instead of thrown: a condition that did not
  // hold is an outcome for the caller to act on.
  ErrorKinds expected{ErrorKind::kConditionalCheckFailed, ErrorKind::kTransactionCanceled};
};

// The parsed answer of a successful call, or an error of a kind the call expected.
using Response = kit::http::JsonResponse<ServiceError>;

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CALL_H_
