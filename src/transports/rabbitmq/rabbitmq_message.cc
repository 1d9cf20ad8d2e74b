#include "transports/rabbitmq/rabbitmq_message.h"

#include <string_view>

#include "transports/rabbitmq/rabbitmq_connection.h"

namespace docket::rabbitmq::detail {
namespace {

std::optional<std::int64_t> as_integer(const amqp_field_value_t& value) {
  switch (value.kind) {
    case AMQP_FIELD_KIND_I8:
      return value.value.i8;
    case AMQP_FIELD_KIND_U8:
      return value.value.u8;
    case AMQP_FIELD_KIND_I16:
      return value.value.i16;
    case AMQP_FIELD_KIND_U16:
      return value.value.u16;
    case AMQP_FIELD_KIND_I32:
      return value.value.i32;
    case AMQP_FIELD_KIND_U32:
      return value.value.u32;
    case AMQP_FIELD_KIND_I64:
    case AMQP_FIELD_KIND_TIMESTAMP:
      return value.value.i64;
    case AMQP_FIELD_KIND_U64:
      return static_cast<std::int64_t>(value.value.u64);
    default:
      return std::nullopt;
  }
}

std::optional<std::string> as_text(const amqp_field_value_t& value) {
  switch (value.kind) {
    case AMQP_FIELD_KIND_UTF8:
    case AMQP_FIELD_KIND_BYTES:
      return to_string(value.value.bytes);
    case AMQP_FIELD_KIND_BOOLEAN:
      return value.value.boolean != 0 ? "true" : "false";
    default:
      if (const auto number = as_integer(value))
        return std::to_string(*number);
      return std::nullopt;
  }
}

}  // namespace

amqp_table_t EncodedHeaders::table() noexcept {
  amqp_table_t table;
  table.num_entries = static_cast<int>(entries.size());
  table.entries = entries.empty() ? nullptr : entries.data();
  return table;
}

EncodedHeaders encode_headers(const HeaderList& headers) {
  EncodedHeaders encoded;
  encoded.entries.reserve(headers.size());
  for (const auto& [name, value] : headers) {
    amqp_table_entry_t entry{};
    entry.key = as_bytes(name);
    entry.value.kind = AMQP_FIELD_KIND_UTF8;
    entry.value.value.bytes = as_bytes(value);
    encoded.entries.push_back(entry);
  }
  return encoded;
}

std::size_t encoded_headers_size(const HeaderList& headers) {
  std::size_t size = 4;  // the table's length prefix
  for (const auto& [name, value] : headers) {
    size += 1 + name.size() + 1 + 4 + value.size();  // shortstr name, 'S', longstr
  }
  return size;
}

HeaderList decode_headers(const amqp_table_t& table) {
  HeaderList headers;
  for (int i = 0; i < table.num_entries; ++i) {
    if (auto text = as_text(table.entries[i].value)) {
      headers.emplace_back(to_string(table.entries[i].key), std::move(*text));
    }
  }
  return headers;
}

std::optional<std::int64_t> integer_header(const amqp_table_t& table, std::string_view name) {
  for (int i = 0; i < table.num_entries; ++i) {
    if (to_string(table.entries[i].key) == name)
      return as_integer(table.entries[i].value);
  }
  return std::nullopt;
}

}  // namespace docket::rabbitmq::detail
