#!/usr/bin/env python3
# fuzz/corpus/make_seeds.py: writes the seed corpora of the text-driven fuzz targets from the reference
# (../shared/s3-wire-protocol.md §2, §4, §7) so that every seed says where its bytes come from. Run it from
# anywhere; it rewrites fuzz/corpus/{aws_chunked,http_request,s3_error,http_response}/.
# The differential seeds are not written here: their bytes are choices read by FuzzedDataProvider, picked
# from random inputs by the case each makes (S3UP_FUZZ_DESCRIBE=1 fuzz_differential -runs=0 FILE shows it).
import base64
import pathlib
import zlib

root = pathlib.Path(__file__).resolve().parent


def write(target, name, data):
    folder = root / target
    folder.mkdir(exist_ok=True)
    (folder / name).write_bytes(data.encode("latin-1") if isinstance(data, str) else data)


def crc32_b64(data):
    return base64.b64encode(zlib.crc32(data).to_bytes(4, "big")).decode()


# ---- aws_chunked: byte 0 flags (bit 0 signed), bytes 1-2 split seed, then the body.
sig = {  # reference §4.3 and §4.7 chunk signatures (the decoder checks their form, not their value)
    "c1": "ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648",
    "c2": "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497",
    "z": "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9",
}
# §4.7 small signed-trailer body, 304 bytes.
small_signed_trailer = (
    "b;chunk-signature=c7acc415d525c0601593743ceb09ed2f657c1964060f344f020b76f20ba9275b\r\nhello world\r\n"
    "0;chunk-signature=c18761bfd608772ff8111fc39f4fee4c2ee7752bf88052ee7d520e25474b0d6c\r\n"
    "x-amz-checksum-crc32:DUoRhQ==\r\n"
    "x-amz-trailer-signature:41507ea6e93215555d0796c25c4c472d94f62ef445b91b4dd2628e4a360e3391\r\n\r\n"
)
write("aws_chunked", "signed_trailer_hello_4.7", "\x01\x00\x00" + small_signed_trailer)
write("aws_chunked", "signed_trailer_hello_4.7_bytewise", "\x01\x08\x00" + small_signed_trailer)
# §2.2 worked example and the empty CRC64NVME object.
write("aws_chunked", "unsigned_trailer_hello_2.2", "\x00\x03\x00b\r\nhello world\r\n0\r\nx-amz-checksum-crc32:DUoRhQ==\r\n\r\n")
write("aws_chunked", "unsigned_empty_crc64nvme_2.2", "\x00\x01\x00" + "0\r\nx-amz-checksum-crc64nvme:AAAAAAAAAAA=\r\n\r\n")
# §4.3 framing shrunk to an 8 KiB chunk and a 1 KiB one (the signature values are §4.3's, for other sizes).
write("aws_chunked", "signed_two_chunks_4.3_shape",
      "\x01\x05\x00" + f"2000;chunk-signature={sig['c1']}\r\n" + "a" * 8192 + f"\r\n400;chunk-signature={sig['c2']}\r\n" +
      "a" * 1024 + f"\r\n0;chunk-signature={sig['z']}\r\n\r\n")
two = b"a" * 8192 + b"b" * 5
write("aws_chunked", "unsigned_two_chunks_crc32",
      b"\x00\x06\x00" + b"2000\r\n" + two[:8192] + b"\r\n5\r\n" + two[8192:] + b"\r\n0\r\nx-amz-checksum-crc32:" +
      crc32_b64(two).encode() + b"\r\n\r\n")
# A short chunk that is not the last one: InvalidChunkSizeError.
write("aws_chunked", "short_non_final_chunk", "\x00\x02\x00" + "10\r\n" + "x" * 16 + "\r\n5\r\nhello\r\n0\r\n\r\n")
# Bytes after the final CRLF, and a blank line before the trailer (some third-party servers add one).
write("aws_chunked", "bytes_after_end", "\x00\x04\x00" + "5\r\nhello\r\n0\r\n\r\nGET / HTTP/1.1\r\n")
write("aws_chunked", "blank_line_before_trailer",
      "\x00\x04\x00" + f"5\r\nhello\r\n0\r\n\r\nx-amz-checksum-crc32:{crc32_b64(b'hello')}\r\n\r\n")

# ---- http_request: byte 0 flags (bit 0: a filler field near max_header_block, bit 1: near max_header_fields
# instead), bytes 1-2 split seed, byte 3 filler length.
auth_4_4 = ("AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
            "SignedHeaders=content-encoding;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;"
            "x-amz-storage-class;x-amz-trailer,"
            "Signature=106e2a8a18243abcf37539882f36619c00e2dfc72633413f02d3b74544bfeb8e")
