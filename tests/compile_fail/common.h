// What every compile-fail case shares: a named message, an unnamed one, and the API.
#ifndef DOCKET_TESTS_COMPILE_FAIL_COMMON_H_
#define DOCKET_TESTS_COMPILE_FAIL_COMMON_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "docket/docket.h"

struct OrderPlaced {
  static constexpr std::string_view kMessageType = "order-placed";
  std::string order_id;
  std::int64_t cents = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlaced, order_id, cents)

struct Unnamed {  // declares no kMessageType, and no MessageTraits names it
  std::string order_id;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Unnamed, order_id)

struct Deposited {
  static constexpr std::string_view kMessageType = "deposited";
  std::int64_t cents = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Deposited, cents)

#endif  // DOCKET_TESTS_COMPILE_FAIL_COMMON_H_
