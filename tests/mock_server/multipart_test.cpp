// multipart_test.cpp: the mock server's multipart uploads over real sockets with hand-signed requests —
// every algorithm/type pair against the reference §6.4 values, the assembled bytes, every error S3 answers
// (reference §7.2 and the texts S3 is observed to send), abort, part overwrite and the listings.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "raw_http_client.h"
#include "s3_request_builder.h"
#include "s3up/checksum.h"
#include "s3up/mock_server.h"
#include "s3up/sigv4.h"

using s3up::mock::Server;
using s3up::mock::ServerOptions;
using namespace s3up::test;
namespace fs = std::filesystem;
namespace sigv4 = s3up::sigv4;

namespace {

// Hex MD5s computed with Python's hashlib.md5; multipart ETags as hashlib.md5(b"".join(part digests)).
constexpr const char* md5_1234 = "81dc9bdb52d04dc20036dbd8313ed055";
constexpr const char* md5_56789 = "099ebea48ea9666a7da2177267983138";
constexpr const char* etag_123456789 = "\"d8399932ce6023ac3365f50fbbcde132-2\"";  // reference §6.4

std::string quoted(std::string_view hex) {
  return "\"" + std::string(hex) + "\"";
}

HttpResponse send_spec(const Server& server, RequestSpec spec, const std::string& body) {
  bool head_request = spec.method == "HEAD";
  return send_request(server, build_request(spec, server.port()).head(body.size()), body, head_request);
}

// Every <name> element's text in a response body, in order.
std::vector<std::string> elements(const std::string& body, const std::string& name) {
  std::vector<std::string> found;
  std::string open = "<" + name + ">", close = "</" + name + ">";
  for (std::size_t at = body.find(open); at != std::string::npos; at = body.find(open, at)) {
    at += open.size();
    std::size_t end = body.find(close, at);
    if (end == std::string::npos) break;
    found.push_back(body.substr(at, end - at));
  }
  return found;
}

struct ListedPart {
  int number;
  std::string etag;
  std::string checksum_element;  // "ChecksumCRC32"..., or "" for none
  std::string checksum;
};

std::string complete_document(const std::vector<ListedPart>& parts) {
  std::string xml = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">";
  for (const auto& part : parts) {
    xml += "<Part><ETag>" + part.etag + "</ETag>";
    if (!part.checksum_element.empty())
      xml += "<" + part.checksum_element + ">" + part.checksum + "</" + part.checksum_element + ">";
    xml += "<PartNumber>" + std::to_string(part.number) + "</PartNumber></Part>";
  }
  return xml + "</CompleteMultipartUpload>";
}

// The multipart requests on one key, signed by the sigv4 module (the independent signer).
struct Multipart {
  const Server& server;
  std::string key = "object";

  std::string path() const { return "/bucket/" + key; }

  HttpResponse start(std::vector<sigv4::Header> headers = {}) const {
    RequestSpec spec;
    spec.method = "POST";
    spec.path = path();
    spec.query = {{"uploads", ""}};
    spec.payload_hash = std::string(sigv4::empty_sha256_hex);
    spec.headers = std::move(headers);
    return send_spec(server, spec, "");
  }
  std::string create(std::vector<sigv4::Header> headers = {}) const {
    auto response = start(std::move(headers));
    INFO(response.body);
    REQUIRE(response.status == 200);
    REQUIRE(!response.element("UploadId").empty());
    return response.element("UploadId");
  }
  // An UNSIGNED-PAYLOAD part with Content-Length, its checksum (if any) in a header.
  HttpResponse part(const std::string& id, const std::string& number, const std::string& data,
                    std::vector<sigv4::Header> headers = {}) const {
    RequestSpec spec;
    spec.path = path();
    spec.query = {{"partNumber", number}, {"uploadId", id}};
    spec.headers = std::move(headers);
    return send_spec(server, spec, data);
  }
  // A part in an aws-chunked mode, with its checksum in a trailer (or none).
  HttpResponse streaming_part(const std::string& id, int number, std::string_view mode,
                              const std::string& data, const std::string& trailer_name,
                              const std::string& trailer_value, std::size_t chunk_size = 65536) const {
    RequestSpec spec = streaming_spec(path(), mode, data.size(), trailer_name);
    spec.query = {{"partNumber", std::to_string(number)}, {"uploadId", id}};
    auto built = build_request(spec, server.port());
    std::string trailer = trailer_name.empty() ? "" : trailer_name + ":" + trailer_value;
    std::string body = aws_chunked_body(built, mode, data, chunk_size, trailer);
    return send_request(server, built.head(body.size()), body);
  }
  HttpResponse complete(const std::string& id, const std::string& xml,
                        std::vector<sigv4::Header> headers = {}) const {
    RequestSpec spec;
    spec.method = "POST";
    spec.path = path();
    spec.query = {{"uploadId", id}};
    spec.payload_hash = s3up::compute_checksum(s3up::ChecksumAlgorithm::sha256, xml).hex();
    spec.headers = std::move(headers);
    return send_spec(server, spec, xml);
  }
  HttpResponse bodiless(const std::string& method, std::vector<sigv4::QueryParameter> query,
                        std::vector<sigv4::Header> headers = {}, std::string request_path = "") const {
    RequestSpec spec;
    spec.method = method;
    spec.path = request_path.empty() ? path() : request_path;
    spec.query = std::move(query);
    spec.payload_hash = std::string(sigv4::empty_sha256_hex);
    spec.headers = std::move(headers);
    spec.omit_content_length = true;
    return send_spec(server, spec, "");
  }
  HttpResponse abort(const std::string& id) const { return bodiless("DELETE", {{"uploadId", id}}); }
  HttpResponse list_parts(const std::string& id, std::vector<sigv4::QueryParameter> extra = {}) const {
    extra.push_back({"uploadId", id});
    return bodiless("GET", std::move(extra));
  }
  HttpResponse list_uploads(std::vector<sigv4::QueryParameter> extra = {}) const {
    extra.push_back({"uploads", ""});
    return bodiless("GET", std::move(extra), {}, "/bucket");
  }
  HttpResponse get(bool head_request = false) const {
    return bodiless(head_request ? "HEAD" : "GET", {}, {{"x-amz-checksum-mode", "ENABLED"}});
  }
};

// The text of an XML element with the five predefined entities decoded (the server escapes ' and >).
std::string xml_text(std::string text) {
  const std::pair<const char*, const char*> entities[] = {
      {"&apos;", "'"}, {"&quot;", "\""}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}};
  for (const auto& [entity, character] : entities) {
    for (std::size_t at = text.find(entity); at != std::string::npos; at = text.find(entity, at + 1))
      text.replace(at, std::string_view(entity).size(), character);
  }
  return text;
}

