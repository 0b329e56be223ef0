// aws_chunked_decoder_test.cpp: the server's aws-chunked decoder fed the published §4.7 body one byte at a
// time and in one piece: every split point must give the same chunks, signatures and trailers.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "mock_server/aws_chunked_decoder.h"

using s3up::mock::AwsChunkedDecoder;
using s3up::mock::AwsChunkedSink;
using s3up::mock::S3Error;

namespace {

class RecordingSink final : public AwsChunkedSink {
 public:
  std::optional<S3Error> on_chunk_header(std::uint64_t size, std::string_view signature) override {
    events.push_back("chunk " + std::to_string(size) + " " + std::string(signature));
    return std::nullopt;
  }
  void on_chunk_data(std::span<const std::byte> data) override {
    this->data.append(reinterpret_cast<const char*>(data.data()), data.size());
  }
  std::optional<S3Error> on_chunk_end() override {
    events.push_back("end");
    return std::nullopt;
  }
  std::optional<S3Error> on_trailer(std::string_view name, std::string_view value) override {
    events.push_back("trailer " + std::string(name) + "=" + std::string(value));
    return std::nullopt;
  }
  std::optional<S3Error> on_end() override {
    events.push_back("done");
    return std::nullopt;
  }
  std::vector<std::string> events;
  std::string data;
};

// Reference §4.7, small signed-trailer body (304 bytes).
const std::string body =
    "b;chunk-signature=c7acc415d525c0601593743ceb09ed2f657c1964060f344f020b76f20ba9275b\r\nhello world\r\n"
    "0;chunk-signature=c18761bfd608772ff8111fc39f4fee4c2ee7752bf88052ee7d520e25474b0d6c\r\n"
    "x-amz-checksum-crc32:DUoRhQ==\r\n"
    "x-amz-trailer-signature:41507ea6e93215555d0796c25c4c472d94f62ef445b91b4dd2628e4a360e3391\r\n\r\n";

std::span<const std::byte> bytes(std::string_view text) {
  return std::as_bytes(std::span(text.data(), text.size()));
}

}  // namespace

TEST_CASE("aws-chunked decoder: same events whatever the input split") {
  const std::vector<std::string> expected = {
      "chunk 11 c7acc415d525c0601593743ceb09ed2f657c1964060f344f020b76f20ba9275b",
      "end",
      "chunk 0 c18761bfd608772ff8111fc39f4fee4c2ee7752bf88052ee7d520e25474b0d6c",
      "end",
      "trailer x-amz-checksum-crc32=DUoRhQ==",
      "trailer x-amz-trailer-signature=41507ea6e93215555d0796c25c4c472d94f62ef445b91b4dd2628e4a360e3391",
      "done"};
  for (std::size_t piece : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{83}, body.size()}) {
    RecordingSink sink;
    AwsChunkedDecoder decoder(true, sink);
    for (std::size_t at = 0; at < body.size(); at += piece) {
      REQUIRE_FALSE(decoder.feed(bytes(std::string_view(body).substr(at, piece))));
    }
    CHECK(decoder.finished());
    CHECK(sink.events == expected);
    CHECK(sink.data == "hello world");
  }
}

TEST_CASE("aws-chunked decoder: framing errors") {
  RecordingSink sink;
  SECTION("bytes after the final CRLF") {
    AwsChunkedDecoder decoder(true, sink);
    auto error = decoder.feed(bytes(body + "x"));
    REQUIRE(error);
    CHECK(error->code == "IncompleteBody");
  }
  SECTION("a signed chunk without its signature") {
    AwsChunkedDecoder decoder(true, sink);
    auto error = decoder.feed(bytes("b\r\nhello world\r\n"));
    REQUIRE(error);
    CHECK(error->code == "IncompleteBody");
  }
  SECTION("chunk data not followed by CRLF") {
    AwsChunkedDecoder decoder(false, sink);
    auto error = decoder.feed(bytes("3\r\nabcX\r\n"));
    REQUIRE(error);
    CHECK(error->code == "IncompleteBody");
  }
  SECTION("an over-long chunk-size line") {
    AwsChunkedDecoder decoder(false, sink);
    auto error = decoder.feed(bytes(std::string(200, '0')));
    REQUIRE(error);
    CHECK(error->code == "IncompleteBody");
  }
  SECTION("a short chunk before another data chunk") {
    AwsChunkedDecoder decoder(false, sink);
    auto error = decoder.feed(bytes("3\r\nabc\r\n3\r\ndef\r\n"));
    REQUIRE(error);
    CHECK(error->code == "InvalidChunkSizeError");
  }
  SECTION("a trailer line without a colon") {
    AwsChunkedDecoder decoder(false, sink);
    auto error = decoder.feed(bytes("3\r\nabc\r\n0\r\nnocolon\r\n\r\n"));
    REQUIRE(error);
    CHECK(error->code == "MalformedTrailerError");
  }
}