put_4_4 = ("PUT /examplebucket/chunkObject.txt HTTP/1.1\r\n"
           "Host: s3.amazonaws.com\r\n"
           "x-amz-date: 20130524T000000Z\r\n"
           "x-amz-storage-class: REDUCED_REDUNDANCY\r\n"
           f"Authorization: {auth_4_4}\r\n"
           "x-amz-content-sha256: STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER\r\n"
           "Content-Encoding: aws-chunked\r\n"
           "x-amz-decoded-content-length: 66560\r\n"
           "x-amz-trailer: x-amz-checksum-crc32c\r\n"
           "Content-Length: 66946\r\n\r\n")
write("http_request", "put_signed_trailer_4.4", "\x00\x11\x00\x00" + put_4_4)
write("http_request", "put_signed_trailer_4.4_near_block_limit", "\x01\x22\x00\x9c" + put_4_4)
write("http_request", "put_signed_trailer_4.4_near_fields_limit", "\x03\x22\x00\x20" + put_4_4)
get_4_2 = ("GET /test.txt HTTP/1.1\r\nHost: examplebucket.s3.amazonaws.com\r\nRange: bytes=0-9\r\n"
           "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\r\n"
           "x-amz-date: 20130524T000000Z\r\n"
           "Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
           "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
           "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41\r\n\r\n")
write("http_request", "get_range_4.2", "\x00\x07\x01\x00" + get_4_2)
write("http_request", "pipelined_two_requests",
      "\x00\x33\x00\x00" + get_4_2 + "GET /?max-keys=2&prefix=J HTTP/1.1\r\nHost: examplebucket.s3.amazonaws.com\r\n"
      "Connection: close\r\n\r\n")