void expect_error(const HttpResponse& response, int status, const std::string& code,
                  const std::string& message = "") {
  INFO(response.body);
  CHECK(response.status == status);
  CHECK(response.error_code() == code);
  if (!message.empty()) CHECK(xml_text(response.element("Message")) == message);
}

ServerOptions small_parts(std::uint64_t min_part_size = 1) {
  ServerOptions options;
  options.min_part_size = min_part_size;
  return options;
}

// The reference §6.4 split of "123456789": part 1 "1234", part 2 "56789".
struct SplitCase {
  const char* algorithm;  // x-amz-checksum-algorithm
  const char* type;       // x-amz-checksum-type sent on create, or "" to take the default
  const char* answered_type;
  const char* part1;
  const char* part2;
  const char* object;  // the object's value: with -2 for COMPOSITE
};

const SplitCase split_cases[] = {
    {"CRC32", "", "COMPOSITE", "m+Pgow==", "Ex2gcA==", "rBMwBw==-2"},
    {"CRC32", "FULL_OBJECT", "FULL_OBJECT", "m+Pgow==", "Ex2gcA==", "y/Q5Jg=="},
    {"CRC32C", "COMPOSITE", "COMPOSITE", "9jr07g==", "g7Vl2A==", "wClZWQ==-2"},
    {"CRC32C", "FULL_OBJECT", "FULL_OBJECT", "9jr07g==", "g7Vl2A==", "4waSgw=="},
    {"CRC64NVME", "", "FULL_OBJECT", "KfXb5+L/cdQ=", "+H3Ihxds5mc=", "rosUhgp5mIg="},
    {"SHA1", "COMPOSITE", "COMPOSITE",
     "cRDtpNCeBiql5KOQsKVyrA0sAiA=", "8iMdKHHmkKKZVwT3ope9e8ZL5yA=", "ZPMlzVAPwgmwAy0Yd3tZeXQx43E=-2"},
    {"SHA256", "", "COMPOSITE", "A6xnQhbz4Vx2HuGl4lXwZ5U2I8iziLRFnhP5eNfIRvQ=",
     "92BDp07DO2rvuyiQUPr3qo1IIJVHc5fj5jNFEl1J9Sc=", "bnRBBTileCDVQlLT/6fZJGrqcf3O3X6G8kD8V7zZqxQ=-2"},
};

std::string lower(std::string text) {
  return s3up::ascii_lowercase(text);
}

// One complete §6.4 upload: part 1 with a header checksum, part 2 in STREAMING-UNSIGNED-PAYLOAD-TRAILER.
void upload_123456789(const Server& server, const SplitCase& c, const std::string& key) {
  Multipart mp{server, key};
  std::vector<sigv4::Header> create_headers = {{"x-amz-checksum-algorithm", c.algorithm},
                                               {"content-type", "text/x-digits"}};
  if (*c.type) create_headers.push_back({"x-amz-checksum-type", c.type});
  auto created = mp.start(create_headers);
  INFO(created.body);
  REQUIRE(created.status == 200);
  CHECK(created.header("x-amz-checksum-algorithm") == std::string(c.algorithm));
  CHECK(created.header("x-amz-checksum-type") == std::string(c.answered_type));
  CHECK(created.element("Bucket") == "bucket");
  CHECK(created.element("Key") == key);
  const std::string id = created.element("UploadId");
  CHECK(server.multipart_upload_count() == 1);

  const std::string header = "x-amz-checksum-" + lower(c.algorithm);
  const std::string element = std::string("Checksum") + c.algorithm;
  auto first = mp.part(id, "1", "1234", {{header, c.part1}});
  INFO(first.body);
  REQUIRE(first.status == 200);
  CHECK(first.header("ETag") == quoted(md5_1234));
  CHECK(first.header(header) == std::string(c.part1));
  auto second = mp.streaming_part(id, 2, sigv4::streaming_unsigned_payload_trailer, "56789", header, c.part2);
  INFO(second.body);
  REQUIRE(second.status == 200);
  CHECK(second.header("ETag") == quoted(md5_56789));
  CHECK(second.header(header) == std::string(c.part2));

  auto listed = mp.list_parts(id);
  REQUIRE(listed.status == 200);
  CHECK(elements(listed.body, "PartNumber") == std::vector<std::string>{"1", "2"});
  CHECK(elements(listed.body, "Size") == std::vector<std::string>{"4", "5"});
  CHECK(elements(listed.body, element) == std::vector<std::string>{c.part1, c.part2});
  CHECK(listed.element("ChecksumAlgorithm") == c.algorithm);
  CHECK(listed.element("ChecksumType") == c.answered_type);

  // The ETag once quoted and once bare: S3 takes both. The object's value and type are checked on the way.
  std::string xml =
      complete_document({{1, quoted(md5_1234), element, c.part1}, {2, md5_56789, element, c.part2}});
  auto completed = mp.complete(id, xml, {{header, c.object}, {"x-amz-checksum-type", c.answered_type}});
  INFO(completed.body);
  REQUIRE(completed.status == 200);
  CHECK(completed.element("ETag") == "&quot;d8399932ce6023ac3365f50fbbcde132-2&quot;");
  CHECK(completed.element(element) == c.object);
  CHECK(completed.element("ChecksumType") == c.answered_type);
  CHECK(completed.element("Bucket") == "bucket");
  CHECK(completed.element("Key") == key);
  CHECK(completed.element("Location") ==
        "http://127.0.0.1:" + std::to_string(server.port()) + "/bucket/" + sigv4::uri_encode(key, true));
  CHECK(server.multipart_upload_count() == 0);

  auto stored = server.object("bucket", key);
  REQUIRE(stored);
  CHECK(stored->size == 9);
  CHECK(stored->etag == etag_123456789);
  CHECK(stored->content_type == "text/x-digits");
  REQUIRE(stored->checksum);
  CHECK(stored->checksum->first == header);
  CHECK(stored->checksum->second == c.object);
  CHECK(stored->checksum_type == c.answered_type);
  CHECK(stored->parts == 2);
  auto bytes = server.object_data("bucket", key);
  REQUIRE(bytes);
  CHECK(as_string(*bytes) == "123456789");

  for (bool head_request : {false, true}) {
    auto got = mp.get(head_request);
    REQUIRE(got.status == 200);
    CHECK(got.body == (head_request ? "" : "123456789"));
    CHECK(got.header("Content-Length") == "9");
    CHECK(got.header("ETag") == etag_123456789);
    CHECK(got.header(header) == std::string(c.object));
    CHECK(got.header("x-amz-checksum-type") == std::string(c.answered_type));
  }
}

}  // namespace

