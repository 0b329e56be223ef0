// put_object_scripted_test.cpp: put_object against a scripted HTTP responder, for the answers the honest mock
// server never gives: a 2xx echoing another checksum, service errors with and without an XML body, a
// keep-alive connection dropped without an answer (curl resends the body: restart), an error answered before
// the body was read, a 200 answered before the body was read, and a server that never answers (a stall).
// Expected checksums are computed with Python (zlib.crc32, base64 of the big-endian bytes), request bytes are
// those the responder received.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "integration_support.h"
#include "s3up/client.h"
#include "scripted_http_server.h"

using namespace s3up;
using test::http_reply;
using test::ScriptedHttpServer;
using test::ScriptStep;

namespace {

// python3 -c "import zlib,base64,struct;print(base64.b64encode(struct.pack('>I',zlib.crc32(b'hello
// world'))))"
constexpr const char* hello = "hello world";
constexpr const char* hello_crc32 = "DUoRhQ==";

ClientConfig config_for(const ScriptedHttpServer& server) {
  return test::config_for_scripted(server.url());
}

PutObjectOptions at(ChecksumLocation location, bool signed_payload = false) {
  PutObjectOptions options;
  options.checksum_algorithm = ChecksumAlgorithm::crc32;
  options.checksum_location = location;
  options.signed_payload = signed_payload;
  return options;
}

const std::string ok_reply = http_reply("200 OK", "ETag: \"e\"\r\nx-amz-request-id: OK1\r\n");

}  // namespace

TEST_CASE("a 2xx echoing another checksum than the one sent is a checksum_mismatch", "[client][scripted]") {
  for (auto location : {ChecksumLocation::header, ChecksumLocation::trailer}) {
    INFO(to_string(location));
    ScriptedHttpServer liar({{http_reply("200 OK",
                                         "ETag: \"x\"\r\nx-amz-checksum-crc32: AAAAAA==\r\n"
                                         "x-amz-request-id: REQ123\r\nx-amz-id-2: HOST456\r\n")}});
    Client client(config_for(liar));
    MemorySource body{std::string_view(hello)};
    auto result = client.put_object("bucket", "key", body, at(location));
    REQUIRE_FALSE(result);
    const Error& error = result.error();
    CHECK(error.kind == Error::Kind::checksum_mismatch);
    CHECK(error.code == "ChecksumMismatch");
    CHECK(error.http_status == 200);
    CHECK(error.request_id == "REQ123");
    CHECK(error.host_id == "HOST456");
    CHECK(error.message.find("AAAAAA==") != std::string::npos);
    CHECK(error.message.find(hello_crc32) != std::string::npos);

    // What was sent carried the right checksum: in the header, or in the trailer at the end of the body.
    auto requests = liar.requests();
    REQUIRE(requests.size() == 1);
    if (location == ChecksumLocation::header) {
      CHECK(requests[0].head.find(std::string("\r\nx-amz-checksum-crc32: ") + hello_crc32 + "\r\n") !=
            std::string::npos);
      CHECK(requests[0].body == hello);
    } else {
      CHECK(requests[0].body.ends_with(std::string("\r\nx-amz-checksum-crc32:") + hello_crc32 + "\r\n\r\n"));
    }
  }

  // The same answer with the right checksum is a success that reports it.
  ScriptedHttpServer honest(
      {{http_reply("200 OK", std::string("ETag: \"x\"\r\nx-amz-checksum-crc32: ") + hello_crc32 + "\r\n")}});
  Client client(config_for(honest));
  MemorySource body{std::string_view(hello)};
  auto result = client.put_object("bucket", "key", body, at(ChecksumLocation::header));
  if (!result) FAIL(result.error().to_string());
  CHECK(result->checksum_sent == hello_crc32);
  CHECK(result->checksum_returned == hello_crc32);
  CHECK(result->etag == "\"x\"");
}

