// docs/claim-inbox.md's C++ blocks, compiled (tests/docs/check_snippets.cmake), in
// functions that declare what they use (a mailer, the invoice of a message, a received
// batch). Compiled only: nothing here runs.
//
// Thread-safety: nothing runs.
#include <chrono>
#include <cstddef>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "docket/docket.h"

namespace docs_claim_inbox {

struct Invoice {
  std::string order;
};
struct Mailer {
  void send(const Invoice& invoice);
};
Invoice invoice_for(const docket::Envelope& envelope);
std::vector<std::string_view> message_ids(const std::vector<docket::Envelope>& batch);
void log_failure(std::exception_ptr error);

void run_one(Mailer& mailer, const docket::Envelope& envelope) {
  // clang-format off
#include <docket/inbox/claim_runner.h>
#include <docket/stores/open_store.h>

auto store = docket::open_claim_inbox_store("sqlite:///var/lib/app/app.db");
const docket::ClaimRunner runner(*store, docket::ClaimRunnerOptions("billing.SendInvoiceEmail", {
    .lease = std::chrono::seconds(30), .backoff_base = std::chrono::seconds(1),
    .backoff_cap = std::chrono::minutes(10), .jitter = 0.2}));

// For every delivery, under the message's tenant scope:
switch (runner.run(envelope.message_id, [&] { mailer.send(invoice_for(envelope)); })) {
  case docket::ClaimRunOutcome::kProcessed:         // sent, entry processed: acknowledge
  case docket::ClaimRunOutcome::kAlreadyProcessed:  // a redelivery: acknowledge
    break;
  case docket::ClaimRunOutcome::kHeldByAnother:     // another worker has it: redeliver later
    break;
  case docket::ClaimRunOutcome::kSuperseded:        // ran past its lease and was taken over
    break;
  case docket::ClaimRunOutcome::kFailed:            // only run_batch reports it; run() rethrows
    break;
}
  // clang-format on
}

void run_batch(Mailer& mailer, const docket::ClaimRunner& runner,
               const std::vector<docket::Envelope>& batch) {
  // clang-format off
std::vector<std::string_view> ids = message_ids(batch);  // the batch's message ids, each once
for (const docket::ClaimBatchRun& run :
     runner.run_batch(ids, [&](std::size_t i) { mailer.send(invoice_for(batch[i])); })) {
  // run.outcome as run() returns it, or kFailed: the handler threw (run.error holds
  // its exception), and the entry is marked failed with backoff
  if (run.outcome == docket::ClaimRunOutcome::kFailed) log_failure(run.error);
}
  // clang-format on
}

}  // namespace docs_claim_inbox