TEST_CASE("multipart uploads of the reference 6.4 split give its values for every algorithm and type") {
  Server server(small_parts());
  for (const SplitCase& c : split_cases) {
    DYNAMIC_SECTION(c.algorithm << " " << c.answered_type) {
      upload_123456789(server, c, std::string("split/") + c.algorithm + "/" + c.answered_type + "/a key");
    }
  }
}

TEST_CASE("multipart uploads to a data directory assemble the parts into one file and leave no part behind") {
  fs::path dir =
      fs::temp_directory_path() / ("s3up-multipart-test-" + std::to_string(std::random_device()()));
  {
    ServerOptions options = small_parts();
    options.data_dir = dir.string();
    Server server(options);
    upload_123456789(server, split_cases[1], "on disk");
    Multipart mp{server, "aborted"};
    std::string id = mp.create();
    REQUIRE(mp.part(id, "1", "abandoned").status == 200);
    REQUIRE(mp.abort(id).status == 204);
    // The staging area held the parts; neither completion nor abort leaves one there.
    CHECK(fs::is_empty(dir / ".staging"));
  }
  {
    // A new server over the same directory finds the object and its multipart checksum.
    ServerOptions options;
    options.data_dir = dir.string();
    Server server(options);
    auto stored = server.object("bucket", "on disk");
    REQUIRE(stored);
    CHECK(stored->checksum_type == "FULL_OBJECT");
    CHECK(stored->parts == 2);
    CHECK(stored->checksum->second == "y/Q5Jg==");
    CHECK(as_string(*server.object_data("bucket", "on disk")) == "123456789");
  }
  std::error_code error;
  fs::remove_all(dir, error);
}

TEST_CASE("parts of S3's minimum size in signed aws-chunked modes are assembled byte for byte") {
  // Default minimum part size (5 MiB). Expected values from Python over pattern_bytes: a table CRC32C
  // (checked against "123456789"), hashlib.md5/sha256, and the multipart ETag from the part MD5s.
  const std::size_t mib = 1 << 20;
  const std::string data = pattern_bytes(10 * mib + 1000);
  const std::string parts[] = {data.substr(0, 5 * mib), data.substr(5 * mib, 5 * mib), data.substr(10 * mib)};
  const char* crc32c[] = {"/E9Hzw==", "rhr/5w==", "EepJyA=="};
  const char* md5[] = {"d0e3c0c366651fc4c2057f2961e760b4", "90fa0372d3265bf8db7803c19b6a711c",
                       "56fe2ae809aea244c0599c3a0c860f40"};
  for (bool on_disk : {false, true}) {
    DYNAMIC_SECTION((on_disk ? "data directory" : "memory")) {
      fs::path dir =
          fs::temp_directory_path() / ("s3up-multipart-big-" + std::to_string(std::random_device()()));
      ServerOptions options;
      if (on_disk) options.data_dir = dir.string();
      {
        Server server(options);
        Multipart mp{server, "big"};
        std::string id =
            mp.create({{"x-amz-checksum-algorithm", "CRC32C"}, {"x-amz-checksum-type", "FULL_OBJECT"}});
        std::vector<ListedPart> listed;
        for (int i = 0; i < 3; ++i) {
          auto mode = i == 1 ? sigv4::streaming_signed_payload : sigv4::streaming_signed_payload_trailer;
          // STREAMING-AWS4-HMAC-SHA256-PAYLOAD has no trailer: the FULL_OBJECT upload computes that part's
          // CRC.
          std::string trailer = i == 1 ? "" : "x-amz-checksum-crc32c";
          auto response = mp.streaming_part(id, i + 1, mode, parts[i], trailer, crc32c[i]);
          INFO(response.body);
          REQUIRE(response.status == 200);
          CHECK(response.header("ETag") == quoted(md5[i]));
          CHECK(response.header("x-amz-checksum-crc32c") == std::string(crc32c[i]));
          listed.push_back({i + 1, quoted(md5[i]), "ChecksumCRC32C", crc32c[i]});
        }
        auto completed = mp.complete(
            id, complete_document(listed),
            {{"x-amz-checksum-crc32c", "P4Ndew=="}, {"x-amz-mp-object-size", std::to_string(data.size())}});
        INFO(completed.body);
        REQUIRE(completed.status == 200);
        CHECK(completed.element("ChecksumCRC32C") == "P4Ndew==");
        CHECK(completed.element("ETag") == "&quot;453a1021ebf6c62a88286334b790f392-3&quot;");
        auto bytes = server.object_data("bucket", "big");
        REQUIRE(bytes);
        CHECK(bytes->size() == data.size());
        CHECK(as_string(*bytes) == data);
        auto got = mp.get();
        CHECK(got.body == data);
        CHECK(got.header("x-amz-checksum-crc32c") == "P4Ndew==");
      }
      std::error_code error;
      fs::remove_all(dir, error);
    }
  }
}

