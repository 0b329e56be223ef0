// allocation_test.cpp: receiving an aws-chunked body costs no heap allocation per chunk — the decoder, the
// chunk signature checks and the digests all work in fixed state. The same 1 MiB object is uploaded as 16 and
// as 128 chunks; the operator new calls the whole exchange makes (server and test client, on every thread:
// counted process-wide by testing/allocation_counter.cpp) must not grow with the chunk count.
#include <catch2/catch.hpp>

#include "allocation_counter.h"
#include "raw_http_client.h"
#include "s3_request_builder.h"
#include "s3up/mock_server.h"
#include "s3up/sigv4.h"

using s3up::mock::Server;
using namespace s3up::test;
namespace sigv4 = s3up::sigv4;

TEST_CASE("no heap allocation per aws-chunked chunk") {
  Server server;
  const std::string data = pattern_bytes(1 << 20);
  // CRC32C of pattern_bytes(1 << 20), computed with Python (bitwise reflected CRC32C, poly 0x82F63B78).
  const std::string crc32c = "ZFYo4Q==";
  auto mode = GENERATE(sigv4::streaming_unsigned_payload_trailer, sigv4::streaming_signed_payload,
                       sigv4::streaming_signed_payload_trailer);
  INFO(mode);
  bool trailer = mode != sigv4::streaming_signed_payload;

  auto allocations_for = [&](std::size_t chunk_size) {
    RequestSpec spec =
        streaming_spec("/bucket/key", mode, data.size(), trailer ? "x-amz-checksum-crc32c" : "");
    auto built = build_request(spec, server.port());
    std::string body = aws_chunked_body(built, mode, data, chunk_size,
                                        trailer ? "x-amz-checksum-crc32c:" + crc32c : std::string());
    std::string head = built.head(body.size());
    RawHttpConnection connection(server.port());
    CountingScope counting;
    connection.send(head);
    connection.send(body);
    auto response = connection.read_response();
    const long counted = static_cast<long>(counting.counts().operator_new);
    REQUIRE(response);
    INFO(response->body);
    REQUIRE(response->status == 200);
    return counted;
  };
  allocations_for(65536);  // first PUT: creates the bucket and the key, which later PUTs only replace
  long few = allocations_for(65536);  // 16 chunks
  long many = allocations_for(8192);  // 128 chunks
  // One allocation per chunk would add 112; allow a little for anything the scheduler reorders.
  CHECK(many - few < 16);
  CHECK(few > 0);  // the counter sees this exchange (its connection thread, the response strings...)
}
