// multipart_requests_test.cpp: CreateMultipartUpload, UploadPart, ListParts, CompleteMultipartUpload and
// AbortMultipartUpload against the mock server over real sockets (parts of any size: min_part_size 1), the
// reference §6.4 vectors for every algorithm and type as the server answers them, a 200 answer carrying an
// <Error>, a server checksum that differs from ours, ListParts pagination (scripted answers), and the checks
// made before anything is sent.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "client/multipart_checksum.h"
#include "client/multipart_xml.h"
#include "client/xml_reader.h"
#include "integration_support.h"
#include "s3up/client.h"
#include "s3up/mock_server.h"
#include "scripted_http_server.h"

using namespace s3up;

namespace {

mock::Server small_parts_server() {
  mock::ServerOptions options;
  options.min_part_size = 1;
  return mock::Server(options);
}

// Reference §6.4: "123456789" as part 1 "1234" and part 2 "56789", every value as the table gives it.
struct Vector {
  ChecksumAlgorithm algorithm;
  ChecksumType type;
  const char* part1;
  const char* part2;
  const char* object;  // as S3 answers it on Complete
};

const std::vector<Vector>& reference_vectors() {
  static const std::vector<Vector> vectors = {
      {ChecksumAlgorithm::crc32, ChecksumType::full_object, "m+Pgow==", "Ex2gcA==", "y/Q5Jg=="},
      {ChecksumAlgorithm::crc32, ChecksumType::composite, "m+Pgow==", "Ex2gcA==", "rBMwBw==-2"},
      {ChecksumAlgorithm::crc32c, ChecksumType::full_object, "9jr07g==", "g7Vl2A==", "4waSgw=="},
      {ChecksumAlgorithm::crc32c, ChecksumType::composite, "9jr07g==", "g7Vl2A==", "wClZWQ==-2"},
      {ChecksumAlgorithm::crc64nvme, ChecksumType::full_object,
       "KfXb5+L/cdQ=", "+H3Ihxds5mc=", "rosUhgp5mIg="},
      {ChecksumAlgorithm::sha1, ChecksumType::composite,
       "cRDtpNCeBiql5KOQsKVyrA0sAiA=", "8iMdKHHmkKKZVwT3ope9e8ZL5yA=", "ZPMlzVAPwgmwAy0Yd3tZeXQx43E=-2"},
      {ChecksumAlgorithm::sha256, ChecksumType::composite, "A6xnQhbz4Vx2HuGl4lXwZ5U2I8iziLRFnhP5eNfIRvQ=",
       "92BDp07DO2rvuyiQUPr3qo1IIJVHc5fj5jNFEl1J9Sc=", "bnRBBTileCDVQlLT/6fZJGrqcf3O3X6G8kD8V7zZqxQ=-2"},
  };
  return vectors;
}

// The multipart ETag of that split (reference §6.4).
constexpr const char* reference_etag = "\"d8399932ce6023ac3365f50fbbcde132-2\"";

std::string vector_name(const Vector& v) {
  return std::string(algorithm_name(v.algorithm)) + " " + std::string(to_string(v.type));
}

Result<UploadPartResult> put_part(Client& client, const MultipartUpload& upload, int number,
                                  std::string_view text, PutObjectOptions options = {}) {
  MemorySource source{text};
  return client.upload_part(upload, number, source, options);
}

MultipartUpload two_parts(Client& client, const std::string& key, std::optional<ChecksumAlgorithm> algorithm,
                          std::optional<ChecksumType> type, std::vector<CompletedPart>& parts) {
  auto created =
      client.create_multipart_upload("bucket", key, {.checksum_algorithm = algorithm, .checksum_type = type});
  if (!created) FAIL(created.error().to_string());
  parts.clear();
  int number = 1;
  for (std::string_view text : {std::string_view("1234"), std::string_view("56789")}) {
    auto part = put_part(client, created.value(), number, text);
    if (!part) FAIL(part.error().to_string());
    parts.push_back(
        {.part_number = number, .etag = part->etag, .checksum = part->checksum, .size = text.size()});
    ++number;
  }
  return created.value();
}

}  // namespace

