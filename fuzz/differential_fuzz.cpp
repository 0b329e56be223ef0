// fuzz/differential_fuzz.cpp: libFuzzer target. The input bytes choose a differential case (mode, checksum,
// chunk size, body, read sizes, short source reads, restart point, declared-size mismatch) and
// differential_check.cpp checks it: body encoders against the mock server's decoder, compute_checksum and
// an independent signer chain. Any difference aborts, which libFuzzer reports as a crash.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz/differential_check.h"

namespace {

class InputEntropy final : public s3up::differential::Entropy {
 public:
  explicit InputEntropy(FuzzedDataProvider& input) : input_(input) {}
  std::uint64_t between(std::uint64_t low, std::uint64_t high) override {
    return input_.ConsumeIntegralInRange<std::uint64_t>(low, high);
  }

 private:
  FuzzedDataProvider& input_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  InputEntropy entropy(input);
  const s3up::differential::Case c = s3up::differential::make_case(entropy);
  // S3UP_FUZZ_DESCRIBE=1: say which case each input makes (choosing seeds, reading a crash).
  if (std::getenv("S3UP_FUZZ_DESCRIBE") != nullptr)
    std::fprintf(stderr, "case: %s\n", s3up::differential::describe(c).c_str());
  if (auto failure = s3up::differential::check(c)) {
    std::fprintf(stderr, "differential mismatch: %s\n  case: %s\n", failure->c_str(),
                 s3up::differential::describe(c).c_str());
    std::abort();
  }
  return 0;
}