TEST_CASE("CreateMultipartUpload refuses a checksum type without algorithm and the pairs S3 refuses") {
  Server server;
  Multipart mp{server};
  struct Refused {
    const char* algorithm;
    const char* type;
    const char* message;
  };
  const Refused cases[] = {
      {"SHA1", "FULL_OBJECT",
       "The FULL_OBJECT checksum type cannot be used with the sha1 checksum algorithm."},
      {"SHA256", "FULL_OBJECT",
       "The FULL_OBJECT checksum type cannot be used with the sha256 checksum algorithm."},
      {"CRC64NVME", "COMPOSITE",
       "The COMPOSITE checksum type cannot be used with the crc64nvme checksum algorithm."},
      {"", "COMPOSITE",
       "The x-amz-checksum-type header can only be used with the x-amz-checksum-algorithm header."},
      {"", "FULL_OBJECT",
       "The x-amz-checksum-type header can only be used with the x-amz-checksum-algorithm header."},
      {"CRC32", "PARTS", "Value for x-amz-checksum-type header is invalid."},
      {"MD4", "",
       "Checksum algorithm provided is unsupported. Please try again with any of the valid types: [CRC32, "
       "CRC32C, CRC64NVME, SHA1, SHA256]"},
  };
  for (const Refused& c : cases) {
    std::vector<sigv4::Header> headers;
    if (*c.algorithm) headers.push_back({"x-amz-checksum-algorithm", c.algorithm});
    if (*c.type) headers.push_back({"x-amz-checksum-type", c.type});
    INFO(c.algorithm << " " << c.type);
    expect_error(mp.start(headers), 400, "InvalidRequest", c.message);
  }
  CHECK(server.multipart_upload_count() == 0);
  // aws-c-s3 writes the type in lower case (reference §6.1).
  auto lower_case =
      mp.start({{"x-amz-checksum-algorithm", "crc32c"}, {"x-amz-checksum-type", "full_object"}});
  CHECK(lower_case.status == 200);
  CHECK(lower_case.header("x-amz-checksum-algorithm") == "CRC32C");
  CHECK(lower_case.header("x-amz-checksum-type") == "FULL_OBJECT");
  CHECK(server.multipart_upload_count() == 1);
}

TEST_CASE("UploadPart must carry the upload's algorithm, except FULL_OBJECT parts that the server computes") {
  Server server(small_parts());
  Multipart mp{server};
  const std::string composite = mp.create({{"x-amz-checksum-algorithm", "CRC32"}});
  const std::string full =
      mp.create({{"x-amz-checksum-algorithm", "CRC32"}, {"x-amz-checksum-type", "FULL_OBJECT"}});

  // COMPOSITE: the object's value is made of the client's part checksums, so a part without one is refused.
  expect_error(mp.part(composite, "1", "1234"), 400, "InvalidRequest",
               "Checksum Type mismatch occurred, expected checksum Type: crc32, actual checksum Type: null");
  // Another algorithm (a correct CRC32C of "1234", reference §6.4) is refused for either type.
  for (const std::string& id : {composite, full}) {
    expect_error(
        mp.part(id, "1", "1234", {{"x-amz-checksum-crc32c", "9jr07g=="}}), 400, "InvalidRequest",
        "Checksum Type mismatch occurred, expected checksum Type: crc32, actual checksum Type: crc32c");
    expect_error(
        mp.streaming_part(id, 1, sigv4::streaming_unsigned_payload_trailer, "1234", "x-amz-checksum-sha1",
                          "cRDtpNCeBiql5KOQsKVyrA0sAiA="),
        400, "InvalidRequest",
        "Checksum Type mismatch occurred, expected checksum Type: crc32, actual checksum Type: sha1");
    // The right algorithm with the wrong value (part 2's CRC32): BadDigest, as for PutObject.
    expect_error(mp.part(id, "1", "1234", {{"x-amz-checksum-crc32", "Ex2gcA=="}}), 400, "BadDigest",
                 "The CRC32 you specified did not match the calculated checksum.");
  }
  for (const std::string& id : {composite, full}) {
    auto listed = mp.list_parts(id);
    CHECK(elements(listed.body, "Part").empty());  // nothing kept from a refused part
  }
  // FULL_OBJECT: S3 computes a missing part CRC itself and answers it.
  auto computed = mp.part(full, "1", "1234");
  CHECK(computed.status == 200);
  CHECK(computed.header("x-amz-checksum-crc32") == "m+Pgow==");
  CHECK(server.multipart_upload_count() == 2);
}

