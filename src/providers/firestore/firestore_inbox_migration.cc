#include "providers/firestore/firestore_inbox_migration.h"

#include <array>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/inbox/inbox_schema.h"
#include "docket/keys/inbox_key.h"
#include "providers/firestore/firestore_claim_document.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_inbox_document.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/legacy_probe.h"

namespace docket::firestore::detail {
namespace {

// Documents read a page.
constexpr std::size_t kMigrationPageDocuments = 300;

// A field docket writes on every entry of an inbox collection (besides the tenant,
// which a legacy entry held in its id alone): its name, the Value kind it holds, and
// whether docket writes nullValue for "none".
struct EntryField {
  std::string_view name;
  std::string_view kind;
  bool nullable;
};

// The transactional inbox's entry (firestore_inbox_document.h).
constexpr std::array<EntryField, 8> kDedupFields{{
    {inbox::kMessageId, "stringValue", false},
    {inbox::kHandlerType, "stringValue", false},
    {inbox::kEventType, "stringValue", false},
    {inbox::kOccurredAt, "timestampValue", false},
    {inbox::kProcessedAt, "timestampValue", false},
    {inbox::kSource, "stringValue", true},
    {inbox::kCausationId, "stringValue", true},
    {inbox::kCorrelationId, "stringValue", true},
}};

// The claim inbox's entry (firestore_claim_document.h).
constexpr std::array<EntryField, 12> kClaimFields{{
    {claim::kMessageId, "stringValue", false},
    {claim::kHandlerType, "stringValue", false},
    {claim::kStatus, "stringValue", false},
    {claim::kRetryCount, "integerValue", false},
    {claim::kReceivedAt, "timestampValue", false},
    {claim::kUpdatedAt, "timestampValue", false},
    {claim::kOwner, "stringValue", true},
    {claim::kClaimId, "stringValue", true},
    {claim::kLeaseUntil, "timestampValue", true},
    {claim::kProcessedAt, "timestampValue", true},
    {claim::kLastError, "stringValue", true},
    {claim::kNextAttemptAt, "timestampValue", true},
}};

// One inbox collection: what docket writes on each of its entries, and how docket
// reads one back (nullptr: nothing reads an entry's fields but the queries).
struct InboxCollection {
  std::string name;
  std::span<const EntryField> fields;
  void (*read_back)(const Document& document, std::string_view where) = nullptr;
};

// The fields of a legacy entry moved to its current id, as docket would have written
// them: its own, the recovered tenant added, a nullable field it lacks written as
// null; or why it cannot be (a field docket needs missing or of another kind, a tenant
// field naming another tenant), and the entry stays where it is.
struct CompletedEntry {
  nlohmann::json fields;
  std::string refusal;  // empty: moved with `fields`
};

CompletedEntry complete_entry(const Document& document, const std::string& tenant,
                              std::span<const EntryField> spec) {
  CompletedEntry out{.fields = document.fields, .refusal = {}};
  const std::string tenant_name(inbox::kTenant);
  if (const auto own = document.fields.find(tenant_name); own != document.fields.end()) {
    const std::string* named = own->contains("stringValue")
                                   ? own->at("stringValue").get_ptr<const std::string*>()
                                   : nullptr;
    if (named == nullptr) {
      out.refusal = "has a tenant field that holds no string; mend it and run again";
    } else if (*named != tenant) {
      out.refusal = "names the tenant '" + *named +
                    "' in its own field, but its legacy id gives the tenant '" + tenant +
                    "'; it is left as it is: find which is right, mend the other, run again";
    }
    if (!out.refusal.empty()) {
      return out;
    }
  }
  out.fields[tenant_name] = string_value(tenant);
  std::string missing;
  std::size_t missing_count = 0;
  for (const EntryField& field : spec) {
    const std::string name(field.name);
    const auto value = out.fields.find(name);
    if (value == out.fields.end()) {
      if (field.nullable) {
        out.fields[name] = null_value();
      } else {
        missing += (missing.empty() ? "" : ", ") + name;
        ++missing_count;
      }
      continue;
    }
    const bool holds_kind = value->is_object() && value->contains(field.kind);
    const bool null = value->is_object() && value->contains("nullValue");
    if (!holds_kind && !(null && field.nullable)) {
      out.refusal = "has the field " + name + " as " + value->dump() + ", where docket writes a " +
                    std::string(field.kind) + (field.nullable ? " or nullValue" : "") +
                    ", so docket could not read it once moved; mend it and run again";
      return out;
    }
  }
  if (missing_count > 0) {
    out.refusal = std::string("lacks the field") + (missing_count == 1 ? " " : "s ") + missing +
                  " that docket writes on every entry of this collection, so docket could "
                  "not read it once moved; it is left as it is: add " +
                  (missing_count == 1 ? "it" : "them") +
                  ", or delete the entry if its message may be processed again";
  }
  return out;
}

void read_back_claim(const Document& document, std::string_view where) {
  (void)claim::claim_entry_of(document, where);
}

// The string field `name` of `document`, or nullptr when it is absent or no string.
const std::string* string_field(const Document& document, std::string_view name) {
  const auto field = document.fields.find(name);
  if (field == document.fields.end() || !field->is_object()) {
    return nullptr;
  }
  const auto value = field->find("stringValue");
  return value == field->end() || !value->is_string() ? nullptr
                                                      : &value->get_ref<const std::string&>();
}

// The re-key rule (keys::rekey_inbox_entry_id) applied to a stored entry; refused when
// it lacks the fields the tenant is recovered from.
keys::InboxIdRekey classify(const Document& document) {
  const std::string* message_id = string_field(document, "messageId");
  const std::string* handler_type = string_field(document, "handlerType");
  if (message_id == nullptr || handler_type == nullptr) {
    return {.outcome = keys::InboxIdRekey::Outcome::kRefused,
            .reason =
                "has no messageId or handlerType string field, from which alone the "
                "tenant can be recovered"};
  }
  return keys::rekey_inbox_entry_id(keys::Provider::kFirestore, document.id, *message_id,
                                    *handler_type);
}

std::string collection_words(const std::string& collection) {
  return "Firestore collection '" + collection + "'";
}

class CollectionMigration {
 public:
  CollectionMigration(const Client& client, InboxCollection collection,
                      const InboxIdMigrationOptions& options, InboxIdMigration& report)
      : client_(client),
        collection_(std::move(collection.name)),
        spec_(collection.fields),
        read_back_(collection.read_back),
        where_(collection_words(collection_)),
        options_(options),
        report_(report) {}

