// docket keys inbox | legacy-tenant: inbox entry ids, and recovering the tenant from
// an id on the legacy '_'-joined shape.
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "docket/core/error.h"
#include "docket/keys/inbox_key.h"
#include "key_output.h"
#include "keys_subcommands.h"
#include "provider_option.h"

namespace docket::tool {
namespace {

using keys::Provider;

struct InboxOptions {
  std::string provider;
  std::string tenant;
  std::string message_id;
  std::string handler;
  bool json = false;
};

struct LegacyTenantOptions {
  std::string old_id;
  std::string message_id;
  std::string handler;
  bool json = false;
};

void add_message_and_handler(CLI::App& command, std::string& message_id, std::string& handler) {
  command.add_option("--message-id", message_id, "The message's id")->required();
  command.add_option("--handler", handler, "The handler's type name, e.g. MyApp.OrderHandler")
      ->required();
}

// The id docket now writes for the recovered terms on `provider`, as JSON; when only
// its length is refused, {"refused": why} and `why` is noted on stderr, because the
// tenant itself was recovered. A refused term still refuses the command.
nlohmann::json new_inbox_id_json(Provider provider, const keys::InboxEntryTerms& terms) {
  try {
    return key_json(keys::compose_inbox_entry_id(provider, terms));
  } catch (const KeyTooLongError& error) {
    std::cerr << "docket: note: " << error.what() << '\n';
    return {{"provider", std::string(keys::provider_name(provider))},
            {"refused", std::string(error.what())}};
  }
}

}  // namespace

void add_inbox_key_subcommand(CLI::App& keys_group) {
  CLI::App* command =
      keys_group.add_subcommand("inbox", "Inbox entry id of a (tenant, message id, handler)");
  command->footer(
      "The inbox entry records that a handler has handled a message for a tenant, so a\n"
      "redelivery is recognised as a duplicate. Prints the id alone on one line.\n"
      "Shapes (terms escaped per provider; see docs/keys.md):\n"
      "  firestore      document id    inbox:{tenant}:{messageId}:{handler}\n"
      "  elasticsearch  _id            {tenant}:{messageId}:{handler}\n"
      "  cosmos         item id        {tenant}:{messageId}:{handler}\n"
      "  mongodb        _id            {tenant}:{messageId}:{handler}\n"
      "  redis          key            inbox:{tenant}:{messageId}:{handler}\n"
      "  dynamodb       partition key  {tenant}:{messageId}:{handler}");
  auto options = std::make_shared<InboxOptions>();
  add_provider_option(*command, options->provider, provider_names());
  add_tenant_option(*command, options->tenant);
  add_message_and_handler(*command, options->message_id, options->handler);
  add_json_flag(*command, options->json);
  command->callback([options] {
    print_key(
        keys::compose_inbox_entry_id(provider_named(options->provider),
                                     {options->tenant, options->message_id, options->handler}),
        options->json);
  });
}

void add_legacy_tenant_subcommand(CLI::App& keys_group) {
  CLI::App* command = keys_group.add_subcommand(
      "legacy-tenant", "Recover the tenant from a legacy '_'-joined inbox id");
  command->footer(
      "Legacy Firestore and Elasticsearch inbox ids were {tenant}_{messageId}_{handler}.\n"
      "Given such an id and the entry's own messageId and handlerType fields, the tenant is\n"
      "whatever precedes the suffix _{messageId}_{handler}. That join is ambiguous, so\n"
      "docket never writes it. Prints the tenant alone on one line; an id that does not end\n"
      "with the suffix exits 1.");
  auto options = std::make_shared<LegacyTenantOptions>();
  command->add_option("--old-id", options->old_id, "The entry's id on the legacy shape")
      ->required();
  add_message_and_handler(*command, options->message_id, options->handler);
  add_json_flag(*command, options->json,
                "tenant, old_id, message_id, handler, and the ids docket writes now "
                "(firestore, elasticsearch)");
  command->callback([options] {
    const std::optional<std::string> tenant =
        keys::recover_legacy_inbox_tenant(options->old_id, options->message_id, options->handler);
    if (!tenant) {
      throw InvalidInputError(
          "'" + options->old_id + "' is not a legacy inbox id for message id '" +
          options->message_id + "' and handler '" + options->handler +
          "': it does not end with '_" + options->message_id + "_" + options->handler +
          "' after a non-empty tenant. Check the entry's messageId and handlerType fields; "
          "an id already on the current shape needs no recovery.");
    }
    // Composing the new ids validates every term (UTF-8, non-empty) before anything is
    // printed, so the JSON below only ever holds validated text.
    const keys::InboxEntryTerms terms{*tenant, options->message_id, options->handler};
    nlohmann::json firestore = new_inbox_id_json(Provider::kFirestore, terms);
    nlohmann::json elasticsearch = new_inbox_id_json(Provider::kElasticsearch, terms);
    if (!options->json) {
      std::cout << *tenant << '\n';
      return;
    }
    print_json({
        {"tenant", *tenant},
        {"old_id", options->old_id},
        {"message_id", options->message_id},
        {"handler", options->handler},
        {"firestore", std::move(firestore)},
        {"elasticsearch", std::move(elasticsearch)},
    });
  });
}

}  // namespace docket::tool