TEST_CASE("checksum types: names, parsing and the algorithm/type table of reference §6.1",
          "[client][multipart]") {
  CHECK(to_string(ChecksumType::composite) == "COMPOSITE");
  CHECK(to_string(ChecksumType::full_object) == "FULL_OBJECT");
  CHECK(parse_checksum_type("full_object") == ChecksumType::full_object);
  CHECK(parse_checksum_type("Composite") == ChecksumType::composite);
  CHECK_FALSE(parse_checksum_type("FULL-OBJECT"));
  CHECK_FALSE(parse_checksum_type(""));

  using A = ChecksumAlgorithm;
  using T = ChecksumType;
  CHECK(checksum_type_supported(A::crc32, T::composite));
  CHECK(checksum_type_supported(A::crc32, T::full_object));
  CHECK(checksum_type_supported(A::crc32c, T::composite));
  CHECK(checksum_type_supported(A::crc32c, T::full_object));
  CHECK_FALSE(checksum_type_supported(A::crc64nvme, T::composite));
  CHECK(checksum_type_supported(A::crc64nvme, T::full_object));
  CHECK(checksum_type_supported(A::sha1, T::composite));
  CHECK_FALSE(checksum_type_supported(A::sha1, T::full_object));
  CHECK(checksum_type_supported(A::sha256, T::composite));
  CHECK_FALSE(checksum_type_supported(A::sha256, T::full_object));
  CHECK_FALSE(checksum_type_supported(A::md5, T::composite));
  CHECK_FALSE(checksum_type_supported(A::md5, T::full_object));
}

TEST_CASE("the object checksum from part checksums matches the reference §6.4 vectors",
          "[client][multipart]") {
  for (const Vector& v : reference_vectors()) {
    INFO(vector_name(v));
    std::vector<CompletedPart> parts = {{.part_number = 1, .etag = "\"a\"", .checksum = v.part1, .size = 4},
                                        {.part_number = 2, .etag = "\"b\"", .checksum = v.part2, .size = 5}};
    auto object = multipart_object_checksum(v.algorithm, v.type, parts);
    REQUIRE(object);
    CHECK(object.value() == v.object);
  }
  // A single part is its own FULL_OBJECT value, and "-1" for COMPOSITE over the digest of its digest.
  std::vector<CompletedPart> one = {{.part_number = 1, .etag = "\"a\"", .checksum = "y/Q5Jg==", .size = 9}};
  CHECK(multipart_object_checksum(ChecksumAlgorithm::crc32, ChecksumType::full_object, one).value() ==
        "y/Q5Jg==");
  // Missing or malformed part checksums, and pairs S3 does not have, are refused.
  std::vector<CompletedPart> missing = {{.part_number = 1, .etag = "\"a\"", .checksum = "", .size = 9}};
  CHECK(
      multipart_object_checksum(ChecksumAlgorithm::crc32, ChecksumType::full_object, missing).error().kind ==
      Error::Kind::invalid_argument);
  std::vector<CompletedPart> wrong_size = {
      {.part_number = 1, .etag = "\"a\"", .checksum = "KfXb5+L/cdQ=", .size = 4}};
  CHECK_FALSE(multipart_object_checksum(ChecksumAlgorithm::crc32, ChecksumType::composite, wrong_size));
  CHECK_FALSE(multipart_object_checksum(ChecksumAlgorithm::sha256, ChecksumType::full_object, one));
}

