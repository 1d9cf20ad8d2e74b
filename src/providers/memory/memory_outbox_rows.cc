#include "providers/memory/memory_outbox_rows.h"

#include <cstdio>

#include "providers/kit/time_codec.h"

namespace docket::memory::detail {
namespace {

// Optional text as one term: "" when absent, "+" and the text when present.
std::string opt(const std::optional<std::string>& text) {
  return text ? "+" + *text : std::string();
}
std::optional<std::string> opt(const std::string& term) {
  if (term.empty()) {
    return std::nullopt;
  }
  return term.substr(1);
}

std::string num(std::int64_t n) {
  return std::to_string(n);
}
std::int64_t num(const std::string& term) {
  return std::stoll(term);
}
Timestamp at(const std::string& term) {
  return kit::from_micros(num(term));
}

}  // namespace

using kit::to_micros;

Terms sequence_key(std::int64_t sequence) {
  char padded[24];
  std::snprintf(padded, sizeof padded, "%020lld", static_cast<long long>(sequence));
  return {padded};
}

Terms to_values(const OutboxRow& row) {
  const OutboxRecord& r = row.record;
  return {r.id,
          r.tenant,
          r.event_type,
          r.payload,
          num(to_micros(r.occurred_at)),
          opt(r.source),
          opt(r.causation_id),
          opt(r.correlation_id),
          r.traceparent,
          r.tracestate,
          num(to_micros(r.created_at)),
          num(static_cast<std::int64_t>(r.status)),
          num(r.attempts),
          num(to_micros(r.next_attempt_at)),
          opt(r.last_error),
          r.done_at ? num(to_micros(*r.done_at)) : std::string(),
          row.lease_token,
          num(row.lease_until),
          r.destination,
          opt(r.ordering_key),
          kit::encode_headers(r.headers)};
}

OutboxRow from_values(const Terms& key, const Terms& v) {
  OutboxRow row;
  OutboxRecord& r = row.record;
  r.sequence = num(key.at(0));
  r.id = v.at(0);
  r.tenant = v.at(1);
  r.event_type = v.at(2);
  r.payload = v.at(3);
  r.occurred_at = at(v.at(4));
  r.source = opt(v.at(5));
  r.causation_id = opt(v.at(6));
  r.correlation_id = opt(v.at(7));
  r.traceparent = v.at(8);
  r.tracestate = v.at(9);
  r.created_at = at(v.at(10));
  r.status = static_cast<OutboxStatus>(num(v.at(11)));
  r.attempts = static_cast<int>(num(v.at(12)));
  r.next_attempt_at = at(v.at(13));
  r.last_error = opt(v.at(14));
  if (!v.at(15).empty()) {
    r.done_at = at(v.at(15));
  }
  row.lease_token = v.at(16);
  row.lease_until = num(v.at(17));
  r.destination = v.at(18);
  r.ordering_key = opt(v.at(19));
  r.headers = kit::decode_headers(v.at(20));
  return row;
}

}  // namespace docket::memory::detail
