// Parameters for the raw PostgreSQL baselines, bound as docket's provider binds them
// (src/providers/postgres/postgres_param.h): binary format with explicit types, text as its
// bytes, integers as big-endian int8, bytes as bytea.
//
// Thread-safety: value types.
#ifndef DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_PG_PARAMS_H_
#define DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_PG_PARAMS_H_

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "postgres_raw.h"

namespace docket::bench {

// pg_type oids of the parameter types docket binds.
inline constexpr Oid kPgBytea = 17;
inline constexpr Oid kPgInt8 = 20;
inline constexpr Oid kPgText = 25;
inline constexpr int kPgBinary = 1;

inline RawPgParam pg_text(std::string_view value) {
  return RawPgParam{value.data(), static_cast<int>(value.size()), kPgBinary};
}

// bytea in binary format is the bytes themselves.
inline RawPgParam pg_bytea(std::string_view bytes) {
  return pg_text(bytes);
}

// int8 in network byte order, as docket's Param::int64 binds it; keep it alive while
// the statement runs.
struct PgInt8 {
  explicit PgInt8(std::int64_t value) {
    auto bits = static_cast<std::uint64_t>(value);
    if constexpr (std::endian::native == std::endian::little) {
      bits = __builtin_bswap64(bits);
    }
    std::memcpy(bytes.data(), &bits, sizeof bits);
  }
  RawPgParam param() const { return RawPgParam{bytes.data(), 8, kPgBinary}; }
  std::array<char, 8> bytes{};
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_PG_PARAMS_H_
