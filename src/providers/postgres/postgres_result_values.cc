// Result's typed getters, for both result formats: text (integers printed, bytea in
// hex output) and binary (integers as big-endian two's complement, bytea as its bytes,
// the text types as their text).
#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <span>
#include <type_traits>

#include "core/hex.h"
#include "docket/core/error.h"
#include "providers/postgres/postgres_libpq_text.h"
#include "providers/postgres/postgres_result.h"

namespace docket::postgres::detail {
namespace {

// pg_type oids of the types read in binary format (stable since 1996).
constexpr Oid kBoolOid = 16;
constexpr Oid kByteaOid = 17;
constexpr Oid kNameOid = 19;
constexpr Oid kInt8Oid = 20;
constexpr Oid kInt2Oid = 21;
constexpr Oid kInt4Oid = 23;
constexpr Oid kTextOid = 25;
constexpr Oid kBpcharOid = 1042;
constexpr Oid kVarcharOid = 1043;

// A binary integer of sizeof(Signed) bytes: big-endian two's complement.
template <class Signed>
std::int64_t big_endian_integer(const char* bytes) noexcept {
  std::make_unsigned_t<Signed> bits;
  std::memcpy(&bits, bytes, sizeof bits);
  if constexpr (std::endian::native == std::endian::little) {
    if constexpr (sizeof bits == 8) {
      bits = __builtin_bswap64(bits);
    } else if constexpr (sizeof bits == 4) {
      bits = __builtin_bswap32(bits);
    } else {
      bits = __builtin_bswap16(bits);
    }
  }
  return static_cast<Signed>(bits);
}

}  // namespace

std::string_view Result::text_of(int row, int column, const Cell& cell) const {
  switch (cell.binary_type) {
    case kTextFormat:
    case kTextOid:  // the binary form of the text types is their text
    case kVarcharOid:
    case kBpcharOid:
    case kNameOid:
      return cell.bytes;
    default:
      throw_binary_type(row, column, cell.binary_type, "text");
  }
}

std::string_view Result::text(int row, int column) const {
  return text_of(row, column, cell(row, column));
}

std::optional<std::string_view> Result::optional_text(int row, int column) const {
  const std::optional<Cell> value = optional_cell(row, column);
  return value ? std::optional(text_of(row, column, *value)) : std::nullopt;
}

std::int64_t Result::int64_of(int row, int column, const Cell& cell) const {
  if (cell.binary_type == kInt8Oid && cell.bytes.size() == 8) {
    return big_endian_integer<std::int64_t>(cell.bytes.data());
  }
  return other_int64_of(row, column, cell);
}

std::int64_t Result::other_int64_of(int row, int column, const Cell& cell) const {
  const std::string_view value = cell.bytes;
  if (cell.binary_type == kTextFormat) {
    std::int64_t number = 0;
    auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (error != std::errc() || end != value.data() + value.size()) {
      throw InvalidInputError(cell_name(row, column) + " holds \"" + std::string(value) +
                              "\", not a 64-bit integer");
    }
    return number;
  }
  const std::size_t size = cell.binary_type == kInt8Oid   ? 8
                           : cell.binary_type == kInt4Oid ? 4
                           : cell.binary_type == kInt2Oid ? 2
                                                          : 0;
  if (size == 0) {
    throw_binary_type(row, column, cell.binary_type, "an integer");
  }
  if (value.size() != size) {
    throw InvalidInputError(cell_name(row, column) + " is a binary integer of " +
                            std::to_string(value.size()) + " bytes; its type has " +
                            std::to_string(size));
  }
  return size == 4 ? big_endian_integer<std::int32_t>(value.data())
                   : big_endian_integer<std::int16_t>(value.data());
}

std::int64_t Result::int64(int row, int column) const {
  return int64_of(row, column, cell(row, column));
}

std::optional<std::int64_t> Result::optional_int64(int row, int column) const {
  const std::optional<Cell> value = optional_cell(row, column);
  return value ? std::optional(int64_of(row, column, *value)) : std::nullopt;
}

bool Result::boolean(int row, int column) const {
  const Cell value = cell(row, column);
  if (value.binary_type == kTextFormat) {
    if (value.bytes == "t" || value.bytes == "f") {
      return value.bytes == "t";
    }
    throw InvalidInputError(cell_name(row, column) + " holds \"" + std::string(value.bytes) +
                            "\", not a boolean (t or f)");
  }
  if (value.binary_type != kBoolOid) {
    throw_binary_type(row, column, value.binary_type, "a boolean");
  }
  if (value.bytes.size() != 1) {
    throw InvalidInputError(cell_name(row, column) + " is a binary boolean of " +
                            std::to_string(value.bytes.size()) + " bytes, not 1");
  }
  return value.bytes[0] != 0;
}

template <class Bytes>
Bytes Result::bytea_as(int row, int column) const {
  const Cell value = cell(row, column);
  const std::string_view bytes = value.bytes;
  if (value.binary_type != kTextFormat) {
    if (value.binary_type != kByteaOid) {
      throw_binary_type(row, column, value.binary_type, "a bytea");
    }
    const auto* first = reinterpret_cast<const typename Bytes::value_type*>(bytes.data());
    return Bytes(first, first + bytes.size());
  }
  // Text output of bytea is hex ("\x0a1b...", bytea_output = hex, the default since 9.0).
  if (bytes.size() < 2 || bytes[0] != '\\' || bytes[1] != 'x' || bytes.size() % 2 != 0) {
    throw InvalidInputError(cell_name(row, column) +
                            " is not a bytea in hex output format; select a bytea column "
                            "and keep bytea_output = hex");
  }
  Bytes decoded((bytes.size() - 2) / 2, typename Bytes::value_type{});
  if (!core::decode_hex(bytes.substr(2), std::as_writable_bytes(std::span(decoded)))) {
    const auto bad =
        std::find_if(bytes.begin() + 2, bytes.end(), [](char c) { return hex_digit_value(c) < 0; });
    throw InvalidInputError(cell_name(row, column) + " has a non-hex digit at offset " +
                            std::to_string(bad - bytes.begin()) + " of its bytea text");
  }
  return decoded;
}

std::vector<std::byte> Result::bytea(int row, int column) const {
  return bytea_as<std::vector<std::byte>>(row, column);
}

std::string Result::bytea_string(int row, int column) const {
  return bytea_as<std::string>(row, column);
}

}  // namespace docket::postgres::detail
