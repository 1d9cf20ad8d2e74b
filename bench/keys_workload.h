// What `docket bench keys` composes: for one provider and one key kind, a set of term
// tuples made before the clock starts, composed through docket's public key API.
//
// Kinds: the inbox entry id (every provider), the event stream key (Cosmos DB,
// DynamoDB, MongoDB; on Firestore, which keeps one document per event, the event
// document id) and the saga key (Cosmos DB, DynamoDB, MongoDB, Firestore).
//
// Term sets:
//  - realistic: tenants like "acme-eu", UUIDv7 message and saga ids, handler and saga
//    type names like "Orders.Billing.ChargeCard" (one C++-style "orders::billing::...",
//    whose ':' every codec escapes), stream ids like "order-12345", versions below 1000.
//  - worst case: every term is kWorstCasePattern ("ü€𝄞:%_/", 13 bytes: 9 of multi-byte
//    UTF-8, then ':' '%' '_' '/') repeated, starting a character later in each term and
//    tuple, for as many characters as the key allows: the same number in every term,
//    the largest for which the key fits the provider's limit and kWorstCaseKeyBytes. Full
//    percent-encoding escapes 12 of those 13 bytes (all 13 in a Firestore saga id),
//    Cosmos DB's codec 3, the narrow codec 2; every multi-byte character is validated
//    whatever the codec. The Firestore event document id's version is INT64_MAX.
//
// Input bytes of a key are the bytes of the string terms its shape holds (the version,
// an integer, is not counted); output bytes are the composed key's.
//
// Thread-safety: immutable after construction; compose() may be called from many
// threads.
#ifndef DOCKET_BENCH_KEYS_WORKLOAD_H_
#define DOCKET_BENCH_KEYS_WORKLOAD_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/keys/inbox_key.h"
#include "docket/keys/provider.h"
#include "docket/keys/saga_key.h"
#include "docket/keys/stream_key.h"

namespace docket::bench {

enum class KeyKind { kInbox, kStream, kSaga };
enum class TermSet { kRealistic, kWorstCase };

// "inbox", "stream", "saga"; "realistic", "worst-case".
std::string_view to_string(KeyKind kind) noexcept;
std::string_view to_string(TermSet terms) noexcept;

inline constexpr std::string_view kWorstCasePattern = "\xC3\xBC\xE2\x82\xAC\xF0\x9D\x84\x9E:%_/";

// Worst-case keys are made as long as the provider allows, up to this many bytes (the
// largest document-store key field; Redis would otherwise allow 512 MiB keys).
inline constexpr std::size_t kWorstCaseKeyBytes = 2048;

struct KeyCase {
  keys::Provider provider;
  KeyKind kind;
};

// Every kind each of `providers` has, providers in the given order, kinds in the
// order inbox, stream, saga.
std::vector<KeyCase> key_cases(std::span<const keys::Provider> providers);

class KeyWorkload {
 public:
  // Composes every tuple once (the keys the raw side copies). Throws whatever docket
  // throws if a tuple does not compose (a bug in the workload).
  KeyWorkload(KeyCase key_case, TermSet terms);

  KeyCase key_case() const noexcept { return case_; }
  TermSet terms() const noexcept { return terms_; }
  // What the kind composes on this provider: "inbox entry id", "event stream key", ...
  std::string_view shape() const noexcept;
  // Where the key is stored ("document id", "partition key", ...): Key::field.
  std::string_view field() const noexcept { return field_; }
  // The provider's limit for that field: Key::limit_bytes.
  std::size_t limit_bytes() const noexcept { return limit_bytes_; }

  std::size_t tuples() const noexcept { return keys_.size(); }
  // Composes tuple i through the public API; returns the key's size in bytes.
  std::size_t compose(std::size_t i) const;
  // Tuple i's key, as composed at construction.
  std::string_view key(std::size_t i) const noexcept { return keys_[i]; }
  std::size_t input_bytes(std::size_t i) const noexcept { return input_bytes_[i]; }

 private:
  void remember(const keys::Key& key);
  void add_inbox(std::string tenant, std::string message_id, std::string handler_type);
  void add_stream(std::string tenant, std::string type, std::string id, std::int64_t version);
  void add_saga(std::string tenant, std::string type, std::string id);
  void make_realistic(std::size_t count);
  void make_worst_case(std::size_t count);
  void fill(std::size_t count, std::size_t characters);

  KeyCase case_;
  TermSet terms_;
  std::string_view field_;
  std::size_t limit_bytes_ = 0;
  std::vector<keys::InboxEntryTerms> inbox_;
  std::vector<keys::StreamTerms> stream_;
  std::vector<std::int64_t> versions_;
  std::vector<keys::SagaTerms> saga_;
  std::vector<std::string> keys_;
  std::vector<std::size_t> input_bytes_;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_KEYS_WORKLOAD_H_