TEST_CASE("the CompleteMultipartUpload document escapes ETags and lists part checksums",
          "[client][multipart]") {
  std::vector<CompletedPart> parts = {
      {.part_number = 1, .etag = "\"a&b<c>\"", .checksum = "m+Pgow==", .size = 4},
      {.part_number = 2, .etag = "'e'", .checksum = "Ex2gcA==", .size = 5}};
  CHECK(complete_multipart_document(parts, ChecksumAlgorithm::crc32) ==
        "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        "<Part><ETag>&quot;a&amp;b&lt;c&gt;&quot;</ETag><ChecksumCRC32>m+Pgow==</ChecksumCRC32>"
        "<PartNumber>1</PartNumber></Part>"
        "<Part><ETag>&apos;e&apos;</ETag><ChecksumCRC32>Ex2gcA==</ChecksumCRC32><PartNumber>2</PartNumber></"
        "Part>"
        "</CompleteMultipartUpload>");
  CHECK(complete_multipart_document(parts, std::nullopt) ==
        "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        "<Part><ETag>&quot;a&amp;b&lt;c&gt;&quot;</ETag><PartNumber>1</PartNumber></Part>"
        "<Part><ETag>&apos;e&apos;</ETag><PartNumber>2</PartNumber></Part></CompleteMultipartUpload>");
}

TEST_CASE("the XML reader takes S3's documents and refuses malformed ones", "[client][multipart][xml]") {
  auto document = parse_xml_document(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- note -->\n"
      "<s3:ListPartsResult xmlns:s3=\"http://s3.amazonaws.com/doc/2006-03-01/\" a='x>y'>\n"
      "  <s3:Part><ETag>&quot;abc&quot;</ETag><Size>12</Size><Empty/></s3:Part>\n"
      "  <Key><![CDATA[a<b]]>&#x41;&#66;&unknown;</Key>\n"
      "</s3:ListPartsResult>\n");
  REQUIRE(document);
  CHECK(document->name == "ListPartsResult");
  REQUIRE(document->child("Part"));
  CHECK(document->child("Part")->child_text("ETag") == "\"abc\"");
  CHECK(document->child("Part")->child_text("Size") == "12");
  CHECK(document->child("Part")->child("Empty"));
  CHECK(document->child_text("Key") == "a<bAB&unknown;");
  CHECK(document->child_text("Missing").empty());

  for (const char* bad :
       {"", "text", "<a>", "<a></b>", "<a><b></a></b>", "<a/><b/>", "<a></a>junk", "<a><!DOCTYPE x></a>",
        "<a><![CDATA[x</a>", "<a></a ", "<a<b>", "<a<b></a<b>", "<a><b<c></b<c></a>", "<a><b<c/></a>"}) {
    INFO(bad);
    CHECK_FALSE(parse_xml_document(bad));
  }
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "<a>";
  for (int i = 0; i < 100; ++i) deep += "</a>";
  CHECK_FALSE(parse_xml_document(deep));
  CHECK(xml_escape("a\"b'c&d<e>f") == "a&quot;b&apos;c&amp;d&lt;e&gt;f");
}

TEST_CASE("multipart round trip: every algorithm and type gives the reference §6.4 values",
          "[client][multipart][integration]") {
  mock::Server server = small_parts_server();
  Client client(test::config_for(server));

  for (const Vector& v : reference_vectors()) {
    INFO(vector_name(v));
    const std::string key = "vector-" + vector_name(v);
    std::vector<CompletedPart> parts;
    MultipartUpload upload = two_parts(client, key, v.algorithm, v.type, parts);
    CHECK(upload.checksum_algorithm == v.algorithm);
    CHECK(upload.checksum_type == v.type);
    CHECK_FALSE(upload.upload_id.empty());
    REQUIRE(parts.size() == 2);
    CHECK(parts[0].checksum == v.part1);
    CHECK(parts[1].checksum == v.part2);

    auto listed = client.list_parts(upload);
    if (!listed) FAIL(listed.error().to_string());
    REQUIRE(listed->size() == 2);
    CHECK(listed.value()[0].part_number == 1);
    CHECK(listed.value()[0].size == 4u);
    CHECK(listed.value()[0].checksum == v.part1);
    CHECK(listed.value()[0].etag == parts[0].etag);
    CHECK(listed.value()[1].part_number == 2);
    CHECK(listed.value()[1].size == 5u);
    CHECK(listed.value()[1].checksum == v.part2);

    auto completed = client.complete_multipart_upload(upload, parts);
    if (!completed) FAIL(completed.error().to_string());
    CHECK(completed->http_status == 200);
    CHECK(completed->checksum == v.object);
    CHECK(completed->checksum_type == v.type);
    CHECK(completed->etag == reference_etag);
    CHECK_FALSE(completed->location.empty());

    auto stored = server.object("bucket", key);
    REQUIRE(stored);
    CHECK(stored->parts == 2);
    CHECK(stored->checksum_type == to_string(v.type));
    REQUIRE(stored->checksum);
    CHECK(stored->checksum->first == header_name(v.algorithm));
    CHECK(stored->checksum->second == v.object);
    CHECK(test::as_string(*server.object_data("bucket", key)) == "123456789");
  }
  CHECK(server.multipart_upload_count() == 0);
}

