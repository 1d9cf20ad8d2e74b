// One wake signal (docket/core/wake_signal.h) per database in this process: every store
// a process opens on one database (an SQLite file, say) shares the signal its commits
// notify, whichever store object the committing unit of work came from (an inbox
// handler's follow-up message wakes the relay of the outbox store).
//
// The registry holds the signals weakly: a signal lives while a store on its database
// does, and a database opened again later gets a fresh one.
//
// Thread-safety: safe to call from many threads at once.
#ifndef DOCKET_PROVIDERS_KIT_WAKE_SIGNALS_H_
#define DOCKET_PROVIDERS_KIT_WAKE_SIGNALS_H_

#include <memory>
#include <string_view>

#include "docket/core/wake_signal.h"

namespace docket::kit {

// The signal of the database named `database` (a provider's name for it that no
// other database shares, e.g. "sqlite:" + the file's canonical path).
std::shared_ptr<WakeSignal> wake_signal_of(std::string_view database);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_WAKE_SIGNALS_H_
