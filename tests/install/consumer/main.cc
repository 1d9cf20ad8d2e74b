// Composes the Firestore inbox reference vector through the installed docket::core and
// exits non-zero unless it is byte for byte the documented id.
#include <docket/keys/inbox_key.h>

#include <iostream>
#include <string>

int main() {
  const std::string expected = "inbox:acme:corp_42:MyApp.Handlers.OrderHandler";
  const docket::keys::Key key = docket::keys::compose_inbox_entry_id(
      docket::keys::Provider::kFirestore, {"acme", "corp_42", "MyApp.Handlers.OrderHandler"});
  if (key.value != expected) {
    std::cerr << "consumer: expected " << expected << ", got " << key.value << '\n';
    return 1;
  }
  std::cout << "consumer: " << key.value << '\n';
  return 0;
}