TEST_CASE("UploadPart bodies are verified like PutObject bodies and a refused part keeps nothing") {
  Server server(small_parts());
  Multipart mp{server};
  const std::string id = mp.create();
  // Content-MD5 of "abcd" sent with "1234".
  expect_error(mp.part(id, "1", "1234", {{"content-md5", "4vxxTEcn7pOV8yTNLn8zHw=="}}), 400, "BadDigest");
  // A signed-chunk body whose chunk signatures are those of another request.
  RequestSpec spec = streaming_spec(mp.path(), sigv4::streaming_signed_payload, 4, "");
  spec.query = {{"partNumber", "1"}, {"uploadId", id}};
  auto built = build_request(spec, server.port());
  auto other = built;
  other.seed[0] = other.seed[0] == 'a' ? 'b' : 'a';
  std::string body = signed_aws_chunked("1234", 65536, other, "", false);
  expect_error(send_request(server, built.head(body.size()), body), 403, "SignatureDoesNotMatch");
  // A body shorter than its Content-Length.
  RequestSpec short_spec;
  short_spec.path = mp.path();
  short_spec.query = {{"partNumber", "1"}, {"uploadId", id}};
  RawHttpConnection connection(server.port());
  connection.send(build_request(short_spec, server.port()).head(10) + "12345");
  connection.shutdown_write();
  auto cut = connection.read_response();
  REQUIRE(cut);
  expect_error(*cut, 400, "IncompleteBody");
  auto listed = mp.list_parts(id);
  REQUIRE(listed.status == 200);
  CHECK(elements(listed.body, "Part").empty());
  // Without a declared algorithm a part is answered with the CRC64NVME S3 computes (§6.4 part 1 value).
  auto accepted = mp.part(id, "1", "1234", {{"content-md5", "gdyb21LQTcIANtvYMT7QVQ=="}});
  CHECK(accepted.status == 200);
  CHECK(accepted.header("x-amz-checksum-crc64nvme") == "KfXb5+L/cdQ=");
  CHECK(accepted.header("ETag") == quoted(md5_1234));
}

TEST_CASE("UploadPart takes part numbers 1 to 10000 and answers NoSuchUpload for unknown or other uploads") {
  Server server(small_parts());
  Multipart mp{server};
  const std::string id = mp.create();
  for (const char* number : {"0", "10001", "-1", "1.5", "one", ""}) {
    INFO("partNumber=" << number);
    auto response = mp.part(id, number, "x");
    expect_error(response, 400, "InvalidArgument",
                 "Part number must be an integer between 1 and 10000, inclusive");
    CHECK(response.element("ArgumentName") == "partNumber");
    CHECK(response.element("ArgumentValue") == number);
  }
  CHECK(mp.part(id, "10000", "last").status == 200);
  CHECK(mp.part(id, "1", "first").status == 200);

  auto unknown = mp.part("0000000000000000", "1", "x");
  expect_error(
      unknown, 404, "NoSuchUpload",
      "The specified upload does not exist. The upload ID may be invalid, or the upload may have been "
      "aborted or completed.");
  CHECK(unknown.element("UploadId") == "0000000000000000");
  Multipart other{server, "another key"};
  expect_error(other.part(id, "1", "x"), 404, "NoSuchUpload");
  expect_error(other.abort(id), 404, "NoSuchUpload");

  // Abort drops the upload and its parts; every operation on it is then NoSuchUpload.
  CHECK(server.multipart_upload_count() == 1);
  auto aborted = mp.abort(id);
  CHECK(aborted.status == 204);
  CHECK(aborted.body.empty());
  CHECK(server.multipart_upload_count() == 0);
  expect_error(mp.part(id, "2", "x"), 404, "NoSuchUpload");
  expect_error(mp.list_parts(id), 404, "NoSuchUpload");
  expect_error(mp.complete(id, complete_document({{1, "\"8b04d5e3775d298e78455efc5ca404d5\"", "", ""}})), 404,
               "NoSuchUpload");
  expect_error(mp.abort(id), 404, "NoSuchUpload");
  CHECK(server.object_count() == 0);
}

