#include "providers/postgres/postgres_binary_array.h"

#include <climits>
#include <cstring>

#include "docket/core/error.h"

namespace docket::postgres::detail {
namespace {

constexpr std::size_t kHeaderBytes = 20;  // ndim, flags, element type, length, lower bound
constexpr std::size_t kFlagsOffset = 4;

Oid array_type_of(Oid element_type) {
  switch (element_type) {
    case type_oid::kInt8:
      return type_oid::kInt8Array;
    case type_oid::kText:
      return type_oid::kTextArray;
    case type_oid::kBytea:
      return type_oid::kByteaArray;
    case type_oid::kUuid:
      return type_oid::kUuidArray;
    default:
      throw InfrastructureError("PostgreSQL binary array: element type " +
                                std::to_string(element_type) + " has no array type here");
  }
}

void write_int32(char* out, std::uint32_t value) {
  out[0] = static_cast<char>(value >> 24);
  out[1] = static_cast<char>(value >> 16);
  out[2] = static_cast<char>(value >> 8);
  out[3] = static_cast<char>(value);
}

}  // namespace

BinaryArray::BinaryArray(Oid element_type, std::size_t count, std::size_t element_bytes)
    : element_type_(element_type) {
  array_type_of(element_type);  // refuses an element type without an array type
  bytes_.reserve(kHeaderBytes + count * (4 + element_bytes));
  put_int32(1);  // one dimension
  put_int32(0);  // no NULL yet
  put_int32(static_cast<std::int32_t>(element_type));
  length_offset_ = bytes_.size();
  put_int32(0);  // the dimension's length, patched by add_element
  put_int32(1);  // lower bound: subscripts start at 1
}

void BinaryArray::put_int32(std::int32_t value) {
  char out[4];
  write_int32(out, static_cast<std::uint32_t>(value));
  bytes_.append(out, sizeof out);
}

void BinaryArray::add_element(const void* data, std::size_t length) {
  if (length > static_cast<std::size_t>(INT_MAX)) {
    throw InvalidInputError("an array element of " + std::to_string(length) +
                            " bytes exceeds what one PostgreSQL value carries (" +
                            std::to_string(INT_MAX) + " bytes); store it in parts");
  }
  put_int32(static_cast<std::int32_t>(length));
  bytes_.append(static_cast<const char*>(data), length);
  write_int32(bytes_.data() + length_offset_, static_cast<std::uint32_t>(++count_));
}

void BinaryArray::add_int64(std::int64_t value) {
  char out[8];
  const auto bits = static_cast<std::uint64_t>(value);
  write_int32(out, static_cast<std::uint32_t>(bits >> 32));
  write_int32(out + 4, static_cast<std::uint32_t>(bits));
  add_element(out, sizeof out);
}

void BinaryArray::add_text(std::string_view value) {
  add_element(value.data(), value.size());
}

void BinaryArray::add_optional_text(std::optional<std::string_view> value) {
  if (value) {
    add_text(*value);
  } else {
    add_null();
  }
}

void BinaryArray::add_bytes(std::span<const std::byte> value) {
  add_element(value.data(), value.size());
}

void BinaryArray::add_uuid(const Uuid& value) {
  add_element(value.bytes().data(), value.bytes().size());
}

void BinaryArray::add_null() {
  put_int32(-1);
  write_int32(bytes_.data() + kFlagsOffset, 1);
  write_int32(bytes_.data() + length_offset_, static_cast<std::uint32_t>(++count_));
}

Param BinaryArray::param() const {
  return Param::binary(array_type_of(element_type_), std::as_bytes(std::span(bytes_)));
}

}  // namespace docket::postgres::detail
