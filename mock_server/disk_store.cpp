// disk_store.cpp: the ObjectStore over a data directory. Names on disk never come from the request text
// directly: a bucket directory is the hex of the bucket name and an object file is the SHA-256 of its key,
// so no key ("../../x", "a/b", 1024 bytes long) can escape data_dir or exceed NAME_MAX. A PUT is staged in
// data_dir/.staging and renamed into place at commit; multipart parts wait there as files too.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <shared_mutex>
#include <sstream>
#include <stdexcept>

#include "object_store.h"
#include "s3up/checksum.h"

namespace s3up::mock {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t staging_buffer_size = 1 << 20;
constexpr std::string_view meta_magic = "s3up-mock-object 1";

std::string text_hex(std::string_view text) {
  return hex_encode(std::as_bytes(std::span(text.data(), text.size())));
}

std::optional<std::string> text_unhex(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out;
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    auto nibble = [](char c) {
      return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    };
    int hi = nibble(hex[i]);
    int lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
  }
  return out;
}

bool write_fully(int fd, const std::byte* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

class DiskWriter final : public ObjectWriter {
 public:
  DiskWriter(std::string bucket, std::string key, fs::path path)
      : bucket_(std::move(bucket)),
        key_(std::move(key)),
        path_(std::move(path)),
        buffer_(std::make_unique_for_overwrite<std::byte[]>(staging_buffer_size)) {
    fd_.reset(::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
    ok_ = static_cast<bool>(fd_);
  }
  ~DiskWriter() override {
    if (!committed_) ::unlink(path_.c_str());
  }

  std::span<std::byte> prepare(std::size_t want) override {
    if (used_ == staging_buffer_size) flush();
    return {buffer_.get() + used_, std::min(want, staging_buffer_size - used_)};
  }
  void commit(std::size_t n) override { used_ += n; }

  bool finish() {
    flush();
    return ok_;
  }

  std::string bucket_;
  std::string key_;
  fs::path path_;
  bool committed_ = false;

 private:
  void flush() {
    if (ok_ && used_ > 0) ok_ = write_fully(fd_.get(), buffer_.get(), used_);
    used_ = 0;
  }

  std::unique_ptr<std::byte[]> buffer_;
  std::size_t used_ = 0;
  UniqueFd fd_;
  bool ok_ = false;
};

// A received part: its staging file, deleted with the last reference (upload aborted, or object complete).
class DiskPart final : public StoredPart {
 public:
  explicit DiskPart(fs::path path) : path_(std::move(path)) {}
  ~DiskPart() override { ::unlink(path_.c_str()); }
  fs::path path_;
};

// Appends the file at `path` to `out`: copy_file_range first, read/write where the kernel cannot.
bool append_file(int out, const fs::path& path) {
  UniqueFd in(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!in) return false;
  for (;;) {
    ssize_t n = ::copy_file_range(in.get(), nullptr, out, nullptr, std::size_t{1} << 30, 0);
    if (n == 0) return true;
    if (n > 0) continue;
    if (errno == EINTR) continue;
    if (errno != EXDEV && errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP) return false;
    break;
  }
  auto buffer = std::make_unique_for_overwrite<std::byte[]>(staging_buffer_size);
  for (;;) {
    ssize_t n = ::read(in.get(), buffer.get(), staging_buffer_size);
    if (n == 0) return true;
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (!write_fully(out, buffer.get(), static_cast<std::size_t>(n))) return false;
  }
}

class DiskStore final : public ObjectStore {
 public:
  explicit DiskStore(const std::string& data_dir) : root_(data_dir), staging_(root_ / ".staging") {
    std::error_code error;
    fs::create_directories(staging_, error);
    if (error)
      throw std::runtime_error("mock S3 server: cannot create " + staging_.string() + ": " + error.message());
    // Leftovers of a crashed run are incomplete uploads: never objects.
    for (const auto& entry : fs::directory_iterator(staging_, error)) fs::remove(entry.path(), error);
  }

  bool has_bucket(const std::string& bucket) const override {
    std::shared_lock lock(mutex_);
    return fs::is_directory(bucket_dir(bucket));
  }

  bool create_bucket(const std::string& bucket) override {
    std::unique_lock lock(mutex_);
    std::error_code error;
    return fs::create_directory(bucket_dir(bucket), error);
  }

  DeleteBucketResult delete_bucket(const std::string& bucket) override {
    std::unique_lock lock(mutex_);
    fs::path dir = bucket_dir(bucket);
    if (!fs::is_directory(dir)) return DeleteBucketResult::missing;
    std::error_code error;
    if (!fs::is_empty(dir, error)) return DeleteBucketResult::not_empty;
    fs::remove(dir, error);
    return DeleteBucketResult::deleted;
  }

  std::unique_ptr<ObjectWriter> begin_put(const std::string& bucket, const std::string& key,
                                          std::optional<std::uint64_t> /*size*/) override {
    return std::make_unique<DiskWriter>(bucket, key, next_staging_path());
  }

  bool commit_put(std::unique_ptr<ObjectWriter> writer, const StoredObject& meta) override {
    auto& disk = static_cast<DiskWriter&>(*writer);
    if (!disk.finish() || !publish(disk.path_, disk.bucket_, disk.key_, meta)) return false;
    disk.committed_ = true;
    return true;
  }

  std::unique_ptr<ObjectWriter> begin_part(std::optional<std::uint64_t> /*size*/) override {
    return std::make_unique<DiskWriter>(std::string(), std::string(), next_staging_path());
  }

  std::shared_ptr<const StoredPart> keep_part(std::unique_ptr<ObjectWriter> writer) override {
    auto& disk = static_cast<DiskWriter&>(*writer);
    if (!disk.finish()) return nullptr;
    disk.committed_ = true;  // the file is the part's now
    return std::make_shared<DiskPart>(disk.path_);
  }

  // The parts are concatenated into a new staging file (copy_file_range: in the kernel, or a reflink on
  // filesystems that have them), so the disk briefly holds the object twice; memory stays at one buffer.
  bool commit_multipart(const std::string& bucket, const std::string& key,
                        std::span<const std::shared_ptr<const StoredPart>> parts,
                        const StoredObject& meta) override {
    fs::path path = next_staging_path();
    bool ok;
    {
      UniqueFd out(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
      ok = static_cast<bool>(out);
      for (std::size_t i = 0; ok && i < parts.size(); ++i)
        ok = append_file(out.get(), static_cast<const DiskPart&>(*parts[i]).path_);
    }
    if (!ok || !publish(path, bucket, key, meta)) {
      ::unlink(path.c_str());
      return false;
    }
    return true;
  }

  std::optional<StoredObject> head(const std::string& bucket, const std::string& key) const override {
    std::shared_lock lock(mutex_);
    return read_meta(meta_path(object_base(bucket, key)));
  }

  std::optional<ObjectContent> get(const std::string& bucket, const std::string& key) const override {
    std::shared_lock lock(mutex_);
    fs::path base = object_base(bucket, key);
    auto meta = read_meta(meta_path(base));
    if (!meta) return std::nullopt;
    ObjectContent content;
    content.meta = std::move(*meta);
    // Opened under the lock: a later PUT renames a new file over the name, this descriptor keeps the old one.
    content.file.reset(::open(data_path(base).c_str(), O_RDONLY | O_CLOEXEC));
    if (!content.file) return std::nullopt;
    return content;
  }

  bool remove(const std::string& bucket, const std::string& key) override {
    std::unique_lock lock(mutex_);
    fs::path base = object_base(bucket, key);
    std::error_code error;
    bool existed = fs::remove(meta_path(base), error);
    fs::remove(data_path(base), error);
    return existed;
  }

  std::size_t object_count() const override {
    std::shared_lock lock(mutex_);
    std::size_t count = 0;
    std::error_code error;
    for (const auto& bucket : fs::directory_iterator(root_, error)) {
      if (!bucket.is_directory() || bucket.path() == staging_) continue;
      for (const auto& file : fs::directory_iterator(bucket.path(), error))
        if (file.path().extension() == ".meta") ++count;
    }
    return count;
  }

 private:
  fs::path next_staging_path() { return staging_ / (std::to_string(next_staging_++) + ".part"); }

  // Writes the metadata beside the staged data file, then renames both into the bucket. The caller still
  // owns the data file when this fails.
  bool publish(const fs::path& data_staging, const std::string& bucket, const std::string& key,
               const StoredObject& meta) {
    fs::path meta_staging = data_staging;
    meta_staging.replace_extension(".meta");
    {
      std::ofstream out(meta_staging, std::ios::binary | std::ios::trunc);
      out << meta_magic << '\n'
          << "key " << text_hex(key) << '\n'
          << "size " << meta.size << '\n'
          << "etag " << text_hex(meta.etag) << '\n'
          << "content-type " << text_hex(meta.content_type) << '\n'
          << "parts " << meta.parts << '\n';
      if (meta.checksum)
        out << "checksum " << text_hex(meta.checksum->first) << ' ' << text_hex(meta.checksum->second)
            << '\n';
      if (!meta.checksum_type.empty()) out << "checksum-type " << text_hex(meta.checksum_type) << '\n';
      if (!out.flush()) {
        fs::remove(meta_staging);
        return false;
      }
    }
    std::unique_lock lock(mutex_);
    std::error_code error;
    fs::create_directory(bucket_dir(bucket), error);
    fs::path base = object_base(bucket, key);
    fs::rename(data_staging, data_path(base), error);
    if (!error) fs::rename(meta_staging, meta_path(base), error);
    if (error) {
      fs::remove(meta_staging);
      return false;
    }
    return true;
  }

  fs::path bucket_dir(const std::string& bucket) const { return root_ / ("b-" + text_hex(bucket)); }
  fs::path object_base(const std::string& bucket, const std::string& key) const {
    return bucket_dir(bucket) / compute_checksum(ChecksumAlgorithm::sha256, key).hex();
  }
  static fs::path data_path(const fs::path& base) { return fs::path(base.string() + ".data"); }
  static fs::path meta_path(const fs::path& base) { return fs::path(base.string() + ".meta"); }

  static std::optional<StoredObject> read_meta(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    if (!std::getline(in, line) || line != meta_magic) return std::nullopt;
    StoredObject meta;
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string name, first, second;
      fields >> name >> first >> second;
      if (name == "size") meta.size = std::stoull(first);
      if (name == "etag") meta.etag = text_unhex(first).value_or("");
      if (name == "content-type") meta.content_type = text_unhex(first).value_or("");
      if (name == "parts") meta.parts = std::stoi(first);
      if (name == "checksum-type") meta.checksum_type = text_unhex(first).value_or("");
      if (name == "checksum")
        meta.checksum.emplace(text_unhex(first).value_or(""), text_unhex(second).value_or(""));
    }
    return meta;
  }

  fs::path root_;
  fs::path staging_;
  std::atomic<std::uint64_t> next_staging_{0};
  mutable std::shared_mutex mutex_;
};

}  // namespace

std::unique_ptr<ObjectStore> make_disk_store(const std::string& data_dir) {
  return std::make_unique<DiskStore>(data_dir);
}

}  // namespace s3up::mock
