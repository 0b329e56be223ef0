// client/test_hooks.h: what tests may reach inside a Client and nothing else may: the signing clock's offset,
// so that a test can make a client's clock wrong (and see RequestTimeTooSkewed corrected) without sleeping.
// Not installed, not part of the API.
#pragma once

#include <chrono>

#include "s3up/client.h"

namespace s3up {

struct ClientTestHooks {
  // Shifts the time the client signs with, as a wrong local clock would.
  static void set_clock_offset(Client& client, std::chrono::seconds offset);
  static std::chrono::seconds clock_offset(const Client& client);
};

}  // namespace s3up