TEST_CASE("CompleteMultipartUpload refuses what S3 refuses and leaves the upload in progress") {
  Server server(small_parts(4));  // parts but the last must be at least 4 bytes
  Multipart mp{server};
  const std::string id = mp.create();
  // MD5s from Python's hashlib.
  const std::string abcd = "\"e2fc714c4727ee9395f324cd2e7f331f\"",
                    xy = "\"3e44107170a520582ade522fa73c1d15\"",
                    zzzz = "\"02c425157ecd32f259548b33402ff6d3\"";
  REQUIRE(mp.part(id, "1", "abcd").status == 200);
  REQUIRE(mp.part(id, "2", "xy").status == 200);
  REQUIRE(mp.part(id, "3", "zzzz").status == 200);

  auto unknown = mp.complete(id, complete_document({{1, abcd, "", ""}, {7, zzzz, "", ""}}));
  expect_error(
      unknown, 400, "InvalidPart",
      "One or more of the specified parts could not be found.  The part may not have been uploaded, or the "
      "specified entity tag may not match the part's entity tag.");
  CHECK(unknown.element("PartNumber") == "7");
  CHECK(unknown.element("UploadId") == id);
  auto wrong_etag = mp.complete(id, complete_document({{1, zzzz, "", ""}}));
  expect_error(wrong_etag, 400, "InvalidPart");
  CHECK(wrong_etag.element("ETag") == "02c425157ecd32f259548b33402ff6d3");
  expect_error(mp.complete(id, complete_document({{1, abcd, "ChecksumCRC32", "7ZnJJg=="}})), 400,
               "InvalidPart");
  expect_error(mp.complete(id, complete_document({{3, zzzz, "", ""}, {1, abcd, "", ""}})), 400,
               "InvalidPartOrder",
               "The list of parts was not in ascending order. Parts must be ordered by part number.");
  expect_error(mp.complete(id, complete_document({{1, abcd, "", ""}, {1, abcd, "", ""}})), 400,
               "InvalidPartOrder");
  auto small = mp.complete(id, complete_document({{1, abcd, "", ""}, {2, xy, "", ""}, {3, zzzz, "", ""}}));
  expect_error(small, 400, "EntityTooSmall", "Your proposed upload is smaller than the minimum allowed size");
  CHECK(small.element("ProposedSize") == "2");
  CHECK(small.element("MinSizeAllowed") == "4");
  CHECK(small.element("PartNumber") == "2");
  auto zero = mp.complete(id, complete_document({{0, abcd, "", ""}}));
  expect_error(zero, 400, "InvalidArgument", "PartNumber must be >= 1");
  auto size = mp.complete(id, complete_document({{1, abcd, "", ""}}), {{"x-amz-mp-object-size", "5"}});
  expect_error(size, 400, "InvalidRequest",
               "The provided 'x-amz-mp-object-size' header does not match what was computed");
  const char* malformed[] = {
      "",
      "PartNumber=1",
      "<Parts><Part><PartNumber>1</PartNumber><ETag>x</ETag></Part></Parts>",
      "<CompleteMultipartUpload></CompleteMultipartUpload>",
      "<CompleteMultipartUpload><Part><ETag>x</ETag></Part></CompleteMultipartUpload>",
      "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber></Part></CompleteMultipartUpload>",
      "<CompleteMultipartUpload><Part><PartNumber>one</PartNumber><ETag>x</ETag></Part></"
      "CompleteMultipartUpload>",
      "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>x</ETag></Part>",
      "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>&bogus;</ETag></Part></"
      "CompleteMultipartUpload>",
  };
  for (const char* xml : malformed) {
    INFO(xml);
    expect_error(mp.complete(id, xml), 400, "MalformedXML",
                 "The XML you provided was not well-formed or did not validate against our published schema");
  }
  CHECK(server.multipart_upload_count() == 1);
  CHECK(server.object_count() == 0);

  // Without checksums the parts need only ascend: 1 and 3 make the object. An XML declaration, comments
  // and &quot; entities around the ETag are all fine.
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- parts -->" +
      complete_document({{1, "&quot;e2fc714c4727ee9395f324cd2e7f331f&quot;", "", ""}, {3, zzzz, "", ""}});
  auto done = mp.complete(id, xml);
  INFO(done.body);
  REQUIRE(done.status == 200);
  CHECK(done.element("ETag") == "&quot;9f771ee1171cceba1343ff5acefb6ea3-2&quot;");  // Python: md5(md5s)-2
  // Without an algorithm S3 answers a FULL_OBJECT CRC64NVME but does not keep it on the object.
  CHECK(done.element("ChecksumType") == "FULL_OBJECT");
  CHECK(done.element("ChecksumCRC64NVME") == "QPu8zSw77M8=");  // table CRC64NVME of "abcdzzzz" in Python
  CHECK(as_string(*server.object_data("bucket", "object")) == "abcdzzzz");
  auto stored = server.object("bucket", "object");
  CHECK_FALSE(stored->checksum);
  CHECK(stored->checksum_type.empty());
  CHECK_FALSE(mp.get().header("x-amz-checksum-crc64nvme"));
  CHECK(server.multipart_upload_count() == 0);
  expect_error(mp.complete(id, xml), 404, "NoSuchUpload");
}

TEST_CASE("CompleteMultipartUpload of an upload without algorithm answers the CRC64NVME of the parts") {
  Server server(small_parts());
  Multipart mp{server};
  const std::string id = mp.create();
  auto first = mp.part(id, "1", "1234");
  auto second = mp.part(id, "2", "56789");
  CHECK(first.header("x-amz-checksum-crc64nvme") == "KfXb5+L/cdQ=");  // reference §6.4
  CHECK(second.header("x-amz-checksum-crc64nvme") == "+H3Ihxds5mc=");
  auto listed = mp.list_parts(id);
  CHECK(elements(listed.body, "ChecksumCRC64NVME").empty());  // S3 keeps no part checksum to list
  CHECK(listed.element("ChecksumAlgorithm").empty());
  auto done =
      mp.complete(id, complete_document({{1, quoted(md5_1234), "", ""}, {2, quoted(md5_56789), "", ""}}));
  INFO(done.body);
  REQUIRE(done.status == 200);
  CHECK(done.element("ChecksumCRC64NVME") == "rosUhgp5mIg=");
  CHECK(done.element("ChecksumType") == "FULL_OBJECT");
  CHECK(done.element("ETag") == "&quot;d8399932ce6023ac3365f50fbbcde132-2&quot;");
}

