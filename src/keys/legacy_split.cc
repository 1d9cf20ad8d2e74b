#include "docket/keys/legacy_split.h"

#include <algorithm>
#include <vector>

#include "docket/core/error.h"
#include "keys/key_builder.h"

namespace docket::keys {
// Named, not anonymous: unity builds join this file with others of src/keys.
namespace legacy_split_impl {

// The DynamoDB saga partition key's constant prefix (saga_key.cc), and the joins of
// the legacy shapes.
constexpr std::string_view kSplitSagaPrefix = "SAGA#";
constexpr char kStreamJoin = ':';
constexpr char kFirestoreSagaJoin = '_';
// Candidate splits an ambiguity refusal lists.
constexpr std::size_t kListedSplits = 4;

// How one legacy join of a type and an id reads: which comes first, and the words of
// its refusals.
struct Join {
  char separator;
  bool type_first;          // {type}{sep}{id}; else {id}{sep}{type}
  std::string_view type;    // "aggregate type"
  std::string_view id;      // "aggregate id"
  std::string_view option;  // "--aggregate-type"
};

constexpr Join kStreamPair{kStreamJoin, true, "aggregate type", "aggregate id", "--aggregate-type"};
constexpr Join kSagaPair{kFirestoreSagaJoin, false, "saga type", "saga id", "--saga-type"};

struct Pair {
  std::string type;
  std::string id;
  std::string refusal;
};

std::string quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

// `joined` cut at byte `at` (the separator's position) into type and id.
Pair cut(const Join& join, std::string_view joined, std::size_t at) {
  const std::string_view before = joined.substr(0, at);
  const std::string_view after = joined.substr(at + 1);
  return join.type_first ? Pair{std::string(before), std::string(after), {}}
                         : Pair{std::string(after), std::string(before), {}};
}

Pair refused(std::string reason) {
  return Pair{{}, {}, std::move(reason)};
}

Pair checked(const Join& join, Pair pair) {
  if (pair.refusal.empty() && (pair.type.empty() || pair.id.empty())) {
    return refused("would leave an empty " + std::string(pair.type.empty() ? join.type : join.id) +
                   ", which no key may hold");
  }
  return pair;
}

// The split the record's own fields name; they must join to `joined` exactly.
Pair split_by_fields(const Join& join, std::string_view joined, const LegacyFieldTerms& fields) {
  const std::string sep(1, join.separator);
  if (fields.type && fields.id) {
    const std::string expected =
        join.type_first ? *fields.type + sep + *fields.id : *fields.id + sep + *fields.type;
    if (expected != joined) {
      return refused("does not join the " + std::string(join.type) + " " + quoted(*fields.type) +
                     " and the " + std::string(join.id) + " " + quoted(*fields.id) +
                     " its own fields name; the record is not one docket can re-key by its "
                     "fields: correct or remove it");
    }
    return checked(join, Pair{*fields.type, *fields.id, {}});
  }
  // One field: the other term is what the key holds beside it.
  const bool type_known = fields.type.has_value();
  const std::string& known = type_known ? *fields.type : *fields.id;
  const bool known_first = type_known == join.type_first;
  const std::string edge = known_first ? known + sep : sep + known;
  const bool fits = joined.size() > edge.size() &&
                    (known_first ? joined.starts_with(edge) : joined.ends_with(edge));
  if (!fits) {
    return refused("does not hold the " + std::string(type_known ? join.type : join.id) + " " +
                   quoted(known) + " its own field names where the shape puts it");
  }
  const std::string other(known_first ? joined.substr(edge.size())
                                      : joined.substr(0, joined.size() - edge.size()));
  return checked(join, type_known ? Pair{known, other, {}} : Pair{other, known, {}});
}

// The split of `joined` that the separator, or else the operator's declared types,
// allow; a refusal naming the candidates otherwise.
Pair split_pair(const Join& join, std::string_view joined, const LegacyFieldTerms& fields,
                std::span<const std::string> declared) {
  if (fields.type || fields.id) {
    return split_by_fields(join, joined, fields);
  }
  std::vector<std::size_t> positions;
  for (std::size_t at = joined.find(join.separator); at != std::string_view::npos;
       at = joined.find(join.separator, at + 1)) {
    positions.push_back(at);
  }
  const std::string sep = quoted(std::string(1, join.separator));
  if (positions.empty()) {
    return refused("holds no " + sep + " joining a " + std::string(join.type) + " and a " +
                   std::string(join.id) + ", so it is on no legacy shape docket knows");
  }
  if (positions.size() == 1) {
    return checked(join, cut(join, joined, positions.front()));
  }
  // Several separators: the join is ambiguous unless exactly one declared type fits.
  std::vector<Pair> matches;
  for (const std::size_t at : positions) {
    Pair candidate = cut(join, joined, at);
    if (std::find(declared.begin(), declared.end(), candidate.type) != declared.end()) {
      matches.push_back(std::move(candidate));
    }
  }
  if (matches.size() == 1) {
    return checked(join, std::move(matches.front()));
  }
  std::string splits;
  for (std::size_t i = 0; i < positions.size() && i < kListedSplits; ++i) {
    const Pair candidate = cut(join, joined, positions[i]);
    splits += (i == 0 ? "" : ", ") + std::string(join.type) + " " + quoted(candidate.type) +
              " with " + std::string(join.id) + " " + quoted(candidate.id);
  }
  if (positions.size() > kListedSplits) {
    splits += ", ...";
  }
  return refused("holds " + sep + " " + std::to_string(positions.size()) +
                 " times, so the raw terms it joined cannot be told apart (" + splits + "); " +
                 (matches.empty() ? "name its " + std::string(join.type) + " with " +
                                        std::string(join.option) + " to choose"
                                  : "more than one " + std::string(join.option) +
                                        " given fits it; name only the right one"));
}

LegacyStreamSplit stream_split(Pair pair, std::optional<std::int64_t> version) {
  return LegacyStreamSplit{.aggregate_type = std::move(pair.type),
                           .aggregate_id = std::move(pair.id),
                           .version = version,
                           .refusal = std::move(pair.refusal)};
}

// A Cosmos DB legacy saga: its whole id is the saga id, and its partition key value
// (`partition`) the saga type, so nothing is split; the record's own fields, where it
// has them, must name the same terms, or the record is not one docket wrote.
LegacySagaSplit cosmos_saga_split(std::string_view id, std::string_view partition,
                                  const LegacyFieldTerms& fields) {
  const auto refused_saga = [](std::string reason) {
    return LegacySagaSplit{.saga_type = {}, .saga_id = {}, .refusal = std::move(reason)};
  };
  if (id.empty()) {
    return refused_saga("has an empty id, so it names no saga");
  }
  if (partition.empty()) {
    return refused_saga("has an empty saga type (partition key)");
  }
  if (fields.id && *fields.id != id) {
    return refused_saga("is not the saga id " + quoted(*fields.id) +
                        " its own sagaId field names; the record is not one docket can re-key "
                        "by its fields: correct or remove it");
  }
  if (fields.type && *fields.type != partition) {
    return refused_saga("is in the partition of saga type " + quoted(partition) +
                        ", not of the saga type " + quoted(*fields.type) +
                        " its own field names; correct or remove it");
  }
  return LegacySagaSplit{
      .saga_type = std::string(partition), .saga_id = std::string(id), .refusal = {}};
}

}  // namespace legacy_split_impl

LegacyStreamSplit split_legacy_stream_key(Provider provider, std::string_view key,
                                          const LegacyFieldTerms& fields,
                                          std::span<const std::string> declared_types) {
  // Cosmos DB's legacy streamId and DynamoDB's legacy partition key are one shape.
  if (provider == Provider::kDynamoDb || provider == Provider::kCosmosDb) {
    return legacy_split_impl::stream_split(
        legacy_split_impl::split_pair(legacy_split_impl::kStreamPair, key, fields, declared_types),
        std::nullopt);
  }
  if (provider == Provider::kFirestore) {
    // The version is the last segment: a number holds no ':'.
    const std::size_t last = key.rfind(legacy_split_impl::kStreamJoin);
    const std::optional<std::int64_t> version =
        last == std::string_view::npos ? std::nullopt : detail::parse_version(key.substr(last + 1));
    if (!version) {
      return legacy_split_impl::stream_split(
          legacy_split_impl::refused("does not end in ':' and a version (a whole number), as a "
                                     "legacy event document id {aggregateType}:{aggregateId}:"
                                     "{version} does"),
          std::nullopt);
    }
    return legacy_split_impl::stream_split(
        legacy_split_impl::split_pair(legacy_split_impl::kStreamPair, key.substr(0, last), fields,
                                      declared_types),
        version);
  }
  throw InvalidInputError(std::string(provider_display_name(provider)) +
                          ": docket re-keys legacy event streams on Cosmos DB, DynamoDB and "
                          "Firestore only");
}

LegacySagaSplit split_legacy_saga_key(Provider provider, std::string_view key,
                                      std::string_view sort_key, const LegacyFieldTerms& fields,
                                      std::span<const std::string> declared_types) {
  if (provider == Provider::kDynamoDb) {
    std::string_view id = key;
    if (!detail::consume_prefix(id, legacy_split_impl::kSplitSagaPrefix) || id.empty()) {
      return {.saga_type = {},
              .saga_id = {},
              .refusal =
                  "does not begin with 'SAGA#' and a saga id, as a legacy saga key "
                  "SAGA#{sagaId} does"};
    }
    if (sort_key.empty()) {
      return {.saga_type = {}, .saga_id = {}, .refusal = "has an empty saga type (sort key)"};
    }
    return {.saga_type = std::string(sort_key), .saga_id = std::string(id), .refusal = {}};
  }
  if (provider == Provider::kCosmosDb) {
    return legacy_split_impl::cosmos_saga_split(key, sort_key, fields);
  }
  if (provider == Provider::kFirestore) {
    legacy_split_impl::Pair pair =
        legacy_split_impl::split_pair(legacy_split_impl::kSagaPair, key, fields, declared_types);
    return {.saga_type = std::move(pair.type),
            .saga_id = std::move(pair.id),
            .refusal = std::move(pair.refusal)};
  }
  throw InvalidInputError(std::string(provider_display_name(provider)) +
                          ": docket re-keys legacy sagas on Cosmos DB, DynamoDB and Firestore "
                          "only");
}

}  // namespace docket::keys
