// differential_test.cpp: the deterministic twin of fuzz/differential_fuzz.cpp: 10,000 cases from a fixed-seed
// PRNG through the same generator and check (fuzz/differential_check.cpp): every body encoder's output,
// read in varied sizes, decoded by the mock server's aws-chunked decoder and compared with compute_checksum
// and an independent signer chain.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "fuzz/differential_check.h"
#include "s3up/body.h"

using s3up::differential::Case;
using s3up::differential::Mode;

TEST_CASE("differential: 10,000 seeded cases through every encoder and the mock server's decoder") {
  s3up::differential::SplitMix64 entropy(20261130);
  // What the cases covered, so that a generator change that stops exercising a path fails here.
  std::array<int, 4> modes{};
  int signed_trailers = 0, multi_chunk = 0, restarts = 0, size_mismatches = 0, bad_chunk_sizes = 0;
  int short_source_reads = 0, failures = 0;
  for (int i = 0; i < 10'000; ++i) {
    const Case c = s3up::differential::make_case(entropy);
    ++modes[static_cast<std::size_t>(c.mode)];
    if (c.mode == Mode::signed_chunks && c.algorithm) ++signed_trailers;
    if (c.body.size() > c.chunk_size && c.chunk_size >= s3up::min_chunk_size) ++multi_chunk;
    if (c.restart_after) ++restarts;
    if (c.size_delta != 0) ++size_mismatches;
    if (c.chunk_size < s3up::min_chunk_size) ++bad_chunk_sizes;
    if (!c.source_reads.empty()) ++short_source_reads;
    if (auto failure = s3up::differential::check(c)) {
      // Report the first few in full; count the rest.
      if (++failures <= 5)
        FAIL_CHECK("case " << i << ": " << *failure << "\n  " << s3up::differential::describe(c));
    }
  }
  CHECK(failures == 0);
  for (int count : modes) CHECK(count > 500);
  CHECK(signed_trailers > 500);
  CHECK(multi_chunk > 1000);
  CHECK(restarts > 1000);
  CHECK(size_mismatches > 200);
  CHECK(bad_chunk_sizes > 100);
  CHECK(short_source_reads > 1000);
}

// The check's signer must be the published chain, or a wrong verifier could agree with a wrong encoder.
// Reference §4.4: 66560 bytes of 'a' in 64 KiB chunks, CRC32C trailer, seed 106e2a8a...
TEST_CASE("differential: its signing context reproduces the reference §4.4 signed-trailer body") {
  const std::string body(66560, 'a');
  s3up::MemorySource source(body);
  s3up::SignedChunkEncoder encoder(source, s3up::differential::reference_signer(),
                                   s3up::make_checksum(s3up::ChecksumAlgorithm::crc32c), 65536);
  std::string encoded(encoder.encoded_length(), '\0');
  std::size_t at = 0;
  while (std::size_t n = encoder.fill(std::as_writable_bytes(std::span(encoded).subspan(at)))) at += n;
  REQUIRE(at == 66946);  // the reference's encoded length
  CHECK(encoded.starts_with(
      "10000;chunk-signature=b474d8862b1487a5145d686f57f013e54db672cee1c953b3010fb58501ef5aa2\r\n"));
  CHECK(encoded.find(
            "\r\n400;chunk-signature=1c1344b170168f8e65b41376b44b20fe354e373826ccbbe2c1d40a8cae51e5c7\r\n") !=
        std::string::npos);
  CHECK(encoded.ends_with(
      "\r\n0;chunk-signature=2ca2aba2005185cf7159c6277faf83795951dd77a3a99e6e65d5c9f85863f992\r\n"
      "x-amz-checksum-crc32c:sOO8/Q==\r\n"
      "x-amz-trailer-signature:d81f82fc3505edab99d459891051a732e8730629a2e4a59689829ca17fe2e435\r\n\r\n"));

  // And the check passes the same case, with the whole body in one read.
  Case c;
  c.mode = Mode::signed_chunks;
  c.algorithm = s3up::ChecksumAlgorithm::crc32c;
  c.chunk_size = 65536;
  c.body.assign(66560, std::byte{'a'});
  c.output_reads = {70000};
  CHECK_FALSE(s3up::differential::check(c));
}
