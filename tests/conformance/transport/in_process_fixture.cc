// The in-process transport under the transport conformance suite: a routing with one
// unroutable destination and a 4 KiB message limit.
#include <atomic>
#include <string>

#include "docket/transports/in_process_transport.h"
#include "transport_fixture.h"

namespace docket::conformance {
namespace {

constexpr std::size_t kMaxMessageBytes = 4096;

class InProcessFixture final : public TransportFixture {
 public:
  Transport& transport() override { return transport_; }
  std::string fresh_destination() override { return "dest-" + std::to_string(++next_); }
  std::string unroutable_destination() override { return "unbound"; }
  std::size_t oversized_payload_bytes() override { return kMaxMessageBytes + 1; }

 private:
  InProcessTransport transport_{
      1000, {}, {.unroutable = {"unbound"}, .max_message_bytes = kMaxMessageBytes}};
  int next_ = 0;
};

const TransportFixtureRegistrar kInProcess{
    {.name = "in_process", .make = [] { return std::make_unique<InProcessFixture>(); }}};

}  // namespace
}  // namespace docket::conformance
