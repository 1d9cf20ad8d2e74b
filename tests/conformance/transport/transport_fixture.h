// The transport conformance suite's cases, registered by each transport's fixture: a
// fixture file defines, at namespace scope,
//
//   const TransportFixtureRegistrar kInProcess{{.name = "in_process", .make = ...}};
//
// and the suite runs every test against every registered case (a registrar runs during
// static initialisation, before gtest evaluates the suite's generators). A broker's
// fixture (src/transports/<name>/) registers itself the same way; nothing here names it.
//
// Thread-safety: registration during static initialisation; reads after it.
#ifndef DOCKET_TESTS_CONFORMANCE_TRANSPORT_TRANSPORT_FIXTURE_H_
#define DOCKET_TESTS_CONFORMANCE_TRANSPORT_TRANSPORT_FIXTURE_H_

#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "docket/transports/transport.h"

namespace docket::conformance {

// One transport under test, fresh for each test.
class TransportFixture {
 public:
  virtual ~TransportFixture() = default;
  virtual Transport& transport() = 0;
  // A destination no other test uses, bound so that publishes to it are routed.
  virtual std::string fresh_destination() = 0;
  // A destination publishes to which are unroutable (nothing bound to it).
  virtual std::string unroutable_destination() = 0;
  // A payload size the transport refuses for good (over the broker's limit).
  virtual std::size_t oversized_payload_bytes() = 0;

  // Restarts the broker under transport() (its durable queues and persistent messages
  // survive; every connection is closed by it) and returns once a client can connect
  // again. Called only for a case registered with restarts_broker.
  virtual void restart_broker() {
    throw std::logic_error("this transport fixture cannot restart its broker");
  }
};

struct TransportCase {
  std::string name;  // the test-name suffix: "in_process"
  std::function<std::unique_ptr<TransportFixture>()> make;
  // Whether its fixture's restart_broker() can take the broker away from the transport
  // and give it back (a real broker on this machine): the broker-restart tests run on
  // the cases that can, and exist for no other.
  bool restarts_broker = false;
};

class TransportFixtureRegistry {
 public:
  static void add(TransportCase registered) { cases().push_back(std::move(registered)); }

  // Every registered case, by name. Throws std::logic_error when two share a name.
  // Every registered case that can restart its broker, by name.
  static std::vector<TransportCase> restarting_brokers() {
    std::vector<TransportCase> found = all();
    std::erase_if(found, [](const TransportCase& c) { return !c.restarts_broker; });
    return found;
  }

  static std::vector<TransportCase> all() {
    std::vector<TransportCase> sorted = cases();
    std::sort(sorted.begin(), sorted.end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
    for (std::size_t i = 1; i < sorted.size(); ++i) {
      if (sorted[i].name == sorted[i - 1].name) {
        throw std::logic_error("two transport conformance fixtures are named '" + sorted[i].name +
                               "': give each a name of its own");
      }
    }
    return sorted;
  }

 private:
  static std::vector<TransportCase>& cases() {
    static std::vector<TransportCase> registered;
    return registered;
  }
};

struct TransportFixtureRegistrar {
  explicit TransportFixtureRegistrar(TransportCase registered) {
    TransportFixtureRegistry::add(std::move(registered));
  }
};

}  // namespace docket::conformance

#endif  // DOCKET_TESTS_CONFORMANCE_TRANSPORT_TRANSPORT_FIXTURE_H_
