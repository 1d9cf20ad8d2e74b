#include "docket/keys/checkpoint_key.h"

#include "docket/core/error.h"
#include "keys/key_builder.h"

namespace docket::keys {
namespace {

using detail::KeyBuilder;

constexpr std::string_view kCheckpointWhat = "checkpoint key";

const detail::FieldLimit* checkpoint_limit(Provider provider) {
  switch (provider) {
    case Provider::kFirestore:
      return &detail::kFirestoreDocumentId;
    case Provider::kCosmosDb:
      return &detail::kCosmosItemId;
    default:
      return nullptr;
  }
}

// The one definition of the checkpoint shape: t:{tenant}:{consumerId}.
void build_checkpoint(KeyBuilder& key, const CheckpointTerms& terms) {
  key.constant(detail::kTenantMarker);
  key.term("tenant", terms.tenant);
  key.constant(detail::kSeparatorText);
  key.term("consumer id", terms.consumer_id);
}

}  // namespace

Key compose_checkpoint_key(Provider provider, const CheckpointTerms& terms) {
  const detail::FieldLimit* limit = checkpoint_limit(provider);
  if (limit == nullptr) {
    throw InvalidInputError(std::string(provider_display_name(provider)) +
                            " has no checkpoint key in docket; it exists for Firestore and Cosmos "
                            "DB. Choose one of those.");
  }
  KeyBuilder key(provider, kCheckpointWhat, *limit, KeyBuilder::Mode::kThrow);
  build_checkpoint(key, terms);
  return std::move(key).finish();
}

std::optional<CheckpointTerms> parse_checkpoint_key(Provider provider, std::string_view key) {
  const detail::FieldLimit* limit = checkpoint_limit(provider);
  std::string_view rest = key;
  if (limit == nullptr || !detail::consume_prefix(rest, detail::kTenantMarker)) {
    return std::nullopt;
  }
  const auto parts = detail::split_exact<2>(rest, detail::kSeparator);
  if (!parts) {
    return std::nullopt;
  }
  const auto decoded = detail::decode_all(*parts);
  if (!decoded) {
    return std::nullopt;
  }
  CheckpointTerms terms{(*decoded)[0], (*decoded)[1]};
  // Only the canonical spelling parses: re-compose and compare byte for byte.
  KeyBuilder again(provider, kCheckpointWhat, *limit, KeyBuilder::Mode::kTry);
  build_checkpoint(again, terms);
  const std::optional<std::string> recomposed = std::move(again).try_finish();
  if (!recomposed || *recomposed != key) {
    return std::nullopt;
  }
  return terms;
}

}  // namespace docket::keys