TEST_CASE(
    "parts go in every payload mode, and the default type is FULL_OBJECT for a CRC, COMPOSITE for a SHA",
    "[client][multipart][integration]") {
  mock::Server server = small_parts_server();
  Client client(test::config_for(server));

  struct Mode {
    ChecksumLocation location;
    bool signed_payload;
  };
  const std::vector<Mode> modes = {{ChecksumLocation::header, false},
                                   {ChecksumLocation::header, true},
                                   {ChecksumLocation::trailer, false},
                                   {ChecksumLocation::trailer, true}};
  for (ChecksumAlgorithm algorithm : {ChecksumAlgorithm::crc32c, ChecksumAlgorithm::sha256}) {
    auto created = client.create_multipart_upload("bucket", "modes", {.checksum_algorithm = algorithm});
    if (!created) FAIL(created.error().to_string());
    CHECK(created->checksum_type ==
          (algorithm == ChecksumAlgorithm::sha256 ? ChecksumType::composite : ChecksumType::full_object));
    const auto data = test::make_data(4 * 70000, 4);
    std::vector<CompletedPart> parts;
    for (std::size_t i = 0; i < modes.size(); ++i) {
      INFO("part " << i + 1);
      std::span<const std::byte> bytes(data.data() + i * 70000, 70000);
      MemorySource source{bytes};
      // The part's own options cannot change the upload's algorithm.
      PutObjectOptions options{.checksum_algorithm = ChecksumAlgorithm::crc32,
                               .checksum_location = modes[i].location,
                               .signed_payload = modes[i].signed_payload};
      auto part = client.upload_part(created.value(), static_cast<int>(i + 1), source, options);
      if (!part) FAIL(part.error().to_string());
      CHECK(part->checksum == compute_checksum(algorithm, bytes).base64());
      CHECK(part->bytes == 70000u);
      CHECK(part->part_number == static_cast<int>(i + 1));
      parts.push_back({static_cast<int>(i + 1), part->etag, part->checksum, 70000});
    }
    auto completed = client.complete_multipart_upload(created.value(), parts);
    if (!completed) FAIL(completed.error().to_string());
    CHECK(*server.object_data("bucket", "modes") == data);
    if (algorithm == ChecksumAlgorithm::crc32c) {
      // FULL_OBJECT: the CRC of the whole object, whatever the split.
      CHECK(completed->checksum == compute_checksum(algorithm, data).base64());
    }
  }
}

TEST_CASE("an upload without a checksum algorithm sends none with its parts",
          "[client][multipart][integration]") {
  mock::Server server = small_parts_server();
  ClientConfig config = test::config_for(server);
  config.checksum_calculation = ChecksumCalculation::when_required;
  Client client(config);
  std::vector<CompletedPart> parts;
  MultipartUpload upload = two_parts(client, "plain", std::nullopt, std::nullopt, parts);
  CHECK_FALSE(upload.checksum_algorithm);
  CHECK(parts[0].checksum.empty());
  auto completed = client.complete_multipart_upload(upload, parts);
  if (!completed) FAIL(completed.error().to_string());
  CHECK(completed->etag == reference_etag);
  auto stored = server.object("bucket", "plain");
  REQUIRE(stored);
  CHECK_FALSE(stored->checksum);
}

