// docket::firestore::Transaction: each write staged in the unit of work underneath
// (firestore_unit.h), which checks it and sends it at commit.
#include <utility>

#include "docket/firestore/transaction.h"
#include "providers/firestore/firestore_unit.h"

namespace docket::firestore {

void Transaction::create(std::string_view collection, std::string_view id, nlohmann::json fields) {
  unit_->create(collection, id, std::move(fields));
}

void Transaction::set(std::string_view collection, std::string_view id, nlohmann::json fields,
                      std::optional<Condition> condition) {
  unit_->set(collection, id, std::move(fields), condition);
}

void Transaction::update(std::string_view collection, std::string_view id, nlohmann::json fields,
                         Condition condition) {
  unit_->update(collection, id, std::move(fields), condition);
}

void Transaction::remove(std::string_view collection, std::string_view id,
                         std::optional<Condition> condition) {
  unit_->remove(collection, id, condition);
}

void Transaction::check(std::string_view collection, std::string_view id, Condition condition) {
  unit_->check(collection, id, condition);
}

std::optional<DocumentRead> Transaction::get(std::string_view collection,
                                             std::string_view id) const {
  return unit_->get(collection, id);
}

}  // namespace docket::firestore
