// W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` and
// `tracestate` a producer attaches so that a consumer continues its trace.
//
// Trace context is observability, never correctness: a missing or malformed header
// must not stop a message from being processed. So parsing never throws; invalid
// input is reported as absent (nullopt), and a `tracestate` without a valid
// `traceparent` is dropped with it.
//
// Thread-safety: immutable value types and pure functions.
#ifndef DOCKET_CORE_TRACE_CONTEXT_H_
#define DOCKET_CORE_TRACE_CONTEXT_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace docket {

// A validated `traceparent`.
struct TraceParent {
  std::uint8_t version = 0;                 // 0x00..0xfe; 0xff is invalid
  std::array<std::uint8_t, 16> trace_id{};  // never all zero
  std::array<std::uint8_t, 8> parent_id{};  // never all zero
  std::uint8_t flags = 0;                   // bit 0: sampled

  bool sampled() const noexcept { return (flags & 0x01) != 0; }

  // "00-<32 hex>-<16 hex>-<2 hex>", lower-case, always at version 00 layout with this
  // object's version byte.
  std::string to_string() const;

  friend bool operator==(const TraceParent&, const TraceParent&) = default;
};

// Parses a `traceparent` header value. Returns nullopt unless:
//   - it is `version-traceid-parentid-flags`, each field lower-case hex of length
//     2, 32, 16 and 2, separated by single '-';
//   - version is not "ff"; for version "00" the value is exactly 55 characters; for a
//     higher version it is at least 55 and, if longer, character 55 is '-' (future
//     versions may append fields, which are ignored);
//   - trace id and parent id are not all zeros.
// The value is taken as is: HTTP strips surrounding white space from a header value
// before it gets here, so leading or trailing spaces make it invalid.
std::optional<TraceParent> parse_traceparent(std::string_view header) noexcept;

// A trace context as carried on an envelope: the parsed traceparent plus the
// `tracestate` text, kept verbatim when it is well-formed.
struct TraceContext {
  TraceParent parent;
  std::string state;  // empty when absent

  friend bool operator==(const TraceContext&, const TraceContext&) = default;
};

// Parses both headers. nullopt when `traceparent` is absent or invalid. A malformed
// `tracestate` (more than 32 list members, longer than 512 characters, a member that
// is not key=value with a W3C key and value, a duplicate key) is dropped (state
// empty) while the valid traceparent is kept.
std::optional<TraceContext> parse_trace_context(std::string_view traceparent,
                                                std::string_view tracestate) noexcept;

}  // namespace docket

#endif  // DOCKET_CORE_TRACE_CONTEXT_H_
