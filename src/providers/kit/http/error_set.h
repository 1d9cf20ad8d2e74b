// ErrorSet: a set of a service's error kinds (an enum of at most 32 enumerators), e.g.
// those a call expects back as values instead of exceptions.
//
// Thread-safety: a plain value.
#ifndef DOCKET_PROVIDERS_KIT_HTTP_ERROR_SET_H_
#define DOCKET_PROVIDERS_KIT_HTTP_ERROR_SET_H_

#include <cstdint>
#include <initializer_list>
#include <type_traits>

namespace docket::kit::http {

template <class Kind>
requires std::is_enum_v<Kind>
class ErrorSet {
 public:
  constexpr ErrorSet() = default;
  constexpr ErrorSet(std::initializer_list<Kind> kinds) {
    for (const Kind kind : kinds) {
      bits_ |= bit(kind);
    }
  }
  constexpr bool contains(Kind kind) const noexcept { return (bits_ & bit(kind)) != 0; }

 private:
  static constexpr std::uint32_t bit(Kind kind) {
    return std::uint32_t{1} << static_cast<unsigned>(kind);
  }
  std::uint32_t bits_ = 0;
};

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_ERROR_SET_H_
