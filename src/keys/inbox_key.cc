#include "docket/keys/inbox_key.h"

#include "docket/core/error.h"
#include "keys/key_builder.h"

namespace docket::keys {
namespace {

using detail::KeyBuilder;

constexpr std::string_view kInboxWhat = "inbox entry id";

// Firestore's prefix keeps ids clear of its reserved __.*__ / "." / ".." forms (an
// untenanted id would otherwise begin "__untenanted__"); Redis keys share one keyspace
// with everything else in the database, so its inbox keys are namespaced the same way.
constexpr std::string_view kInboxPrefix = "inbox:";

std::string_view prefix_for(Provider provider) {
  return provider == Provider::kFirestore || provider == Provider::kRedis ? kInboxPrefix
                                                                          : std::string_view{};
}

const detail::FieldLimit& limit_for(Provider provider) {
  switch (provider) {
    case Provider::kFirestore:
      return detail::kFirestoreDocumentId;
    case Provider::kElasticsearch:
      return detail::kElasticsearchId;
    case Provider::kCosmosDb:
      return detail::kCosmosItemId;
    case Provider::kMongoDb:
      return detail::kMongoId;
    case Provider::kRedis:
      return detail::kRedisKey;
    case Provider::kDynamoDb:
      return detail::kDynamoPartitionKey;
  }
  return detail::kElasticsearchId;  // unreachable; the tightest limit
}

// The one definition of the inbox shape: {prefix}{tenant}:{messageId}:{handlerType}.
void build(KeyBuilder& key, Provider provider, const InboxEntryTerms& terms) {
  key.constant(prefix_for(provider));
  key.term("tenant", terms.tenant);
  key.constant(detail::kSeparatorText);
  key.term("message id", terms.message_id);
  key.constant(detail::kSeparatorText);
  key.term("handler type", terms.handler_type);
}

}  // namespace

Key compose_inbox_entry_id(Provider provider, const InboxEntryTerms& terms) {
  KeyBuilder key(provider, kInboxWhat, limit_for(provider), KeyBuilder::Mode::kThrow);
  build(key, provider, terms);
  return std::move(key).finish();
}

std::optional<InboxEntryTerms> parse_inbox_entry_id(Provider provider, std::string_view id) {
  std::string_view rest = id;
  if (!detail::consume_prefix(rest, prefix_for(provider))) {
    return std::nullopt;
  }
  const auto parts = detail::split_exact<3>(rest, detail::kSeparator);
  if (!parts) {
    return std::nullopt;
  }
  auto decoded = detail::decode_all(*parts);
  if (!decoded) {
    return std::nullopt;
  }
  InboxEntryTerms terms{std::move((*decoded)[0]), std::move((*decoded)[1]),
                        std::move((*decoded)[2])};
  // Only the canonical spelling parses: re-compose and compare byte for byte.
  KeyBuilder key(provider, kInboxWhat, limit_for(provider), KeyBuilder::Mode::kTry);
  build(key, provider, terms);
  const std::optional<std::string> recomposed = std::move(key).try_finish();
  if (!recomposed || *recomposed != id) {
    return std::nullopt;
  }
  return terms;
}

// The legacy id was exactly tenant + "_" + messageId + "_" + handlerType. With the
// last two known exactly (from the entry's own fields), whatever precedes the suffix
// is the tenant; this is also the test for "still on the old shape", since a current
// id has ':' (never '_') immediately before the handler type it was composed from.
std::optional<std::string> recover_legacy_inbox_tenant(std::string_view old_id,
                                                       std::string_view message_id,
                                                       std::string_view handler_type) {
  std::string suffix = "_";
  suffix += message_id;
  suffix += '_';
  suffix += handler_type;
  if (old_id.size() <= suffix.size() || !old_id.ends_with(suffix)) {
    return std::nullopt;
  }
  return std::string(old_id.substr(0, old_id.size() - suffix.size()));
}

InboxIdRekey rekey_inbox_entry_id(Provider provider, std::string_view id,
                                  std::string_view message_id, std::string_view handler_type) {
  // In double quotes, as JSON writes strings (the exported lines are JSON).
  const auto quoted = [](std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
      if (c == '"' || c == '\\') {
        out += '\\';
      }
      out += c;
    }
    return out + '"';
  };
  if (const auto terms = parse_inbox_entry_id(provider, id)) {
    if (terms->message_id == message_id && terms->handler_type == handler_type) {
      return {.outcome = InboxIdRekey::Outcome::kCurrent};
    }
    return {.outcome = InboxIdRekey::Outcome::kRefused,
            .reason = "has the id " + quoted(id) + ", on the current shape, but it names message " +
                      quoted(terms->message_id) + " and handler " + quoted(terms->handler_type) +
                      ", while its fields say " + quoted(message_id) + " and " +
                      quoted(handler_type)};
  }
  const std::optional<std::string> tenant =
      recover_legacy_inbox_tenant(id, message_id, handler_type);
  if (!tenant) {
    return {.outcome = InboxIdRekey::Outcome::kRefused,
            .reason = "has the id " + quoted(id) +
                      ", on neither shape: not the current id, and not the legacy "
                      "{tenant}_{messageId}_{handlerType} with its messageId " +
                      quoted(message_id) + " and handlerType " + quoted(handler_type)};
  }
  try {
    return {.outcome = InboxIdRekey::Outcome::kRekey,
            .new_id = compose_inbox_entry_id(provider, {.tenant = *tenant,
                                                        .message_id = std::string(message_id),
                                                        .handler_type = std::string(handler_type)})
                          .value};
  } catch (const Error& error) {
    return {.outcome = InboxIdRekey::Outcome::kRefused,
            .reason = "has the legacy id " + quoted(id) + ", whose recovered tenant " +
                      quoted(*tenant) + " gives no valid id: " + error.what()};
  }
}

}  // namespace docket::keys
