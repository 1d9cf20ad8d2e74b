// How the PostgreSQL provider's SQL moves a Timestamp: bound as signed microseconds
// since the Unix epoch (kit::to_micros) and turned into a timestamptz by the statement,
// read back as microseconds again (kit::from_micros). Both conversions are exact:
// timestamptz has microsecond resolution, and extract(epoch ...) is numeric.
//
// Macros, not functions, so that statements stay single string literals (constexpr,
// shareable with code that runs them through libpq directly).
//
// Thread-safety: constants.
#ifndef DOCKET_PROVIDERS_POSTGRES_TIMESTAMP_SQL_H_
#define DOCKET_PROVIDERS_POSTGRES_TIMESTAMP_SQL_H_

// A bound microsecond count (an int8 parameter such as "$3") as timestamptz, exactly.
#define DOCKET_TS(param) "('epoch'::timestamptz + " param " * interval '1 microsecond')"
// A timestamptz column read back as microseconds since the epoch (int8, exact).
#define DOCKET_US(column) "(extract(epoch FROM " column ") * 1000000)::int8"

#endif  // DOCKET_PROVIDERS_POSTGRES_TIMESTAMP_SQL_H_
