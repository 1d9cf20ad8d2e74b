// InPlace: a value built where a container stores it. emplace_back(InPlace{make})
// converts InPlace to make()'s result inside the container's storage, so the value
// make() returns is constructed there, instead of being built as a temporary and moved
// in (a move that costs as much as the copy of a few strings for a large aggregate
// such as RecordedEvent, once per loaded event).
//
// Internal to docket. Thread-safety: as `Make`'s.
#ifndef DOCKET_SRC_CORE_IN_PLACE_H_
#define DOCKET_SRC_CORE_IN_PLACE_H_

#include <type_traits>

namespace docket::core {

template <class Make>
struct InPlace {
  Make make;

  // Implicit by design: the container's placement construction calls it.
  operator std::invoke_result_t<Make&>() { return make(); }  // NOLINT(google-explicit-constructor)
};

template <class Make>
InPlace(Make) -> InPlace<Make>;

}  // namespace docket::core

#endif  // DOCKET_SRC_CORE_IN_PLACE_H_