  void run() {
    query_pages(client_, {.collection = collection_}, kMigrationPageDocuments,
                [&](std::vector<Document>& page) {
                  for (const Document& document : page) {
                    examine(document);
                  }
                  if (options_.on_progress) {
                    options_.on_progress(report_.examined);
                  }
                  return true;
                });
  }

 private:
  void examine(const Document& document) {
    if (moved_to_.contains(document.id)) {
      return;  // written by this run, read again further on
    }
    ++report_.examined;
    const keys::InboxIdRekey rekey = classify(document);
    switch (rekey.outcome) {
      case keys::InboxIdRekey::Outcome::kCurrent:
        ++report_.current;
        return;
      case keys::InboxIdRekey::Outcome::kRefused:
        refuse(document, rekey.reason);
        return;
      case keys::InboxIdRekey::Outcome::kRekey:
        move(document, rekey.new_id);
        return;
    }
  }

  // The entry's fields under its new id (complete_entry), checked the way docket reads
  // them back; nullopt (and refused) when docket could not read them.
  std::optional<nlohmann::json> completed(const Document& document, const std::string& new_id) {
    // classify() found the messageId and handlerType strings the tenant comes from.
    const std::optional<std::string> tenant =
        keys::recover_legacy_inbox_tenant(document.id, *string_field(document, inbox::kMessageId),
                                          *string_field(document, inbox::kHandlerType));
    CompletedEntry entry = complete_entry(document, tenant.value_or(""), spec_);
    if (entry.refusal.empty() && read_back_ != nullptr) {
      try {
        read_back_(Document{.name = {}, .id = new_id, .fields = entry.fields, .update_time = {}},
                   where_);
      } catch (const Error& error) {
        entry.refusal = std::string("could not be read by docket once moved: ") + error.what();
      }
    }
    if (!entry.refusal.empty()) {
      refuse(document, std::move(entry.refusal));
      return std::nullopt;
    }
    return std::move(entry.fields);
  }

