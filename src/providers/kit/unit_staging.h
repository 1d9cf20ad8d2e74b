// The staging half of a unit of work of a store without interactive transactions
// (memory, DynamoDB, Firestore): the WriteSet its writes wait in until commit, whether
// the unit has ended, and its savepoints, forwarded to the set's marks. Every change is
// refused once the unit ended (committed): the writes of an ended unit are gone or
// applied, and staging more would silently drop them.
//
// Thread-safety: belongs to the one thread running the unit of work.
#ifndef DOCKET_PROVIDERS_KIT_UNIT_STAGING_H_
#define DOCKET_PROVIDERS_KIT_UNIT_STAGING_H_

#include <string>
#include <string_view>
#include <utility>

#include "docket/core/error.h"
#include "providers/kit/write_set.h"

namespace docket::kit {

template <class... Kinds>
class UnitStaging {
 public:
  // `unit_name` names the unit in refusals ("memory", "DynamoDB inbox (table ...)");
  // `limits` bound what one commit holds (write_set.h).
  UnitStaging(std::string unit_name, CommitLimits limits)
      : unit_name_(std::move(unit_name)), writes_(std::move(limits)) {}

  // The staged writes. Stage through them only after require_open().
  WriteSet<Kinds...>& writes() noexcept { return writes_; }
  const WriteSet<Kinds...>& writes() const noexcept { return writes_; }

  // Throws InfrastructureError naming the unit and `operation` once the unit ended.
  void require_open(std::string_view operation) const {
    if (ended_) {
      throw InfrastructureError(unit_name_ + " unit of work: cannot " + std::string(operation) +
                                " after commit; open a new unit of work");
    }
  }

  // Ends the unit for its commit: nothing can be staged afterwards. Throws as
  // require_open("commit") when it ended already.
  void end() {
    require_open("commit");
    ended_ = true;
  }
  bool ended() const noexcept { return ended_; }

  void begin_savepoint() {
    require_open("begin a savepoint");
    writes_.begin_savepoint();
  }
  void release_savepoint() {
    require_open("release a savepoint");
    writes_.release_savepoint();
  }
  void rollback_savepoint() {
    require_open("roll back to a savepoint");
    writes_.rollback_savepoint();
  }

 private:
  std::string unit_name_;
  WriteSet<Kinds...> writes_;
  bool ended_ = false;
};

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_UNIT_STAGING_H_
