// storage_test.cpp: the data_dir store (round trip, persistence across servers, hostile keys staying inside
// the directory) and the server's lifetime (stop() with an idle keep-alive connection).
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>

#include "raw_http_client.h"
#include "s3_request_builder.h"
#include "s3up/mock_server.h"
#include "s3up/sigv4.h"

using s3up::mock::Server;
using s3up::mock::ServerOptions;
using namespace s3up::test;
namespace fs = std::filesystem;
namespace sigv4 = s3up::sigv4;

namespace {

// A fresh directory tree: <root>/outside/data is the data_dir, so anything escaping it lands in
// <root>/outside.
struct TempTree {
  fs::path root;
  TempTree() {
    std::random_device random;
    root =
        fs::temp_directory_path() / ("s3up-mock-test-" + std::to_string(random()) + std::to_string(random()));
    fs::create_directories(root / "outside" / "data");
  }
  ~TempTree() {
    std::error_code error;
    fs::remove_all(root, error);
  }
  fs::path data_dir() const { return root / "outside" / "data"; }
};

HttpResponse put(const Server& server, const std::string& path, const std::string& body) {
  RequestSpec spec;
  spec.path = path;
  return send_request(server, build_request(spec, server.port()).head(body.size()), body);
}

HttpResponse get(const Server& server, const std::string& path) {
  RequestSpec spec;
  spec.method = "GET";
  spec.path = path;
  spec.payload_hash = std::string(sigv4::empty_sha256_hex);
  spec.omit_content_length = true;
  return send_request(server, build_request(spec, server.port()).head(0), "");
}

std::vector<fs::path> files_under(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) files.push_back(entry.path());
  return files;
}

}  // namespace

TEST_CASE("data_dir: objects round trip, survive a restart and hostile keys stay inside") {
  TempTree tree;
  ServerOptions options;
  options.data_dir = tree.data_dir().string();
  const std::string data = pattern_bytes(100000);
  {
    Server server(options);
    REQUIRE(put(server, "/bucket/../../x", data).status == 200);
    REQUIRE(put(server, "/bucket/dir/a b.txt", "hello world").status == 200);
    CHECK(server.object_count() == 2);
    auto got = get(server, "/bucket/../../x");
    CHECK(got.status == 200);
    CHECK(got.body == data);
    CHECK(as_string(*server.object_data("bucket", "dir/a b.txt")) == "hello world");
    auto meta = server.object("bucket", "dir/a b.txt");
    REQUIRE(meta);
    CHECK(meta->etag == "\"5eb63bbbe01eeed093cb22bb8f5acdc3\"");  // md5("hello world")
  }
  // Nothing was written outside data_dir, and no file is named after the key.
  for (const auto& entry : fs::recursive_directory_iterator(tree.root)) {
    auto relative = fs::relative(entry.path(), tree.data_dir());
    INFO(entry.path());
    CHECK((entry.path() == tree.data_dir() || !relative.string().starts_with("..") ||
           entry.path() == tree.root / "outside"));
    CHECK(entry.path().filename() != "x");
  }
  CHECK_FALSE(fs::exists(tree.root / "x"));
  CHECK_FALSE(fs::exists(tree.root / "outside" / "x"));
  CHECK(files_under(tree.data_dir()).size() >= 2);

  // A new server over the same directory serves the same objects.
  Server again(options);
  CHECK(again.object_count() == 2);
  CHECK(as_string(*again.object_data("bucket", "../../x")) == data);
  CHECK(get(again, "/bucket/dir/a b.txt").body == "hello world");
}

TEST_CASE("data_dir: a failed upload leaves no file behind") {
  TempTree tree;
  ServerOptions options;
  options.data_dir = tree.data_dir().string();
  Server server(options);
  RequestSpec spec;
  spec.path = "/bucket/key";
  spec.headers = {{"x-amz-checksum-crc32", "DUoRhQ=="}};  // CRC32("hello world"), not of this body
  auto response = send_request(server, build_request(spec, server.port()).head(5), "hello");
  CHECK(response.error_code() == "BadDigest");
  CHECK(server.object_count() == 0);
  CHECK(files_under(tree.data_dir()).empty());
}

TEST_CASE("stop() returns with an idle keep-alive connection open") {
  Server server;
  RawHttpConnection connection(server.port());
  REQUIRE(put(server, "/bucket/key", "abc").status == 200);
  // A request on this connection makes sure its serving thread is parked in a read, waiting for the next.
  RequestSpec spec;
  spec.path = "/bucket/key2";
  REQUIRE(connection.send(build_request(spec, server.port()).head(3) + "abc"));
  REQUIRE(connection.read_response()->status == 200);
  server.stop();  // would hang here if the idle connection were not shut down
  CHECK(connection.server_closed(10000));
  server.stop();  // idempotent; the destructor calls it again
}
