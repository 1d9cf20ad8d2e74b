// dispatch_batch on a document provider's server, counted in requests, the same cases
// on every such provider (DynamoDB Local, the Firestore emulator): a batch is segmented
// (UnitOfWork::defer_segments), so its dedup records are read with one batched read (as
// many ids a request as the provider takes) and its messages committed with one commit
// per unit of at most the provider's writes. A message recorded already is skipped
// without its handler running, and a concurrent delivery that records a key between the
// read and the commit refuses the commit, which the dispatcher runs again: that message
// a duplicate, every other one processed once.
//
// Each provider's test file implements a BatchInbox on its server and instantiates the
// cases (InboxBatch, value-parameterized over an InboxBatchCase):
//   INSTANTIATE_TEST_SUITE_P(DynamoDb, InboxBatch, ::testing::Values(InboxBatchCase{...}));
#ifndef DOCKET_TESTS_DOCUMENT_INBOX_BATCH_CASES_H_
#define DOCKET_TESTS_DOCUMENT_INBOX_BATCH_CASES_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>

#include "docket/core/handler_transaction.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_store.h"

namespace docket::document_tests {

// One provider's inbox under a prefix of its own on its test server (deleted with it),
// with an application table or collection of orders for handlers to write to.
class BatchInbox {
 public:
  using Handler = std::function<void(const Envelope&, HandlerTransaction&)>;

  virtual ~BatchInbox() = default;

  // A dispatcher for consumer "billing" whose "note" handler (inbox_note.h) runs
  // `handler` in the provider's transaction.
  virtual InboxDispatcher dispatcher(Handler handler) = 0;
  // Another inbox store on the same database: a concurrent delivery's.
  virtual std::unique_ptr<InboxStore> open_other_store() const = 0;
  // Writes the order `id` through the provider's transaction `tx`.
  virtual void put_order(HandlerTransaction& tx, const std::string& id) const = 0;
  // The orders and the dedup records committed, read consistently.
  virtual std::size_t orders() const = 0;
  virtual std::size_t dedup_records() const = 0;
};

// One provider's case: its inbox, and the one expectation in which providers differ, how
// a batch larger than one read or one commit splits.
struct InboxBatchCase {
  std::function<std::unique_ptr<BatchInbox>()> make;
  int large_batch = 0;                     // new messages in one batch
  std::uint64_t large_batch_requests = 0;  // the requests it takes
  std::string large_batch_split;           // which ones, for the failure message
};

void PrintTo(const InboxBatchCase& batch_case, std::ostream* os);

// Every case runs on a fresh inbox from the parameter's factory, and counts its
// handler's runs per message id.
class InboxBatch : public ::testing::TestWithParam<InboxBatchCase> {
 protected:
  // A dispatcher whose handler puts one order per message, named by its id, and counts
  // its runs per message id.
  InboxDispatcher counting_dispatcher();

  // Dispatches one message first, so that what the store reads once (table
  // descriptions) is read before a count starts.
  void warm_up(const InboxDispatcher& inbox);

  std::unique_ptr<BatchInbox> inbox_ = GetParam().make();
  std::map<std::string, int> runs_;
};

}  // namespace docket::document_tests

#endif  // DOCKET_TESTS_DOCUMENT_INBOX_BATCH_CASES_H_