TEST_CASE("abort removes the upload, and later requests about it are NoSuchUpload",
          "[client][multipart][integration]") {
  mock::Server server = small_parts_server();
  Client client(test::config_for(server));
  std::vector<CompletedPart> parts;
  MultipartUpload upload = two_parts(client, "aborted", ChecksumAlgorithm::crc32, std::nullopt, parts);
  CHECK(server.multipart_upload_count() == 1);

  auto aborted = client.abort_multipart_upload(upload);
  if (!aborted) FAIL(aborted.error().to_string());
  CHECK(aborted.value() == 204);
  CHECK(server.multipart_upload_count() == 0);
  CHECK_FALSE(server.object("bucket", "aborted"));

  for (auto error :
       {client.list_parts(upload).error(), client.complete_multipart_upload(upload, parts).error(),
        client.abort_multipart_upload(upload).error()}) {
    CHECK(error.kind == Error::Kind::service);
    CHECK(error.http_status == 404);
    CHECK(error.code == "NoSuchUpload");
  }
}

TEST_CASE("CompleteMultipartUpload: a 200 carrying an <Error> is a failure",
          "[client][multipart][integration]") {
  mock::Server server = small_parts_server();
  ClientConfig config = test::config_for(server);
  config.retry.max_attempts = 1;
  Client client(config);
  std::vector<CompletedPart> parts;
  MultipartUpload upload = two_parts(client, "error-in-200", ChecksumAlgorithm::crc32, std::nullopt, parts);

  mock::Fault fault;
  fault.kind = mock::Fault::Kind::malformed_response;
  fault.status = 200;
  fault.method = "POST";
  // S3 sends whitespace while it works, then the error (reference §6.5).
  fault.body =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n          \n<Error><Code>InternalError</Code><Message>We "
      "encountered an internal error. Please try "
      "again.</Message><RequestId>R200</RequestId><HostId>H</HostId>"
      "</Error>";
  server.inject_fault(fault);
  auto failed = client.complete_multipart_upload(upload, parts);
  REQUIRE_FALSE(failed);
  CHECK(failed.error().kind == Error::Kind::service);
  CHECK(failed.error().http_status == 200);
  CHECK(failed.error().code == "InternalError");
  CHECK(failed.error().request_id == "R200");
  CHECK_FALSE(server.object("bucket", "error-in-200"));

  // The upload is still there (the fault stood in for the operation): completing it again works.
  CHECK(server.multipart_upload_count() == 1);
  auto completed = client.complete_multipart_upload(upload, parts);
  if (!completed) FAIL(completed.error().to_string());
  CHECK(completed->checksum == "y/Q5Jg==");
}

TEST_CASE("CompleteMultipartUpload: a server checksum other than ours is a checksum mismatch",
          "[client][multipart][integration]") {
  mock::Server server = small_parts_server();
  ClientConfig config = test::config_for(server);
  config.retry.max_attempts = 1;
  Client client(config);
  std::vector<CompletedPart> parts;
  MultipartUpload upload =
      two_parts(client, "mismatch", ChecksumAlgorithm::crc32, ChecksumType::composite, parts);

  auto answer = [](const std::string& checksum, const std::string& type) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<CompleteMultipartUploadResult "
           "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Location>http://h/bucket/mismatch</Location>"
           "<Bucket>bucket</Bucket><Key>mismatch</Key><ETag>&quot;d8399932ce6023ac3365f50fbbcde132-2&quot;</"
           "ETag>"
           "<ChecksumCRC32>" +
           checksum + "</ChecksumCRC32><ChecksumType>" + type +
           "</ChecksumType></CompleteMultipartUploadResult>";
  };
  mock::Fault fault;
  fault.kind = mock::Fault::Kind::malformed_response;
  fault.status = 200;
  fault.method = "POST";
  // The right COMPOSITE value would be rBMwBw==-2 (reference §6.4): one that differs, one with another part
  // count, and the right value under the wrong type.
  for (const auto& [checksum, type] : std::vector<std::pair<std::string, std::string>>{
           {"AAAAAA==-2", "COMPOSITE"}, {"rBMwBw==-3", "COMPOSITE"}, {"rBMwBw==-2", "FULL_OBJECT"}}) {
    INFO(checksum << " " << type);
    fault.body = answer(checksum, type);
    server.inject_fault(fault);
    auto result = client.complete_multipart_upload(upload, parts);
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == Error::Kind::checksum_mismatch);
    CHECK(result.error().code == "ChecksumMismatch");
  }
  // The answer with the right value is taken, ETag unquoted from its entities.
  fault.body = answer("rBMwBw==-2", "COMPOSITE");
  server.inject_fault(fault);
  auto good = client.complete_multipart_upload(upload, parts);
  if (!good) FAIL(good.error().to_string());
  CHECK(good->etag == reference_etag);
  CHECK(good->checksum == "rBMwBw==-2");

  // Neither a result nor an error: a protocol failure.
  fault.body = "<Something/>";
  server.inject_fault(fault);
  CHECK(client.complete_multipart_upload(upload, parts).error().kind == Error::Kind::protocol);
  CHECK(server.multipart_upload_count() == 1);
  REQUIRE(client.abort_multipart_upload(upload));
}

