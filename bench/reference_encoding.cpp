// bench/reference_encoding.cpp: see reference_encoding.h. Slow and obvious on purpose.
#include "reference_encoding.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <zlib.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string_view>

namespace s3up::bench {
namespace {

// Reflected CRC table for a byte-at-a-time CRC (init all ones, final xor all ones).
template <class Word>
std::array<Word, 256> reflected_table(Word polynomial) {
  std::array<Word, 256> table{};
  for (unsigned i = 0; i < 256; ++i) {
    Word c = i;
    for (int bit = 0; bit < 8; ++bit) c = (c & 1) ? (c >> 1) ^ polynomial : c >> 1;
    table[i] = c;
  }
  return table;
}

template <class Word>
Word reflected_crc(const std::array<Word, 256>& table, std::span<const std::byte> data) {
  Word crc = ~Word(0);
  for (std::byte b : data) crc = table[(crc ^ static_cast<Word>(b)) & 0xff] ^ (crc >> 8);
  return ~crc;
}

std::uint32_t crc32c(std::span<const std::byte> data) {
  static const auto table = reflected_table<std::uint32_t>(0x82F63B78u);  // Castagnoli, reflected
  return reflected_crc(table, data);
}

std::uint64_t crc64nvme(std::span<const std::byte> data) {
  static const auto table = reflected_table<std::uint64_t>(0x9A6C9329AC4BC9B5ull);  // NVMe, reflected
  return reflected_crc(table, data);
}

std::uint32_t zlib_crc32(std::span<const std::byte> data) {
  uLong crc = crc32(0L, Z_NULL, 0);
  // zlib takes uInt lengths: feed it in pieces below 4 GiB.
  while (!data.empty()) {
    const std::size_t n = std::min<std::size_t>(data.size(), 1u << 30);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(n));
    data = data.subspan(n);
  }
  return static_cast<std::uint32_t>(crc);
}

std::string big_endian(std::uint64_t value, int bytes) {
  std::string out;
  for (int i = bytes - 1; i >= 0; --i) out += static_cast<char>((value >> (8 * i)) & 0xff);
  return out;
}

std::string digest(const EVP_MD* md, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(data.data(), data.size(), out, &size, md, nullptr) != 1)
    throw std::runtime_error("EVP_Digest failed");
  return std::string(reinterpret_cast<char*>(out), size);
}

std::string hmac_sha256(std::string_view key, std::string_view message) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), out, &size);
  return std::string(reinterpret_cast<char*>(out), size);
}

std::string hex(std::string_view bytes) {
  std::string out;
  char pair[3];
  for (char c : bytes) {
    std::snprintf(pair, sizeof pair, "%02x", static_cast<unsigned char>(c));
    out += pair;
  }
  return out;
}

std::string base64(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                      reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

std::string_view as_text(std::span<const std::byte> data) {
  return {reinterpret_cast<const char*>(data.data()), data.size()};
}

std::string trailer_name(ChecksumAlgorithm algorithm) {
  switch (algorithm) {
    case ChecksumAlgorithm::crc32:
      return "x-amz-checksum-crc32";
    case ChecksumAlgorithm::crc32c:
      return "x-amz-checksum-crc32c";
    case ChecksumAlgorithm::crc64nvme:
      return "x-amz-checksum-crc64nvme";
    case ChecksumAlgorithm::sha1:
      return "x-amz-checksum-sha1";
    case ChecksumAlgorithm::sha256:
      return "x-amz-checksum-sha256";
    case ChecksumAlgorithm::md5:
      break;
  }
  throw std::invalid_argument("no aws-chunked trailer for MD5");
}

std::string hex_size(std::size_t n) {
  char text[24];
  std::snprintf(text, sizeof text, "%zx", n);
  return text;
}

// The chunk signature chain of reference §3.3-3.4, one HMAC per string to sign.
class ReferenceSigner {
 public:
  explicit ReferenceSigner(const ReferenceSigning& signing)
      : amz_date_(signing.amz_date),
        scope_(signing.amz_date.substr(0, 8) + "/" + signing.region + "/s3/aws4_request"),
        previous_(signing.seed_signature) {
    std::string key = hmac_sha256("AWS4" + signing.secret_access_key, signing.amz_date.substr(0, 8));
    key = hmac_sha256(key, signing.region);
    key = hmac_sha256(key, "s3");
    key_ = hmac_sha256(key, "aws4_request");
  }

  std::string chunk(std::string_view data) {
    static const std::string empty_hash = hex(digest(EVP_sha256(), ""));
    previous_ =
        hex(hmac_sha256(key_, "AWS4-HMAC-SHA256-PAYLOAD\n" + amz_date_ + "\n" + scope_ + "\n" + previous_ +
                                  "\n" + empty_hash + "\n" + hex(digest(EVP_sha256(), data))));
    return previous_;
  }

  std::string trailer(std::string_view canonical_trailer) {
    return hex(hmac_sha256(key_, "AWS4-HMAC-SHA256-TRAILER\n" + amz_date_ + "\n" + scope_ + "\n" + previous_ +
                                     "\n" + hex(digest(EVP_sha256(), canonical_trailer))));
  }

 private:
  std::string amz_date_;
  std::string scope_;
  std::string previous_;
  std::string key_;
};

}  // namespace