write("http_request", "http10_keep_alive_expect",
      "\x00\x01\x02\x00" + "PUT /bucket/my%20key?x-id=PutObject HTTP/1.0\r\nHost: 127.0.0.1\r\n"
      "Connection: keep-alive\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
write("http_request", "leading_crlf_and_repeated_headers",
      "\x00\x05\x00\x00" + "\r\n\r\nPUT /b/k HTTP/1.1\r\nX-Amz-Meta-A: 1\r\nx-amz-meta-a:\t2 \r\nContent-Length: 0\r\n\r\n")
write("http_request", "obsolete_line_folding", "\x00\x09\x00\x00" + "GET /b/k HTTP/1.1\r\nX-A: b\r\n c\r\n\r\n")
write("http_request", "space_before_colon", "\x00\x09\x00\x00" + "GET /b/k HTTP/1.1\r\nHost : x\r\n\r\n")
write("http_request", "bare_lf_line_end", "\x00\x02\x00\x00" + "GET /b/k HTTP/1.1\nHost: x\r\n\r\n")

# ---- s3_error: an XML body alone, or "<status> <reason>\n<header lines>" NUL body.
xml_decl = '<?xml version="1.0" encoding="UTF-8"?>\n'
write("s3_error", "no_such_key", xml_decl + "<Error><Code>NoSuchKey</Code><Message>The resource you requested does not exist</Message>"
      "<Resource>/mybucket/myfoto.jpg</Resource><RequestId>4442587FB7D0A2F9</RequestId>"
      "<HostId>Uuag1LuByRx9e6j5Onimru9pO4ZVKnJ2Qz7/C1NPcfTWAtRPfTaOFg==</HostId></Error>")
write("s3_error", "bad_digest_crc32", xml_decl + "<Error><Code>BadDigest</Code><Message>The CRC32 you specified did not match "
      "the calculated checksum.</Message><RequestId>0ABC</RequestId><HostId>h</HostId></Error>")
write("s3_error", "signature_does_not_match", xml_decl + "<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature "
      "we calculated does not match the signature you provided. Check your key and signing method.</Message>"
      "<AWSAccessKeyId>AKIAIOSFODNN7EXAMPLE</AWSAccessKeyId><StringToSign>AWS4-HMAC-SHA256\n20130524T000000Z\n"
      "20130524/us-east-1/s3/aws4_request\n9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d"
      "</StringToSign><SignatureProvided>98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"
      "</SignatureProvided><StringToSignBytes>41 57 53 34</StringToSignBytes><CanonicalRequest>PUT\n"
      "/test%24file.text\n\ndate:Fri, 24 May 2013 00:00:00 GMT\nhost:examplebucket.s3.amazonaws.com\n"
      "</CanonicalRequest><RequestId>1</RequestId><HostId>2</HostId></Error>")
write("s3_error", "entities_cdata_comment", "<!-- proxy --><Error><Code>Slow&#68;own</Code><!-- x --><Message><![CDATA[Reduce "
      "<your> request rate]]> &amp; retry &#x1F600;</Message><RequestId/><HostId>a&lt;b</HostId></Error>")
write("s3_error", "empty_error", "<Error/>")
write("s3_error", "truncated", xml_decl + "<Error><Code>InternalError</Code><Message>We encountered an internal error")
write("s3_error", "slow_down_with_headers", "503 Slow Down\nx-amz-request-id: 4442587FB7D0A2F9\nx-amz-id-2: abc=\n\0" +
      "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>")
write("s3_error", "head_not_found_no_body", "404 Not Found\nx-amz-request-id: 3B3C7C725673C630\n\0")
write("s3_error", "status_only", "500\n\0")

# ---- http_response: byte 0 picks the call (0 put_object with a header checksum, 1 get_object, 2 delete_object,
# 3 create_bucket, 4 put_object with a trailer checksum), then the raw answer. The put sends "hello, world"
# with a CRC32 checksum.
put_crc = crc32_b64(b"hello, world")
ok_put = ("HTTP/1.1 200 OK\r\nx-amz-id-2: abc\r\nx-amz-request-id: 4442587FB7D0A2F9\r\n"
          "Date: Fri, 24 May 2013 00:00:00 GMT\r\nETag: \"e4d7f1b4ed2e42d15898f4b27b019da4\"\r\n"
          f"x-amz-checksum-crc32: {put_crc}\r\nx-amz-checksum-type: FULL_OBJECT\r\nContent-Length: 0\r\nServer: AmazonS3\r\n\r\n")
write("http_response", "put_200_checksum_echoed", "\x00" + ok_put)
write("http_response", "put_trailer_200_checksum_echoed", "\x04" + ok_put)
write("http_response", "put_200_other_checksum", "\x00" + ok_put.replace(put_crc, "AAAAAA=="))
write("http_response", "put_100_continue_then_200", "\x00HTTP/1.1 100 Continue\r\n\r\n" + ok_put)
bad_digest = (xml_decl + "<Error><Code>BadDigest</Code><Message>The CRC32 you specified did not match the calculated "
              "checksum.</Message><RequestId>0ABC</RequestId><HostId>h</HostId></Error>")
write("http_response", "put_400_bad_digest",
      f"\x00HTTP/1.1 400 Bad Request\r\nContent-Type: application/xml\r\nContent-Length: {len(bad_digest)}\r\n\r\n" + bad_digest)
skewed = (xml_decl + "<Error><Code>RequestTimeTooSkewed</Code><Message>The difference between the request time and the "
          "current time is too large.</Message></Error>")
write("http_response", "put_403_time_skewed",
      f"\x00HTTP/1.1 403 Forbidden\r\nDate: Fri, 24 May 2013 00:00:00 GMT\r\nContent-Length: {len(skewed)}\r\n\r\n" + skewed)
slow = "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>"
write("http_response", "put_503_slow_down_chunked",
      "\x00HTTP/1.1 503 Slow Down\r\nTransfer-Encoding: chunked\r\n\r\n" + f"{len(slow):x}\r\n{slow}\r\n0\r\n\r\n")
write("http_response", "get_200_checksum",
      f"\x01HTTP/1.1 200 OK\r\nETag: \"5d41402abc4b2a76b9719d911017c592\"\r\nx-amz-checksum-crc32: {crc32_b64(b'hello')}\r\n"
      "Content-Length: 5\r\n\r\nhello")
write("http_response", "get_200_truncated_body", "\x01HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nhello")
write("http_response", "get_404_head_style", "\x01HTTP/1.1 404 Not Found\r\nx-amz-request-id: 1\r\nContent-Length: 0\r\n\r\n")
write("http_response", "delete_204", "\x02HTTP/1.1 204 No Content\r\nx-amz-request-id: 2\r\n\r\n")
write("http_response", "create_bucket_200", "\x03HTTP/1.1 200 OK\r\nLocation: /bucket\r\nContent-Length: 0\r\n\r\n")
write("http_response", "create_bucket_409_owned",
      "\x03HTTP/1.1 409 Conflict\r\n\r\n<Error><Code>BucketAlreadyOwnedByYou</Code><Message>Your previous request to create "
      "the named bucket succeeded and you already own it.</Message></Error>")
# Found by this target: a field line that begins with "HTTP/" once diverted a 2xx body away from the sink.
write("http_response", "get_200_http_prefixed_field",
      f"\x01HTTP/1.1 200 OK\r\nETag: \"e\"\r\nx-amz-checksum-crc32: {crc32_b64(b'hello')}\r\nHTTP/Content-Length: 5\r\n"
      "Content-Length: 5\r\n\r\nhello")
# Found by this target: curl reads an unreadable "HTTP/..." status line as HTTP/1.0 200; the client read 0.
write("http_response", "get_unreadable_status_line", b"\x01HTTP/'.1 n002etont-ht:\xe2\xca\xcf\xf2\n\r\nhel\x01\x00")
