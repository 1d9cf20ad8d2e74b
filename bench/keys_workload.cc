#include "keys_workload.h"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>

#include "docket/core/error.h"
#include "message_ids.h"

namespace docket::bench {
namespace {

using keys::Provider;

// Distinct tuples per case: enough realistic ones that ids and names vary as in a real
// stream of messages; the worst-case ones are up to 2 KiB each, 64 of them stay in the
// L2 cache as a hot key path would.
constexpr std::size_t kRealisticTuples = 1024;
constexpr std::size_t kWorstCaseTuples = 64;

constexpr std::array<std::string_view, 5> kTenants = {"acme-eu", "acme-us", "globex-apac",
                                                      "__default__", "initech"};
constexpr std::array<std::string_view, 5> kHandlerTypes = {
    "Orders.Billing.ChargeCard", "Orders.Fulfilment.ReserveStock", "Shipping.Labels.PrintLabel",
    "Notifications.Email.SendReceipt", "orders::billing::RefundCard"};
constexpr std::array<std::string_view, 4> kAggregateTypes = {"Order", "Orders.Billing.Invoice",
                                                             "Customer", "Shipment"};
constexpr std::array<std::string_view, 4> kStreamIdPrefixes = {"order-", "invoice-", "customer-",
                                                               "shipment-"};
constexpr std::array<std::string_view, 2> kSagaTypes = {"Orders.Fulfilment.ShippingSaga",
                                                        "Billing.PaymentSaga"};

// Where each character of kWorstCasePattern begins: ü € 𝄞 : % _ /.
constexpr std::array<std::size_t, 7> kPatternCharacters = {0, 2, 5, 9, 10, 11, 12};

// `characters` characters of kWorstCasePattern repeated, from its `rotation`-th.
std::string worst_case_term(std::size_t rotation, std::size_t characters) {
  constexpr std::size_t kCount = kPatternCharacters.size();
  std::string term;
  for (std::size_t c = rotation; c < rotation + characters; ++c) {
    const std::size_t at = kPatternCharacters[c % kCount];
    const std::size_t end =
        c % kCount + 1 < kCount ? kPatternCharacters[c % kCount + 1] : kWorstCasePattern.size();
    term += kWorstCasePattern.substr(at, end - at);
  }
  return term;
}

bool holds_aggregate_type(Provider provider) {
  return provider != Provider::kMongoDb;  // the MongoDB stream id omits it
}

}  // namespace

std::string_view to_string(KeyKind kind) noexcept {
  switch (kind) {
    case KeyKind::kInbox:
      return "inbox";
    case KeyKind::kStream:
      return "stream";
    case KeyKind::kSaga:
      return "saga";
  }
  return "unknown";
}

std::string_view to_string(TermSet terms) noexcept {
  return terms == TermSet::kRealistic ? "realistic" : "worst-case";
}

std::vector<KeyCase> key_cases(std::span<const Provider> providers) {
  std::vector<KeyCase> cases;
  for (const Provider provider : providers) {
    cases.push_back({provider, KeyKind::kInbox});
    const bool document_store = provider == Provider::kCosmosDb ||
                                provider == Provider::kDynamoDb || provider == Provider::kMongoDb ||
                                provider == Provider::kFirestore;
    if (document_store) {
      cases.push_back({provider, KeyKind::kStream});
      cases.push_back({provider, KeyKind::kSaga});
    }
  }
  return cases;
}

KeyWorkload::KeyWorkload(KeyCase key_case, TermSet terms) : case_(key_case), terms_(terms) {
  if (terms == TermSet::kRealistic) {
    make_realistic(kRealisticTuples);
  } else {
    make_worst_case(kWorstCaseTuples);
  }
}

std::string_view KeyWorkload::shape() const noexcept {
  switch (case_.kind) {
    case KeyKind::kInbox:
      return "inbox entry id";
    case KeyKind::kStream:
      return case_.provider == Provider::kFirestore ? "event document id" : "event stream key";
    case KeyKind::kSaga:
      return "saga key";
  }
  return "key";
}

std::size_t KeyWorkload::compose(std::size_t i) const {
  const Provider provider = case_.provider;
  switch (case_.kind) {
    case KeyKind::kInbox:
      return keys::compose_inbox_entry_id(provider, inbox_[i]).value.size();
    case KeyKind::kStream:
      if (provider == Provider::kFirestore) {
        return keys::compose_event_document_id(provider, stream_[i], versions_[i]).value.size();
      }
      return keys::compose_stream_key(provider, stream_[i]).value.size();
    case KeyKind::kSaga:
      return keys::compose_saga_key(provider, saga_[i]).value.size();
  }
  return 0;
}

void KeyWorkload::remember(const keys::Key& key) {
  field_ = key.field;
  limit_bytes_ = key.limit_bytes;
  keys_.push_back(key.value);
}

void KeyWorkload::add_inbox(std::string tenant, std::string message_id, std::string handler_type) {
  input_bytes_.push_back(tenant.size() + message_id.size() + handler_type.size());
  inbox_.push_back({std::move(tenant), std::move(message_id), std::move(handler_type)});
  const keys::Key key = keys::compose_inbox_entry_id(case_.provider, inbox_.back());
  remember(key);
}

void KeyWorkload::add_stream(std::string tenant, std::string type, std::string id,
                             std::int64_t version) {
  if (!holds_aggregate_type(case_.provider)) {
    type.clear();
  }
  input_bytes_.push_back(tenant.size() + type.size() + id.size());
  stream_.push_back({std::move(tenant), std::move(type), std::move(id)});
  versions_.push_back(version);
  const keys::Key key =
      case_.provider == Provider::kFirestore
          ? keys::compose_event_document_id(case_.provider, stream_.back(), version)
          : keys::compose_stream_key(case_.provider, stream_.back());
  remember(key);
}

void KeyWorkload::add_saga(std::string tenant, std::string type, std::string id) {
  if (case_.provider != Provider::kFirestore) {
    type.clear();  // only the Firestore saga key holds the saga type
  }
  input_bytes_.push_back(tenant.size() + type.size() + id.size());
  saga_.push_back({std::move(tenant), std::move(type), std::move(id)});
  const keys::Key key = keys::compose_saga_key(case_.provider, saga_.back());
  remember(key);
}

void KeyWorkload::make_realistic(std::size_t count) {
  const MessageIds ids(count, IdOrder::kTimeOrdered);
  for (std::size_t i = 0; i < count; ++i) {
    const std::string tenant(kTenants[i % kTenants.size()]);
    switch (case_.kind) {
      case KeyKind::kInbox:
        add_inbox(tenant, std::string(ids.id(i)),
                  std::string(kHandlerTypes[i % kHandlerTypes.size()]));
        break;
      case KeyKind::kStream: {
        const std::size_t type = i % kAggregateTypes.size();
        add_stream(tenant, std::string(kAggregateTypes[type]),
                   std::string(kStreamIdPrefixes[type]) + std::to_string(12345 + 7 * i),
                   static_cast<std::int64_t>(i % 1000));
        break;
      }
      case KeyKind::kSaga:
        add_saga(tenant, std::string(kSagaTypes[i % kSagaTypes.size()]), std::string(ids.id(i)));
        break;
    }
  }
}

// The most characters per term for which every tuple's key still fits, found by
// composing (the shapes' constants and escapes are docket's, not restated here): a
// tuple's sizes depend only on where its terms start in the pattern, so the first
// kPatternCharacters.size() tuples have every size there is.
void KeyWorkload::make_worst_case(std::size_t count) {
  std::size_t characters = 1;
  for (;; ++characters) {
    KeyWorkload probe = *this;
    try {
      probe.fill(kPatternCharacters.size(), characters + 1);
    } catch (const KeyTooLongError&) {
      break;
    }
    const auto longest = std::max_element(
        probe.keys_.begin(), probe.keys_.end(),
        [](const std::string& a, const std::string& b) { return a.size() < b.size(); });
    if (longest->size() > kWorstCaseKeyBytes) {
      break;
    }
  }
  fill(count, characters);
}

void KeyWorkload::fill(std::size_t count, std::size_t characters) {
  constexpr std::int64_t kVersion = std::numeric_limits<std::int64_t>::max();
  for (std::size_t i = 0; i < count; ++i) {
    std::string first = worst_case_term(i, characters);
    std::string second = worst_case_term(i + 1, characters);
    std::string third = worst_case_term(i + 2, characters);
    switch (case_.kind) {
      case KeyKind::kInbox:
        add_inbox(std::move(first), std::move(second), std::move(third));
        break;
      case KeyKind::kStream:
        add_stream(std::move(first), std::move(second), std::move(third), kVersion);
        break;
      case KeyKind::kSaga:
        add_saga(std::move(first), std::move(third), std::move(second));
        break;
    }
  }
}

}  // namespace docket::bench
