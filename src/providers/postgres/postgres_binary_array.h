// BinaryArray: one one-dimensional array parameter in PostgreSQL's binary format, so
// that a statement takes a whole batch of values per column (`unnest($1)`, or a
// server-side function's array argument) and a batch is one round trip, whatever its
// size. Elements are copied in as they are added: nothing is escaped, printed or
// parsed back, and bytea elements travel as their bytes.
//
// The wire format (array_recv): ndim, has-null flag, element type, then per dimension
// its length and lower bound (1), then each element as a 4-byte length (-1 for NULL)
// followed by the element's binary form.
//
// Invariant: param() borrows this object's buffer; the BinaryArray must outlive the
// statement call and gain no element after param() is taken.
// Thread-safety: a value type; one thread builds it.
#ifndef DOCKET_PROVIDERS_POSTGRES_BINARY_ARRAY_H_
#define DOCKET_PROVIDERS_POSTGRES_BINARY_ARRAY_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "docket/core/uuid.h"
#include "providers/postgres/postgres_param.h"

namespace docket::postgres::detail {

class BinaryArray {
 public:
  // An array of `element_type` (one of type_oid::kInt8, kText, kBytea, kUuid) sized
  // for `count` elements of about `element_bytes` bytes each.
  BinaryArray(Oid element_type, std::size_t count, std::size_t element_bytes = 8);

  void add_int64(std::int64_t value);
  void add_text(std::string_view value);
  void add_optional_text(std::optional<std::string_view> value);
  void add_bytes(std::span<const std::byte> value);
  void add_uuid(const Uuid& value);
  void add_null();

  std::size_t size() const noexcept { return count_; }
  // The array as a parameter of its array type (int8[], text[], bytea[], uuid[]).
  Param param() const;

 private:
  void add_element(const void* data, std::size_t length);
  void put_int32(std::int32_t value);

  Oid element_type_;
  std::string bytes_;
  std::size_t count_ = 0;
  std::size_t length_offset_ = 0;  // where the dimension's length is patched in
};

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_BINARY_ARRAY_H_