TEST_CASE("the server refuses a FULL_OBJECT checksum that the parts do not make",
          "[client][multipart][integration]") {
  mock::Server server = small_parts_server();
  ClientConfig config = test::config_for(server);
  config.retry.max_attempts = 1;
  Client client(config);
  std::vector<CompletedPart> parts;
  MultipartUpload upload =
      two_parts(client, "bad-digest", ChecksumAlgorithm::crc32, ChecksumType::full_object, parts);
  // A wrong size for part 2 makes our combination wrong: the server, which combines the parts it has, must
  // refuse the x-amz-checksum-crc32 we send (a value computed correctly would be y/Q5Jg==, reference §6.4).
  std::vector<CompletedPart> wrong = parts;
  wrong[1].size = 6;
  auto refused = client.complete_multipart_upload(upload, wrong);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().kind == Error::Kind::service);
  CHECK(refused.error().code == "BadDigest");
  // A part checksum that is not the part's: InvalidPart.
  wrong = parts;
  wrong[0].checksum = "Ex2gcA==";
  CHECK(client.complete_multipart_upload(upload, wrong).error().code == "InvalidPart");
  REQUIRE(client.complete_multipart_upload(upload, parts));
}

TEST_CASE("unsupported pairs and bad arguments are refused before any request",
          "[client][multipart][integration]") {
  mock::Server server = small_parts_server();
  Client client(test::config_for(server));
  using A = ChecksumAlgorithm;
  using T = ChecksumType;
  for (auto [algorithm, type] : std::vector<std::pair<A, T>>{{A::sha1, T::full_object},
                                                             {A::sha256, T::full_object},
                                                             {A::crc64nvme, T::composite},
                                                             {A::md5, T::composite}}) {
    auto created = client.create_multipart_upload("bucket", "k",
                                                  {.checksum_algorithm = algorithm, .checksum_type = type});
    REQUIRE_FALSE(created);
    CHECK(created.error().kind == Error::Kind::invalid_argument);
    CHECK(created.error().attempts == 0);
  }
  ClientConfig required = test::config_for(server);
  required.checksum_calculation = ChecksumCalculation::when_required;
  Client plain(required);
  CHECK(plain.create_multipart_upload("bucket", "k", {.checksum_type = T::full_object}).error().kind ==
        Error::Kind::invalid_argument);
  CHECK(client.create_multipart_upload("Bad_Bucket", "k").error().kind == Error::Kind::invalid_argument);

  MultipartUpload upload{.bucket = "bucket",
                         .key = "k",
                         .upload_id = "id",
                         .checksum_algorithm = A::crc32,
                         .checksum_type = T::full_object};
  MemorySource source{std::string_view("x")};
  CHECK(client.upload_part(upload, 0, source).error().kind == Error::Kind::invalid_argument);
  CHECK(client.upload_part(upload, 10001, source).error().kind == Error::Kind::invalid_argument);
  // An upload with an algorithm needs every part's checksum.
  CHECK(client.upload_part(upload, 1, source, {.checksum_location = ChecksumLocation::none}).error().kind ==
        Error::Kind::invalid_argument);
  CHECK(client.complete_multipart_upload(upload, {}).error().kind == Error::Kind::invalid_argument);
  std::vector<CompletedPart> descending = {{2, "\"a\"", "m+Pgow==", 4}, {1, "\"b\"", "Ex2gcA==", 5}};
  CHECK(client.complete_multipart_upload(upload, descending).error().kind == Error::Kind::invalid_argument);
  std::vector<CompletedPart> no_checksum = {{1, "\"a\"", "", 4}};
  CHECK(client.complete_multipart_upload(upload, no_checksum).error().kind == Error::Kind::invalid_argument);
  MultipartUpload no_id = upload;
  no_id.upload_id.clear();
  CHECK(client.abort_multipart_upload(no_id).error().kind == Error::Kind::invalid_argument);
  CHECK(client.list_parts(no_id).error().kind == Error::Kind::invalid_argument);
  CHECK(server.stats().requests == 0);
}