TEST_CASE(
    "with a checksum algorithm, Complete checks each part's checksum, the numbering and the object value") {
  Server server(small_parts());
  Multipart mp{server};
  const std::string id = mp.create({{"x-amz-checksum-algorithm", "SHA256"}});
  const std::string sha1234 = "A6xnQhbz4Vx2HuGl4lXwZ5U2I8iziLRFnhP5eNfIRvQ=";  // reference §6.4
  const std::string sha56789 = "92BDp07DO2rvuyiQUPr3qo1IIJVHc5fj5jNFEl1J9Sc=";
  REQUIRE(mp.part(id, "1", "1234", {{"x-amz-checksum-sha256", sha1234}}).status == 200);
  REQUIRE(mp.part(id, "2", "56789", {{"x-amz-checksum-sha256", sha56789}}).status == 200);
  const ListedPart one{1, quoted(md5_1234), "ChecksumSHA256", sha1234};
  const ListedPart two{2, quoted(md5_56789), "ChecksumSHA256", sha56789};

  expect_error(
      mp.complete(id, complete_document({{1, quoted(md5_1234), "", ""}, two})), 400, "InvalidRequest",
      "The upload was created using a sha256 checksum. The complete request must include the checksum for "
      "each part. It was missing for part 1 in the request.");
  expect_error(mp.complete(id, complete_document({{1, quoted(md5_1234), "ChecksumSHA256", sha56789}, two})),
               400, "InvalidPart");
  expect_error(mp.complete(id, complete_document({{1, quoted(md5_1234), "ChecksumCRC32", "m+Pgow=="}, two})),
               400, "InvalidPart");
  // With checksums the numbers start at 1 and have no gap (model: CompletedPart.PartNumber).
  expect_error(mp.complete(id, complete_document({two})), 400, "InvalidPartOrder");
  expect_error(
      mp.complete(id, complete_document({one, two}), {{"x-amz-checksum-type", "FULL_OBJECT"}}), 400,
      "BadDigest",
      "The upload was created using the COMPOSITE checksum mode. The complete request must use the same "
      "checksum mode.");
  expect_error(mp.complete(id, complete_document({one, two}), {{"x-amz-checksum-sha256", sha1234}}), 400,
               "BadDigest", "The SHA256 you specified did not match the calculated checksum.");
  expect_error(
      mp.complete(id, complete_document({one, two}), {{"x-amz-checksum-crc32", "y/Q5Jg=="}}), 400,
      "InvalidRequest",
      "Checksum Type mismatch occurred, expected checksum Type: sha256, actual checksum Type: crc32");
  CHECK(server.multipart_upload_count() == 1);
  auto done = mp.complete(id, complete_document({one, two}),
                          {{"x-amz-checksum-sha256", "bnRBBTileCDVQlLT/6fZJGrqcf3O3X6G8kD8V7zZqxQ=-2"}});
  CHECK(done.status == 200);
  CHECK(done.element("ChecksumSHA256") == "bnRBBTileCDVQlLT/6fZJGrqcf3O3X6G8kD8V7zZqxQ=-2");

  // FULL_OBJECT: the value sent on Complete is the whole object's CRC.
  Multipart full{server, "full"};
  const std::string full_id =
      full.create({{"x-amz-checksum-algorithm", "CRC32C"}, {"x-amz-checksum-type", "FULL_OBJECT"}});
  REQUIRE(full.part(full_id, "1", "1234", {{"x-amz-checksum-crc32c", "9jr07g=="}}).status == 200);
  REQUIRE(full.part(full_id, "2", "56789").status == 200);  // the server computes g7Vl2A==
  std::string xml = complete_document({{1, quoted(md5_1234), "ChecksumCRC32C", "9jr07g=="},
                                       {2, quoted(md5_56789), "ChecksumCRC32C", "g7Vl2A=="}});
  expect_error(full.complete(full_id, xml, {{"x-amz-checksum-crc32c", "9jr07g=="}}), 400, "BadDigest",
               "The CRC32C you specified did not match the calculated checksum.");
  expect_error(full.complete(full_id, xml, {{"x-amz-checksum-crc32c", "bad"}}), 400, "InvalidRequest",
               "Value for x-amz-checksum-crc32c header is invalid.");
  auto full_done = full.complete(full_id, xml, {{"x-amz-checksum-crc32c", "4waSgw=="}});
  CHECK(full_done.status == 200);
  CHECK(full_done.element("ChecksumCRC32C") == "4waSgw==");
}

TEST_CASE("a part sent again replaces the earlier one") {
  Server server(small_parts());
  Multipart mp{server};
  const std::string id = mp.create();
  REQUIRE(mp.part(id, "1", "first").status == 200);
  REQUIRE(mp.part(id, "1", "second!").status == 200);
  auto listed = mp.list_parts(id);
  CHECK(elements(listed.body, "PartNumber") == std::vector<std::string>{"1"});
  CHECK(elements(listed.body, "Size") == std::vector<std::string>{"7"});
  CHECK(elements(listed.body, "ETag") ==
        std::vector<std::string>{"&quot;26de793d084efdd1c4134652c5494af1&quot;"});
  expect_error(mp.complete(id, complete_document({{1, "\"8b04d5e3775d298e78455efc5ca404d5\"", "", ""}})), 400,
               "InvalidPart");  // the ETag of "first"
  auto done = mp.complete(id, complete_document({{1, "\"26de793d084efdd1c4134652c5494af1\"", "", ""}}));
  CHECK(done.status == 200);
  CHECK(done.element("ETag") ==
        "&quot;7b61568d7851047a3956576e3be98b76-1&quot;");  // Python: md5(md5("second!"))-1
  CHECK(as_string(*server.object_data("bucket", "object")) == "second!");
}

TEST_CASE("with md5_etag off the part ETags are their checksums and the object ETag is made of those") {
  ServerOptions options = small_parts();
  options.md5_etag = false;
  Server server(options);
  Multipart mp{server};
  const std::string id = mp.create({{"x-amz-checksum-algorithm", "CRC32"}});
  auto first = mp.part(id, "1", "1234", {{"x-amz-checksum-crc32", "m+Pgow=="}});
  auto second = mp.part(id, "2", "56789", {{"x-amz-checksum-crc32", "Ex2gcA=="}});
  CHECK(first.header("ETag") == "\"9be3e0a3\"");  // the CRC32s of reference §6.4 in hex
  CHECK(second.header("ETag") == "\"131da070\"");
  auto done = mp.complete(id, complete_document({{1, "\"9be3e0a3\"", "ChecksumCRC32", "m+Pgow=="},
                                                 {2, "\"131da070\"", "ChecksumCRC32", "Ex2gcA=="}}));
  CHECK(done.status == 200);
  // Python: hashlib.md5(bytes.fromhex("9be3e0a3131da070")).hexdigest() + "-2"
  CHECK(done.element("ETag") == "&quot;aa24725abe6fe7a038244fd2d153930c-2&quot;");
  CHECK(done.element("ChecksumCRC32") == "rBMwBw==-2");
}

