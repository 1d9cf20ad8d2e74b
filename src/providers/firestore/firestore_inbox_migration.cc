#include "providers/firestore/firestore_inbox_migration.h"

#include <array>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "docket/inbox/inbox_schema.h"
#include "docket/keys/inbox_key.h"
#include "providers/firestore/firestore_claim_document.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_query.h"
#include "providers/kit/legacy_probe.h"

namespace docket::firestore::detail {
namespace {

// Documents read a page.
constexpr std::size_t kMigrationPageDocuments = 300;

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
  CollectionMigration(const Client& client, std::string collection,
                      const InboxIdMigrationOptions& options, InboxIdMigration& report)
      : client_(client),
        collection_(std::move(collection)),
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

  // One commit: the entry under its new id, created where that id is free, and the old
  // one deleted where it is unchanged since it was read.
  void move(const Document& document, const std::string& new_id) {
    if (options_.dry_run) {
      ++report_.rekeyed;
      return;
    }
    const std::array<Write, 2> writes{Write{.collection = collection_,
                                            .id = new_id,
                                            .fields = document.fields,
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
  for (const std::string& collection : inbox_collections(client)) {
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
  query_pages(client, {.collection = collection}, kMigrationPageDocuments,
              [&](std::vector<Document>& page) {
                place.exists = true;
                for (const Document& document : page) {
                  if (classify(document).outcome != keys::InboxIdRekey::Outcome::kCurrent) {
                    kit::tally_legacy_key(place, document.id, max_examples);
                  }
                }
                return true;
              });
  return place;
}

}  // namespace docket::firestore::detail
