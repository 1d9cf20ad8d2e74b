// The message the document providers' inbox tests deliver: a "note" for consumer
// "billing", its dispatcher built over a provider's transaction type, the same on every
// provider (each provider's inbox fixture, src/providers/<name>/tests/, holds the store).
#ifndef DOCKET_TESTS_DOCUMENT_INBOX_NOTE_H_
#define DOCKET_TESTS_DOCUMENT_INBOX_NOTE_H_

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_store.h"

namespace docket::document_tests {

struct Note {
  std::string text;
};
inline void to_json(nlohmann::json& j, const Note& note) {
  j = {{"text", note.text}};
}
inline void from_json(const nlohmann::json& j, Note& note) {
  j.at("text").get_to(note.text);
}

// A "note" envelope named `message_id`, occurred at a fixed time.
inline Envelope note(std::string message_id) {
  Envelope envelope;
  envelope.message_id = std::move(message_id);
  envelope.event_type = "note";
  envelope.payload = R"({"text":"hello"})";
  envelope.occurred_at = Timestamp(std::chrono::seconds(1'700'000'000));
  return envelope;
}

// A dispatcher on `store` for consumer "billing" whose "note" handler runs `handler`
// in the provider's transaction `Tx` (the registry requires that type of the store).
template <class Tx>
InboxDispatcher note_dispatcher(InboxStore& store,
                                std::function<void(const Envelope&, Tx&)> handler,
                                DedupCheck dedup) {
  HandlerRegistry handlers;
  handlers.on<Note>("note",
                    [handler = std::move(handler)](const Note&, Tx& tx, HandlerContext& ctx) {
                      handler(ctx.envelope(), tx);
                    });
  return InboxDispatcher(store, InboxOptions("billing", dedup), std::move(handlers));
}

}  // namespace docket::document_tests

#endif  // DOCKET_TESTS_DOCUMENT_INBOX_NOTE_H_