TEST_CASE("ListParts pages by part number and ListMultipartUploads lists by key") {
  Server server(small_parts());
  Multipart mp{server, "folder/key"};
  const std::string id =
      mp.create({{"x-amz-checksum-algorithm", "CRC32C"}, {"x-amz-checksum-type", "FULL_OBJECT"}});
  for (int number : {8, 1, 5, 3, 2})
    REQUIRE(mp.part(id, std::to_string(number), std::string(number, 'x')).status == 200);

  auto all = mp.list_parts(id);
  REQUIRE(all.status == 200);
  CHECK(elements(all.body, "PartNumber") == std::vector<std::string>{"1", "2", "3", "5", "8"});
  CHECK(elements(all.body, "Size") == std::vector<std::string>{"1", "2", "3", "5", "8"});
  CHECK(all.element("IsTruncated") == "false");
  CHECK(all.element("NextPartNumberMarker") == "8");
  CHECK(all.element("UploadId") == id);
  CHECK(all.element("Key") == "folder/key");
  CHECK(all.element("ChecksumType") == "FULL_OBJECT");

  std::vector<std::string> pages;
  for (auto [marker, max] :
       std::vector<std::pair<const char*, const char*>>{{"0", "2"}, {"2", "2"}, {"5", "2"}, {"8", "2"}}) {
    auto page = mp.list_parts(id, {{"part-number-marker", marker}, {"max-parts", max}});
    REQUIRE(page.status == 200);
    std::string numbers;
    for (const auto& n : elements(page.body, "PartNumber")) numbers += n + ",";
    pages.push_back(page.element("PartNumberMarker") + ": " + numbers + " next " +
                    page.element("NextPartNumberMarker") + " " + page.element("IsTruncated"));
  }
  CHECK(pages == std::vector<std::string>{"0: 1,2, next 2 true", "2: 3,5, next 5 true", "5: 8, next 8 false",
                                          "8:  next 8 false"});
  auto bad = mp.list_parts(id, {{"max-parts", "-1"}});
  expect_error(bad, 400, "InvalidArgument", "Argument max-parts must be an integer between 0 and 2147483647");

  Multipart b{server, "b"}, c{server, "c d"}, a2{server, "a/2"};
  const std::string b_id = b.create(), c_id = c.create(), a2_id = a2.create();
  auto uploads = mp.list_uploads();
  REQUIRE(uploads.status == 200);
  CHECK(elements(uploads.body, "Key") == std::vector<std::string>{"a/2", "b", "c d", "folder/key"});
  CHECK(elements(uploads.body, "UploadId") == std::vector<std::string>{a2_id, b_id, c_id, id});
  CHECK(elements(uploads.body, "ChecksumAlgorithm") == std::vector<std::string>{"CRC32C"});
  auto prefixed = mp.list_uploads({{"prefix", "a/"}});
  CHECK(elements(prefixed.body, "Key") == std::vector<std::string>{"a/2"});
  auto delimited = mp.list_uploads({{"delimiter", "/"}});
  CHECK(elements(delimited.body, "Key") == std::vector<std::string>{"b", "c d"});
  CHECK(elements(delimited.body, "Prefix") == std::vector<std::string>{"", "a/", "folder/"});
  auto first_page = mp.list_uploads({{"max-uploads", "2"}});
  CHECK(elements(first_page.body, "Key") == std::vector<std::string>{"a/2", "b"});
  CHECK(first_page.element("IsTruncated") == "true");
  CHECK(first_page.element("NextKeyMarker") == "b");
  auto second_page = mp.list_uploads({{"key-marker", "b"}, {"upload-id-marker", b_id}});
  CHECK(elements(second_page.body, "Key") == std::vector<std::string>{"c d", "folder/key"});
  auto encoded = mp.list_uploads({{"encoding-type", "url"}, {"prefix", "c "}});
  CHECK(elements(encoded.body, "Key") == std::vector<std::string>{"c%20d"});
}

TEST_CASE("at S3's default minimum a part one byte under 5 MiB is EntityTooSmall unless it is the last") {
  Server server;
  Multipart mp{server};
  const std::string id = mp.create();
  const std::string under(5 * 1024 * 1024 - 1, 'u');
  auto first = mp.part(id, "1", under);
  REQUIRE(first.status == 200);
  REQUIRE(mp.part(id, "2", "x").status == 200);
  const std::string first_etag = *first.header("ETag");
  // MD5 of "x": Python hashlib.md5(b"x").hexdigest().
  const std::string x_etag = "\"9dd4e461268c8034f5c8564e155c67a6\"";
  auto small = mp.complete(id, complete_document({{1, first_etag, "", ""}, {2, x_etag, "", ""}}));
  expect_error(small, 400, "EntityTooSmall");
  CHECK(small.element("ProposedSize") == "5242879");
  CHECK(small.element("MinSizeAllowed") == "5242880");
  // As the last part the same bytes are fine; then one byte more makes a valid first part.
  Multipart alone{server, "alone"};
  const std::string alone_id = alone.create();
  REQUIRE(alone.part(alone_id, "1", under).status == 200);
  CHECK(alone.complete(alone_id, complete_document({{1, first_etag, "", ""}})).status == 200);
  auto exact = mp.part(id, "1", under + "u");
  REQUIRE(exact.status == 200);
  CHECK(
      mp.complete(id, complete_document({{1, *exact.header("ETag"), "", ""}, {2, x_etag, "", ""}})).status ==
      200);
  CHECK(server.object("bucket", "object")->size == 5 * 1024 * 1024 + 1);
}
