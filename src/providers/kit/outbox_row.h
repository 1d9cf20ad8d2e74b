// An outbox row as a store without SQL keeps it (memory, Firestore): the record and its
// lease, which only the relay side sees, and the relay's state changes on it, the same
// for every such store (the outbox conformance suite checks them):
//
//   leasable   pending, due (next_attempt_at <= now), and not leased (no token, or a
//              lease that ended by now)
//   lease      takes the lease for `token` until `lease_until`
//   held_by    pending and leased to `token` (complete() and fail() need it; the lease
//              need not still last: a relay whose lease ran out but that no other relay
//              claimed after may still record its outcome)
//   complete   done at `now`, the lease ended
//   fail       one more attempt with its error, then parked or due again; the lease ended
//   replay     a parked row pending again, attempts reset, due at `now`, no lease
//   skip       a parked row skipped: done at `now`, never published, no lease
//   holds_key  a row that holds its ordering key against later rows: pending or parked
//
// And the one encoding of a message's headers in a single stored text (a SQL column, a
// DynamoDB or Firestore string): a JSON array of [name, value] pairs,
// [["tenant-tier","gold"],["x-b","2"]]. JSON because it is lossless for the UTF-8 text
// staging admits (every byte kept, only '"', '\\' and control characters escaped),
// keeps the order and is readable by an operator's SQL (PostgreSQL: headers::jsonb);
// pairs rather than an object because an object's order is not kept by jsonb and
// many JSON tools. No headers: an empty text (stored as NULL or absent), which is also
// what a row staged before routing existed reads as.
//
// Thread-safety: plain values and pure functions.
#ifndef DOCKET_PROVIDERS_KIT_OUTBOX_ROW_H_
#define DOCKET_PROVIDERS_KIT_OUTBOX_ROW_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/error.h"
#include "docket/outbox/outbox_message.h"
#include "docket/outbox/outbox_store.h"
#include "providers/kit/time_codec.h"

namespace docket::kit {

struct OutboxRow {
  OutboxRecord record{};
  std::string lease_token{};     // empty: not leased
  std::int64_t lease_until = 0;  // Unix microseconds; 0 when not leased
};

inline bool leasable(const OutboxRow& row, Timestamp now) {
  return row.record.status == OutboxStatus::kPending && row.record.next_attempt_at <= now &&
         (row.lease_token.empty() || row.lease_until <= to_micros(now));
}

inline void lease(OutboxRow& row, std::string_view token, Timestamp lease_until) {
  row.lease_token = token;
  row.lease_until = to_micros(lease_until);
}

inline bool held_by(const OutboxRow& row, std::string_view token) {
  return row.record.status == OutboxStatus::kPending && !row.lease_token.empty() &&
         row.lease_token == token;
}

inline void end_lease(OutboxRow& row) {
  row.lease_token.clear();
  row.lease_until = 0;
}

inline void complete(OutboxRow& row, Timestamp now) {
  row.record.status = OutboxStatus::kDone;
  row.record.done_at = now;
  end_lease(row);
}

inline void fail(OutboxRow& row, const FailedAttempt& attempt) {
  ++row.record.attempts;
  row.record.last_error = attempt.error;
  if (attempt.park) {
    row.record.status = OutboxStatus::kParked;
  } else {
    row.record.next_attempt_at = attempt.next_attempt_at;
  }
  end_lease(row);
}

// Whether the row was parked (and is now pending again).
inline bool replay(OutboxRow& row, Timestamp now) {
  if (row.record.status != OutboxStatus::kParked) {
    return false;
  }
  row.record.status = OutboxStatus::kPending;
  row.record.attempts = 0;
  row.record.next_attempt_at = now;
  end_lease(row);
  return true;
}

// Whether the row was parked (and is now skipped).
inline bool skip(OutboxRow& row, Timestamp now) {
  if (row.record.status != OutboxStatus::kParked) {
    return false;
  }
  row.record.status = OutboxStatus::kSkipped;
  row.record.done_at = now;
  end_lease(row);
  return true;
}

inline bool holds_key(const OutboxRecord& record) {
  return record.ordering_key &&
         (record.status == OutboxStatus::kPending || record.status == OutboxStatus::kParked);
}

namespace detail {

inline void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  out += '"';
}

// Reads the JSON string at text[at] (its opening quote), as encode_headers writes it.
inline std::string read_json_string(std::string_view text, std::size_t& at) {
  const auto corrupt = [&] {
    return InfrastructureError(
        "outbox: a stored headers value is not the JSON array of [name, value] pairs docket "
        "writes (at byte " +
        std::to_string(at) + "); the row was changed outside docket: restore it");
  };
  if (at >= text.size() || text[at] != '"') {
    throw corrupt();
  }
  std::string out;
  for (++at; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '"') {
      ++at;
      return out;
    }
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++at >= text.size()) {
      throw corrupt();
    }
    if (text[at] == 'u' && at + 4 < text.size() && text.substr(at + 1, 2) == "00") {
      out += static_cast<char>(std::stoi(std::string(text.substr(at + 3, 2)), nullptr, 16));
      at += 4;
    } else if (text[at] == '"' || text[at] == '\\') {
      out += text[at];
    } else {
      throw corrupt();
    }
  }
  throw corrupt();
}

}  // namespace detail

// The stored text of `headers` (see the top of this file); empty for none.
inline std::string encode_headers(const std::vector<MessageHeader>& headers) {
  if (headers.empty()) {
    return {};
  }
  std::string out = "[";
  for (const MessageHeader& header : headers) {
    out += out.size() == 1 ? "[" : ",[";
    detail::append_json_string(out, header.name);
    out += ',';
    detail::append_json_string(out, header.value);
    out += ']';
  }
  out += ']';
  return out;
}

// The headers encode_headers wrote; none for an empty text.
inline std::vector<MessageHeader> decode_headers(std::string_view text) {
  std::vector<MessageHeader> headers;
  if (text.empty()) {
    return headers;
  }
  std::size_t at = 0;
  const auto expect = [&](char c) {
    if (at >= text.size() || text[at] != c) {
      throw InfrastructureError(std::string("outbox: a stored headers value is not the JSON "
                                            "array docket writes (expected '") +
                                c + "' at byte " + std::to_string(at) +
                                "); the row was changed outside docket: restore it");
    }
    ++at;
  };
  expect('[');
  while (true) {
    expect('[');
    MessageHeader header;
    header.name = detail::read_json_string(text, at);
    expect(',');
    header.value = detail::read_json_string(text, at);
    expect(']');
    headers.push_back(std::move(header));
    if (at < text.size() && text[at] == ',') {
      ++at;
      continue;
    }
    expect(']');
    break;
  }
  if (at != text.size()) {
    expect('\0');  // trailing bytes: refused
  }
  return headers;
}

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_OUTBOX_ROW_H_