  // One commit: the entry under its new id, created where that id is free, and the old
  // one deleted where it is unchanged since it was read.
  void move(const Document& document, const std::string& new_id) {
    std::optional<nlohmann::json> fields = completed(document, new_id);
    if (!fields) {
      return;
    }
    if (options_.dry_run) {
      ++report_.rekeyed;
      return;
    }
    const std::array<Write, 2> writes{Write{.collection = collection_,
                                            .id = new_id,
                                            .fields = std::move(*fields),
                                            .precondition = {.exists = false}},
                                      Write{.collection = collection_,
                                            .id = document.id,
                                            .fields = std::nullopt,
                                            .precondition = {.update_time = document.update_time}}};
    if (commit(client_, writes, "docket migrate inbox-ids (" + where_ + ")").applied) {
      moved_to_.insert(new_id);
      ++report_.rekeyed;
      return;
    }
    if (get_document(client_, collection_, new_id)) {
      refuse(document, "has the legacy id, but its current id \"" + new_id +
                           "\" holds an entry already (written since the inbox was quiesced?); "
                           "both are left as they are: compare them, keep one, run again");
    } else {
      refuse(document,
             "changed while it was being re-keyed; it is left as it is: quiesce the "
             "inbox and run again");
    }
  }

  void refuse(const Document& document, std::string reason) {
    report_.refused.push_back({.where = where_, .id = document.id, .reason = std::move(reason)});
  }

  const Client& client_;
  std::string collection_;
  std::span<const EntryField> spec_;
  void (*read_back_)(const Document& document, std::string_view where);
  std::string where_;
  const InboxIdMigrationOptions& options_;
  InboxIdMigration& report_;
  std::set<std::string> moved_to_;
};

}  // namespace

std::vector<std::string> inbox_collections(const Client& client) {
  return {client.url().collection(kInboxMessagesTable),
          client.url().collection(claim::kCollection)};
}

InboxIdMigration migrate_legacy_inbox_ids(std::string_view url,
                                          const InboxIdMigrationOptions& options) {
  const Client client(parse_store_url(url));
  InboxIdMigration report;
  const std::array<InboxCollection, 2> collections{
      InboxCollection{.name = client.url().collection(kInboxMessagesTable),
                      .fields = kDedupFields,
                      .read_back = nullptr},
      InboxCollection{.name = client.url().collection(claim::kCollection),
                      .fields = kClaimFields,
                      .read_back = read_back_claim}};
  for (const InboxCollection& collection : collections) {
    CollectionMigration(client, collection, options, report).run();
  }
  return report;
}

LegacyKeyPlace scan_legacy_inbox_ids(const Client& client, const std::string& collection,
                                     std::size_t max_examples) {
  LegacyKeyPlace place{.where = collection_words(collection),
                       .records = "inbox entry documents",
                       .exists = false,
                       .legacy = 0,
                       .examples = {}};
  kit::LegacyKeyTally tally(place, max_examples);
  query_pages(client, {.collection = collection}, kMigrationPageDocuments,
              [&](std::vector<Document>& page) {
                place.exists = true;
                for (const Document& document : page) {
                  if (classify(document).outcome != keys::InboxIdRekey::Outcome::kCurrent) {
                    tally.add(document.id, document.id);
                  }
                }
                return true;
              });
  return place;
}

}  // namespace docket::firestore::detail
