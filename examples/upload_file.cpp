// upload_file: uploads one file to S3 (or any S3-compatible endpoint) with s3up::upload(), by one PutObject
// or, for large files, a multipart upload. Credentials, region and endpoint come from the AWS environment.
//
//   AWS_ENDPOINT_URL=http://127.0.0.1:9000 upload_file photo.jpg my-bucket photos/photo.jpg
#include <cstdio>
#include <exception>

#include <s3up/transfer.h>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s FILE BUCKET KEY\n", argv[0]);
    return 2;
  }
  try {
    s3up::FileSource file(argv[1]);
    s3up::UploadOptions options;
    options.put.checksum_algorithm = s3up::ChecksumAlgorithm::crc32c;  // verified by the server as it stores
    auto result = s3up::upload(s3up::ClientConfig{}, argv[2], argv[3], file, options);
    if (!result) {
      std::fprintf(stderr, "upload failed: %s\n", result.error().to_string().c_str());
      return 1;
    }
    std::printf("uploaded %llu bytes, ETag %s, CRC32C %s\n", static_cast<unsigned long long>(result->bytes),
                result->etag.c_str(), result->checksum.c_str());
    return 0;
  } catch (const std::exception& error) {  // FileSource throws BodyError when the file cannot be opened
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  }
}