TEST_CASE("service errors carry status, code, message, request id and host id", "[client][scripted]") {
  ScriptedHttpServer server({
      // XML ids win over the headers'.
      {http_reply("503 Slow Down", "x-amz-request-id: HEADERREQ\r\nx-amz-id-2: HEADERHOST\r\n",
                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SlowDown</Code>"
                  "<Message>Please reduce your request rate.</Message><RequestId>XMLREQ</RequestId>"
                  "<HostId>XMLHOST</HostId></Error>")},
      // No RequestId or HostId in the XML: the headers'.
      {http_reply("400 Bad Request", "x-amz-request-id: REQ400\r\nx-amz-id-2: HOST400\r\n",
                  "<Error><Code>InvalidRequest</Code><Message>no trailers here</Message></Error>")},
      // No XML at all (a proxy, a HEAD): the status line.
      {http_reply("500 Internal Server Error", "x-amz-request-id: REQ500\r\nx-amz-id-2: HOST500\r\n")},
  });
  // What each answer must become, in the order of the script.
  const Error expected[] = {
      {Error::Kind::service, 503, "SlowDown", "Please reduce your request rate.", "XMLREQ", "XMLHOST"},
      {Error::Kind::service, 400, "InvalidRequest", "no trailers here", "REQ400", "HOST400"},
      {Error::Kind::service, 500, "InternalServerError", "HTTP 500 Internal Server Error", "REQ500",
       "HOST500"},
  };
  ClientConfig config = config_for(server);
  config.retry.max_attempts = 1;  // the script's answers in order: a retry of the 503 would take the 400
  Client client(config);
  for (const Error& want : expected) {
    INFO(want.code);
    MemorySource body{std::string_view(hello)};
    auto result = client.put_object("bucket", "key", body, at(ChecksumLocation::header));
    REQUIRE_FALSE(result);
    const Error& got = result.error();
    CHECK(got.kind == want.kind);
    CHECK(got.http_status == want.http_status);
    CHECK(got.code == want.code);
    CHECK(got.message == want.message);
    CHECK(got.request_id == want.request_id);
    CHECK(got.host_id == want.host_id);
    if (want.code == "SlowDown") {
      CHECK(got.to_string() ==
            "service error 503 SlowDown: Please reduce your request rate. (request id XMLREQ)");
    }
  }
}

TEST_CASE("virtual-hosted requests carry the bucket in the signed Host and only the key in the path",
          "[client][scripted]") {
  ScriptedHttpServer server({{ok_reply}});
  ClientConfig config = config_for(server);
  config.endpoint_url = "http://localhost:" + std::to_string(server.port());
  config.addressing = Addressing::virtual_hosted;
  Client client(config);
  MemorySource body{std::string_view(hello)};
  auto result = client.put_object("my-bucket", "dir/a b.txt", body, at(ChecksumLocation::header));
  if (!result) FAIL(result.error().to_string());
  auto requests = server.requests();
  REQUIRE(requests.size() == 1);
  const std::string& head = requests[0].head;
  INFO(head);
  CHECK(head.starts_with("PUT /dir/a%20b.txt HTTP/1.1\r\n"));
  CHECK(head.find("\r\nHost: my-bucket.localhost:" + std::to_string(server.port()) + "\r\n") !=
        std::string::npos);
  CHECK(head.find("SignedHeaders=host;") != std::string::npos);
}

TEST_CASE("a keep-alive connection dropped without an answer is resent from the first byte",
          "[client][scripted]") {
  const auto data = test::make_data(100000, 31);
  // From the checksum module, which its own suite checks against published vectors; the client only carries
  // it.
  const std::string data_crc32 = compute_checksum(ChecksumAlgorithm::crc32, data).base64();
  struct Mode {
    ChecksumLocation location;
    bool signed_payload;
  };
  for (Mode mode : {Mode{ChecksumLocation::trailer, false}, Mode{ChecksumLocation::trailer, true},
                    Mode{ChecksumLocation::none, true}, Mode{ChecksumLocation::header, false}}) {
    INFO(to_string(mode.location) << (mode.signed_payload ? " signed" : " unsigned"));
    // 1: answered, the connection kept; 2: read whole, then the connection closed without an answer (as a
    // server that timed the idle connection out at that moment does); 3: on a new connection, answered.
    ScriptedHttpServer server({{ok_reply}, {"", true, true}, {ok_reply}});
    Client client(config_for(server));
    for (int put = 0; put < 2; ++put) {
      std::size_t position = 0;
      CallbackSource source = test::callback_source(data, position);
      auto result = client.put_object("bucket", "key", source, at(mode.location, mode.signed_payload));
      if (!result) FAIL(result.error().to_string());
    }
    auto requests = server.requests();
    REQUIRE(requests.size() == 3);
    CHECK(requests[1].connection == 1);
    CHECK(requests[2].connection == 2);
    // The resent request is the same, byte for byte: the source was rewound and every checksum and the
    // chunk-signature chain started over (a chain carried on would sign the first chunk differently).
    CHECK(requests[2].head == requests[1].head);
    CHECK(requests[2].body == requests[1].body);
    if (mode.location == ChecksumLocation::trailer) {
      CHECK(requests[2].body.find("x-amz-checksum-crc32:" + data_crc32 + "\r\n") != std::string::npos);
    }
    if (mode.location == ChecksumLocation::header) CHECK(requests[2].body == test::as_string(data));
  }
}

