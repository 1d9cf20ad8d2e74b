// Param: one statement parameter, bound without copying the caller's bytes.
//
// Every parameter is sent in binary format with an explicit type, so the server never
// guesses: a string binds as `text` (its bytes as they are; no terminating NUL needed,
// so a std::string_view is passed through), an integer as `int8` (8 big-endian bytes kept
// inside the Param), a bool as `boolean`, bytes as `bytea`. Where SQL wants another type,
// cast in the statement (`$1::timestamptz`, `$2::uuid`). NULL is typed too: an empty
// std::optional<T> binds a NULL of T's type; std::nullopt binds an untyped NULL the
// server infers from context.
//
// Invariant: a Param built from a string_view or byte span points into the caller's
// memory, which must outlive the statement call; nothing else is borrowed.
// Thread-safety: a value type; immutable after construction.
#ifndef DOCKET_PROVIDERS_POSTGRES_PARAM_H_
#define DOCKET_PROVIDERS_POSTGRES_PARAM_H_

#include <libpq-fe.h>

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/sql_transaction.h"
#include "docket/postgres/transaction.h"

namespace docket::postgres::detail {

// Type OIDs of the built-in types parameters bind as (pg_type.oid; stable since 1996).
namespace type_oid {
inline constexpr Oid kUnknown = 0;  // let the server infer the type from context
inline constexpr Oid kBoolean = 16;
inline constexpr Oid kBytea = 17;
inline constexpr Oid kInt8 = 20;
inline constexpr Oid kText = 25;
inline constexpr Oid kFloat8 = 701;
inline constexpr Oid kTimestamptz = 1184;
inline constexpr Oid kUuid = 2950;
inline constexpr Oid kByteaArray = 1001;
inline constexpr Oid kTextArray = 1009;
inline constexpr Oid kInt8Array = 1016;
inline constexpr Oid kUuidArray = 2951;
}  // namespace type_oid

class Param {
 public:
  static Param text(std::string_view value);
  static Param int64(std::int64_t value);
  static Param float8(double value);
  static Param boolean(bool value);
  static Param bytea(std::span<const std::byte> value);
  // The instant, as timestamptz (microseconds since 2000-01-01 UTC, its binary format).
  static Param timestamptz(Timestamp value);
  // `value` already in the binary format of `type` (e.g. a BinaryArray's bytes).
  static Param binary(Oid type, std::span<const std::byte> value);
  // A NULL of the given type (kUnknown: inferred by the server).
  static Param null(Oid type = type_oid::kUnknown);

  Oid type() const noexcept { return type_; }
  bool is_null() const noexcept { return null_; }
  // What libpq's paramValues / paramLengths / paramFormats want for this parameter.
  // data() is nullptr exactly for NULL; it may point into this Param (int64, boolean).
  const char* data() const noexcept;
  int length() const noexcept { return length_; }
  static constexpr int kBinaryFormat = 1;

 private:
  static Param big_endian(Oid type, std::uint64_t bits);

  Param(Oid type, bool null, const char* external, int length)
      : type_(type), null_(null), external_(external), length_(length) {}

  Oid type_;
  bool null_;
  const char* external_;  // borrowed bytes; nullptr means the value is in inline_
  int length_;
  std::array<char, 8> inline_{};
};

// to_param: the conversions statement helpers apply to their arguments.
inline Param to_param(const Param& param) {
  return param;
}
inline Param to_param(std::string_view value) {
  return Param::text(value);
}
// Without this overload a string literal would convert to bool.
inline Param to_param(const char* value) {
  return Param::text(value);
}
inline Param to_param(const std::string& value) {
  return Param::text(value);
}
inline Param to_param(std::span<const std::byte> value) {
  return Param::bytea(value);
}
inline Param to_param(std::nullopt_t) {
  return Param::null();
}
template <std::same_as<bool> B>
Param to_param(B value) {
  return Param::boolean(value);
}

[[noreturn]] void throw_integer_out_of_range(std::uintmax_t value);

// Any integer type but bool and the character types; throws InvalidInputError for an
// unsigned value above INT64_MAX rather than binding a different number.
template <std::integral I>
requires(!std::same_as<I, bool> && !std::same_as<I, char> && !std::same_as<I, char8_t>) Param
    to_param(I value) {
  if (!std::in_range<std::int64_t>(value)) {
    throw_integer_out_of_range(static_cast<std::uintmax_t>(value));
  }
  return Param::int64(static_cast<std::int64_t>(value));
}

// An empty optional binds a NULL of T's type.
template <typename T>
Param to_param(const std::optional<T>& value) {
  if (value.has_value()) {
    return to_param(*value);
  }
  return Param::null(to_param(T{}).type());
}

// Types a statement helper accepts as a parameter argument.
template <typename T>
concept Bindable = requires(const T& value) {
  { to_param(value) } -> std::same_as<Param>;
};

// Parameters that own their bytes: a copy of Params whose values may live elsewhere,
// for a statement sent later (a deferred statement, connection.h). Moving keeps the
// parameters valid; copying is not offered.
class OwnedParams {
 public:
  OwnedParams() = default;
  explicit OwnedParams(std::span<const Param> params);
  OwnedParams(OwnedParams&&) noexcept = default;
  OwnedParams& operator=(OwnedParams&&) noexcept = default;

  std::span<const Param> params() const noexcept { return params_; }

 private:
  std::vector<std::byte> bytes_;  // every value, end to end; never reallocated
  std::vector<Param> params_;     // views of bytes_
};

// A handler's values (docket/postgres/transaction.h) as parameters; they borrow the
// values' bytes.
std::vector<Param> to_params(const std::vector<Value>& values);

// Portable SQL's parameters (docket/core/sql_transaction.h); they borrow the strings'
// and bytes' memory.
std::vector<Param> to_params(std::span<const SqlParam> values);

// A listing's texts and integers (kit/sql_listing_query.h) as parameters; they borrow
// the texts' bytes.
std::vector<Param> to_params(std::span<const std::variant<std::string, std::int64_t>> values);

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_PARAM_H_