TEST_CASE("ListParts follows NextPartNumberMarker over every page", "[client][multipart][scripted]") {
  auto page = [](const std::string& parts, bool truncated, int next) {
    std::string body =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ListPartsResult "
        "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        "<Bucket>bucket</Bucket><Key>k</Key><UploadId>u+1</UploadId><ChecksumAlgorithm>CRC32</"
        "ChecksumAlgorithm>" +
        parts + "<NextPartNumberMarker>" + std::to_string(next) + "</NextPartNumberMarker><IsTruncated>" +
        (truncated ? "true" : "false") + "</IsTruncated></ListPartsResult>";
    return test::http_reply("200 OK", "Content-Type: application/xml\r\n", body);
  };
  auto part = [](int number, const char* etag, int size, const char* crc) {
    return "<Part><PartNumber>" + std::to_string(number) + "</PartNumber><ETag>" + etag + "</ETag><Size>" +
           std::to_string(size) + "</Size><ChecksumCRC32>" + crc + "</ChecksumCRC32></Part>";
  };
  test::ScriptedHttpServer server({
      {page(part(1, "&quot;e1&quot;", 4, "m+Pgow==") + part(2, "\"e2\"", 5, "Ex2gcA=="), true, 2)},
      {page(part(3, "\"e3\"", 1, "AAAAAA=="), false, 3)},
  });
  Client client(test::config_for_scripted(server.url()));
  MultipartUpload upload{
      .bucket = "bucket", .key = "k", .upload_id = "u+1", .checksum_algorithm = ChecksumAlgorithm::crc32};
  auto listed = client.list_parts(upload);
  if (!listed) FAIL(listed.error().to_string());
  REQUIRE(listed->size() == 3);
  CHECK(listed.value()[0].etag == "\"e1\"");
  CHECK(listed.value()[1].checksum == "Ex2gcA==");
  CHECK(listed.value()[2].part_number == 3);
  CHECK(listed.value()[2].size == 1u);

  auto requests = server.requests();
  REQUIRE(requests.size() == 2);
  // The upload id is percent-encoded in the query, and the second page starts after part 2.
  CHECK(requests[0].head.starts_with("GET /bucket/k?uploadId=u%2B1 HTTP/1.1\r\n"));
  CHECK(requests[1].head.starts_with("GET /bucket/k?uploadId=u%2B1&part-number-marker=2 HTTP/1.1\r\n"));
}

TEST_CASE("ListParts that claims more pages but does not move on is a protocol failure",
          "[client][multipart][scripted]") {
  std::string body =
      "<ListPartsResult><Part><PartNumber>1</PartNumber><ETag>\"e\"</ETag><Size>1</Size></Part>"
      "<NextPartNumberMarker>0</NextPartNumberMarker><IsTruncated>true</IsTruncated></ListPartsResult>";
  test::ScriptedHttpServer server({{test::http_reply("200 OK", "", body)}});
  Client client(test::config_for_scripted(server.url()));
  MultipartUpload upload{.bucket = "bucket", .key = "k", .upload_id = "u"};
  auto listed = client.list_parts(upload);
  REQUIRE_FALSE(listed);
  CHECK(listed.error().kind == Error::Kind::protocol);
  CHECK(server.requests().size() == 1);
}