TEST_CASE("a source that cannot rewind fails clearly when its body must be resent", "[client][scripted]") {
  const auto data = test::make_data(100000, 32);
  ScriptedHttpServer server({{ok_reply}, {"", true, true}, {ok_reply}});
  Client client(config_for(server));
  std::size_t position = 0;
  CallbackSource first = test::callback_source(data, position);
  auto warm = client.put_object("bucket", "key", first, at(ChecksumLocation::trailer));
  if (!warm) FAIL(warm.error().to_string());

  position = 0;
  CallbackSource one_way = test::callback_source(data, position, false);
  auto result = client.put_object("bucket", "key", one_way, at(ChecksumLocation::trailer));
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == Error::Kind::body);
  CHECK(result.error().code == "BodyNotRewindable");
  CHECK(result.error().message.find("send the body again") != std::string::npos);
  CHECK(server.requests().size() == 2);  // never resent
}

TEST_CASE("an error answered before the body was read is the service error, even for a one-way source",
          "[client][scripted]") {
  // 8 MiB cannot all sit in the socket buffers, so curl is still sending when the answer arrives.
  const auto data = test::make_data(8 * 1024 * 1024, 33);
  ScriptStep deny{http_reply("403 Forbidden", "x-amz-request-id: DENY1\r\n",
                             "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>"),
                  false, false};
  ScriptedHttpServer server({deny});
  Client client(config_for(server));
  for (bool rewindable : {true, false}) {
    INFO("rewindable " << rewindable);
    std::size_t position = 0;
    CallbackSource source = test::callback_source(data, position, rewindable);
    auto result = client.put_object("bucket", "key", source, at(ChecksumLocation::trailer));
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == Error::Kind::service);
    CHECK(result.error().http_status == 403);
    CHECK(result.error().code == "AccessDenied");
    CHECK(result.error().request_id == "DENY1");
  }
}

TEST_CASE("a 200 answered before the body was read is never a success", "[client][scripted]") {
  const auto data = test::make_data(32 * 1024 * 1024, 34);
  ScriptedHttpServer server({{ok_reply, false, true}});
  ClientConfig config = config_for(server);
  config.retry.max_attempts = 1;  // every attempt would meet the same early answer
  Client client(config);
  MemorySource source{std::span<const std::byte>(data)};
  auto result = client.put_object("bucket", "key", source, at(ChecksumLocation::none));
  REQUIRE_FALSE(result);
  INFO(result.error().to_string());
  // curl either fails writing to the closed connection or returns with part of the body unsent.
  CHECK((result.error().kind == Error::Kind::network || result.error().kind == Error::Kind::body));
}

TEST_CASE("a server that reads the body and never answers fails the upload after stall_timeout",
          "[client][scripted]") {
  // read_body with an empty reply: the responder takes every byte, then stays silent on an open connection.
  ScriptedHttpServer silent({{"", true, false}});
  ClientConfig config = config_for(silent);
  config.request_timeout = std::chrono::milliseconds(0);  // only the stall detection can end it
  config.stall_timeout = std::chrono::seconds(1);
  config.retry = {.max_attempts = 2, .base_delay = std::chrono::milliseconds(1)};
  Client client(config);
  MemorySource body{std::string_view(hello)};
  auto result = client.put_object("bucket", "key", body, at(ChecksumLocation::header));
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == Error::Kind::timeout);
  CHECK(result.error().code == "stall_timeout");
  // A stall is transient: tried again (on a new connection), from the first byte.
  CHECK(result.error().attempts == 2);
  REQUIRE(silent.requests().size() == 2);
  CHECK(silent.requests()[0].body == hello);
  CHECK(silent.requests()[1].body == hello);
}
