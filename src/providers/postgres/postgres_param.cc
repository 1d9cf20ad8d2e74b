#include "providers/postgres/postgres_param.h"

#include <bit>
#include <climits>
#include <cstring>
#include <type_traits>
#include <variant>

#include "docket/core/error.h"

namespace docket::postgres::detail {
namespace {

// An empty value must not be bound as a null pointer: libpq reads that as SQL NULL.
constexpr char kEmpty[] = "";

int checked_length(std::size_t size, std::string_view what) {
  if (size > static_cast<std::size_t>(INT_MAX)) {
    throw InvalidInputError("a " + std::string(what) + " parameter of " + std::to_string(size) +
                            " bytes exceeds what one PostgreSQL parameter carries (" +
                            std::to_string(INT_MAX) + " bytes); store it in parts");
  }
  return static_cast<int>(size);
}

}  // namespace

Param Param::text(std::string_view value) {
  return Param(type_oid::kText, false, value.empty() ? kEmpty : value.data(),
               checked_length(value.size(), "text"));
}

Param Param::bytea(std::span<const std::byte> value) {
  return Param(type_oid::kBytea, false,
               value.empty() ? kEmpty : reinterpret_cast<const char*>(value.data()),
               checked_length(value.size(), "bytea"));
}

Param Param::binary(Oid type, std::span<const std::byte> value) {
  return Param(type, false, value.empty() ? kEmpty : reinterpret_cast<const char*>(value.data()),
               checked_length(value.size(), "binary"));
}

Param Param::int64(std::int64_t value) {
  return big_endian(type_oid::kInt8, static_cast<std::uint64_t>(value));
}

// float8's binary format is the IEEE 754 bits in network byte order.
Param Param::float8(double value) {
  return big_endian(type_oid::kFloat8, std::bit_cast<std::uint64_t>(value));
}

Param Param::timestamptz(Timestamp value) {
  // PostgreSQL's epoch is 2000-01-01T00:00:00Z, 946,684,800 s after the Unix epoch.
  constexpr std::int64_t kPostgresEpochMicros = 946'684'800'000'000;
  return big_endian(
      type_oid::kTimestamptz,
      static_cast<std::uint64_t>(value.time_since_epoch().count() - kPostgresEpochMicros));
}

Param Param::big_endian(Oid type, std::uint64_t bits) {
  Param param(type, false, nullptr, 8);
  for (int i = 7; i >= 0; --i) {  // network byte order
    param.inline_[static_cast<std::size_t>(i)] = static_cast<char>(bits & 0xff);
    bits >>= 8;
  }
  return param;
}

Param Param::boolean(bool value) {
  Param param(type_oid::kBoolean, false, nullptr, 1);
  param.inline_[0] = value ? 1 : 0;
  return param;
}

Param Param::null(Oid type) {
  return Param(type, true, nullptr, 0);
}

const char* Param::data() const noexcept {
  if (null_) {
    return nullptr;
  }
  return external_ != nullptr ? external_ : inline_.data();
}

void throw_integer_out_of_range(std::uintmax_t value) {
  throw InvalidInputError("the integer parameter " + std::to_string(value) +
                          " exceeds PostgreSQL's bigint range (at most 9223372036854775807)");
}

OwnedParams::OwnedParams(std::span<const Param> params) {
  std::size_t total = 0;
  for (const Param& p : params) {
    total += p.is_null() ? 0 : static_cast<std::size_t>(p.length());
  }
  bytes_.resize(total);
  params_.reserve(params.size());
  std::size_t at = 0;
  for (const Param& p : params) {
    if (p.is_null()) {
      params_.push_back(Param::null(p.type()));
      continue;
    }
    const auto length = static_cast<std::size_t>(p.length());
    if (length > 0) {
      std::memcpy(bytes_.data() + at, p.data(), length);
    }
    params_.push_back(
        Param::binary(p.type(), std::span<const std::byte>(bytes_.data() + at, length)));
    at += length;
  }
}

std::vector<Param> to_params(std::span<const std::variant<std::string, std::int64_t>> values) {
  std::vector<Param> params;
  params.reserve(values.size());
  for (const auto& value : values) {
    const auto* text = std::get_if<std::string>(&value);
    params.push_back(text != nullptr ? Param::text(*text)
                                     : Param::int64(std::get<std::int64_t>(value)));
  }
  return params;
}

std::vector<Param> to_params(const std::vector<Value>& values) {
  std::vector<Param> params;
  params.reserve(values.size());
  for (const auto& value : values) {
    params.push_back(std::visit(
        [](const auto& v) -> Param {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::nullptr_t>) {
            return Param::null();
          } else if constexpr (std::is_same_v<T, double>) {
            return Param::float8(v);
          } else if constexpr (std::is_same_v<T, Bytes>) {
            return Param::bytea(v);
          } else {
            return to_param(v);
          }
        },
        value));
  }
  return params;
}

std::vector<Param> to_params(std::span<const SqlParam> values) {
  std::vector<Param> params;
  params.reserve(values.size());
  for (const SqlParam& value : values) {
    params.push_back(std::visit(
        [](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::nullptr_t>) {
            return Param::null();
          } else if constexpr (std::is_same_v<T, bool>) {
            return Param::boolean(v);
          } else if constexpr (std::is_same_v<T, std::int64_t>) {
            return Param::int64(v);
          } else if constexpr (std::is_same_v<T, double>) {
            return Param::float8(v);
          } else if constexpr (std::is_same_v<T, std::string_view>) {
            return Param::text(v);
          } else if constexpr (std::is_same_v<T, std::span<const std::byte>>) {
            return Param::bytea(v);
          } else {
            return Param::timestamptz(v);
          }
        },
        value.value()));
  }
  return params;
}

}  // namespace docket::postgres::detail