std::string reference_checksum_base64(ChecksumAlgorithm algorithm, std::span<const std::byte> data) {
  switch (algorithm) {
    case ChecksumAlgorithm::crc32:
      return base64(big_endian(zlib_crc32(data), 4));
    case ChecksumAlgorithm::crc32c:
      return base64(big_endian(crc32c(data), 4));
    case ChecksumAlgorithm::crc64nvme:
      return base64(big_endian(crc64nvme(data), 8));
    case ChecksumAlgorithm::sha1:
      return base64(digest(EVP_sha1(), as_text(data)));
    case ChecksumAlgorithm::sha256:
      return base64(digest(EVP_sha256(), as_text(data)));
    case ChecksumAlgorithm::md5:
      return base64(digest(EVP_md5(), as_text(data)));
  }
  return {};
}

std::string reference_encoding(std::span<const std::byte> payload, Framing framing,
                               std::optional<ChecksumAlgorithm> trailer, std::size_t chunk_size,
                               const ReferenceSigning& signing) {
  const std::string_view text = as_text(payload);
  if (framing == Framing::raw) return std::string(text);
  const bool signed_chunks = framing != Framing::unsigned_trailer;
  // A plain flag and value rather than *trailer: GCC 12 at -O2 warns falsely (-Wmaybe-uninitialized) on the
  // dereference of an optional enum parameter that was reset.
  const bool has_trailer = trailer.has_value() && framing != Framing::signed_chunks;
  const ChecksumAlgorithm algorithm = trailer.value_or(ChecksumAlgorithm::crc32);
  ReferenceSigner signer(signing);

  std::string body;
  for (std::size_t at = 0; at < text.size(); at += chunk_size) {
    const std::string_view chunk = text.substr(at, chunk_size);
    body += hex_size(chunk.size());
    if (signed_chunks) body += ";chunk-signature=" + signer.chunk(chunk);
    body += "\r\n";
    body += chunk;
    body += "\r\n";
  }
  body += "0";
  if (signed_chunks) body += ";chunk-signature=" + signer.chunk("");
  body += "\r\n";
  if (has_trailer) {
    const std::string line = trailer_name(algorithm) + ":" + reference_checksum_base64(algorithm, payload);
    body += line + "\r\n";
    if (signed_chunks) body += "x-amz-trailer-signature:" + signer.trailer(line + "\n") + "\r\n";
  }
  body += "\r\n";
  return body;
}

std::string reference_self_test() {
  const auto bytes = [](std::string_view text) { return std::as_bytes(std::span(text.data(), text.size())); };
  // CRC check values: the CRC of "123456789" in the CRC catalogue (CRC-32C/ISCSI, CRC-64/NVME).
  if (crc32c(bytes("123456789")) != 0xE3069283u) return "CRC32C check value";
  if (crc64nvme(bytes("123456789")) != 0xAE8B14860A799888ull) return "CRC64NVME check value";
  if (zlib_crc32(bytes("123456789")) != 0xCBF43926u) return "CRC32 check value";

  // Wire reference §2.2: "hello world" with a CRC32 trailer.
  const ReferenceSigning none{};
  if (reference_encoding(bytes("hello world"), Framing::unsigned_trailer, ChecksumAlgorithm::crc32, 65536,
                         none) != "b\r\nhello world\r\n0\r\nx-amz-checksum-crc32:DUoRhQ==\r\n\r\n")
    return "unsigned trailer example (wire reference 2.2)";

  // Wire reference §4.3 and §4.4: 66560 bytes of 'a' in 64 KiB chunks, AWS's documented example.
  const std::string object(66560, 'a');
  ReferenceSigning signing{"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "20130524T000000Z", "us-east-1",
                           "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9"};
  const std::string signed_body =
      reference_encoding(bytes(object), Framing::signed_chunks, std::nullopt, 65536, signing);
  if (signed_body.size() != 66824 ||
      !signed_body.starts_with(
          "10000;chunk-signature=ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648\r\n") ||
      !signed_body.ends_with(
          "0;chunk-signature=b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9\r\n\r\n"))
    return "signed chunks example (wire reference 4.3)";

  signing.seed_signature = "106e2a8a18243abcf37539882f36619c00e2dfc72633413f02d3b74544bfeb8e";
  const std::string trailer_body =
      reference_encoding(bytes(object), Framing::signed_trailer, ChecksumAlgorithm::crc32c, 65536, signing);
  if (trailer_body.size() != 66946 ||
      !trailer_body.ends_with(
          "0;chunk-signature=2ca2aba2005185cf7159c6277faf83795951dd77a3a99e6e65d5c9f85863f992\r\n"
          "x-amz-checksum-crc32c:sOO8/Q==\r\n"
          "x-amz-trailer-signature:d81f82fc3505edab99d459891051a732e8730629a2e4a59689829ca17fe2e435\r\n\r\n"))
    return "signed trailer example (wire reference 4.4)";
  return {};
}

}  // namespace s3up::bench
