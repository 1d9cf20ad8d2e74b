// inbox::store_step: runs one step of the inbox's store (begin, record, commit, claim,
// mark) and reports the store's failure as an InboxStoreError, the store's exception
// nested, so that a consumer can tell an outage from a handler's failure
// (docket/inbox/inbox_errors.h says which errors are the store's). Never rewrapped: a
// unique violation (the dispatcher resolves it as a duplicate or propagates it as the
// handler's), a CommitLimitError (the unit the handler staged is too big for one
// commit, whatever the store's health), and invalid input (the handler's writes).
//
// Thread-safety: stateless.
#ifndef DOCKET_INBOX_STORE_STEP_H_
#define DOCKET_INBOX_STORE_STEP_H_

#include <exception>
#include <string>
#include <string_view>

#include "docket/inbox/inbox_errors.h"

namespace docket::inbox {

// `doing` completes "the inbox store failed ...", e.g. "to begin a unit of work".
template <typename Step>
decltype(auto) store_step(std::string_view doing, Step&& step) {
  try {
    return step();
  } catch (const UniqueViolationError&) {
    throw;
  } catch (const InboxStoreError&) {
    throw;
  } catch (const CommitLimitError&) {
    throw;
  } catch (const InfrastructureError& error) {
    std::throw_with_nested(
        InboxStoreError("the inbox store failed " + std::string(doing) + ": " + error.what()));
  } catch (const ConfigurationError& error) {
    std::throw_with_nested(
        InboxStoreError("the inbox store failed " + std::string(doing) + ": " + error.what()));
  }
}

}  // namespace docket::inbox

#endif  // DOCKET_INBOX_STORE_STEP_H_
