// The fields of one hash docket stored (HGETALL's name, value, ... pairs), read by name
// with checks: a field docket always writes that is missing, or a number that does
// not parse, is an InfrastructureError naming the store, the record and the field (a
// hash changed outside docket), never a silent default. Times are Unix microseconds in
// decimal, as every Redis store writes them.
//
// Thread-safety: a value; const members may be called from many threads.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_HASH_FIELDS_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_HASH_FIELDS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "docket/core/clock.h"

namespace docket::redis::detail {

class HashFields {
 public:
  // `record` names what the hash holds in refusals: "the outbox message", to which
  // the value of the field `id_field` is added ("the outbox message 'id'").
  HashFields(std::span<const std::string> pairs, std::string_view store, std::string_view record,
             std::string_view id_field);

  bool empty() const noexcept { return values_.empty(); }
  std::optional<std::string> optional(std::string_view name) const;
  std::string text(std::string_view name) const;
  std::int64_t integer(std::string_view name) const;
  std::optional<std::int64_t> optional_integer(std::string_view name) const;
  Timestamp time(std::string_view name) const;
  std::optional<Timestamp> optional_time(std::string_view name) const;

  // Throws the InfrastructureError described above, `what` saying what is wrong with
  // the field ("is missing").
  [[noreturn]] void refuse(std::string_view name, const std::string& what) const;

 private:
  std::string describe() const;

  std::string_view store_;
  std::string_view record_;
  std::string_view id_field_;
  std::map<std::string, std::string, std::less<>> values_;
};

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_HASH_FIELDS_H_
