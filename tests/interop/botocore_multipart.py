#!/usr/bin/env python3
"""Multipart uploads by real third-party clients against `s3up serve`: boto3's create_multipart_upload /
upload_part / complete_multipart_upload with CRC32, SHA1 and SHA256 COMPOSITE and CRC32 FULL_OBJECT checksums
(botocore here has no awscrt, so no CRC32C or CRC64NVME), over HTTP (checksum headers) and HTTPS (aws-chunked
trailers), and s3transfer's upload_file with 5 MiB parts. The expected part, composite and full-object values
and the multipart ETags are computed here with zlib and hashlib; every object must read back byte-exact. A wrong
part checksum must be refused (BadDigest on UploadPart, InvalidPart on Complete), and --min-part-size honoured.

usage: botocore_multipart.py PATH_TO_S3UP
Exits 77 (ctest: skipped) with a printed reason when boto3 is missing.
"""
import base64
import hashlib
import os
import sys
import tempfile
import zlib

from report import check, finish, skip

try:
    import boto3.s3.transfer
    import botocore.exceptions
except ImportError as error:
    skip(f"boto3 is not installed for {sys.executable}: {error}")

from botocore_clients import Serve, client  # noqa: E402  (after the skip above)

MiB = 1024 * 1024


def digest(algorithm, data):
    """The raw part digest S3 works with: CRCs as 4 big-endian bytes."""
    if algorithm == "CRC32":
        return zlib.crc32(data).to_bytes(4, "big")
    return hashlib.new(algorithm.lower(), data).digest()


def b64(raw):
    return base64.b64encode(raw).decode()


def composite(algorithm, parts):
    """Reference §6.2: the algorithm over the concatenated raw part digests, then -N."""
    return b64(digest(algorithm, b"".join(digest(algorithm, part) for part in parts))) + f"-{len(parts)}"


def multipart_etag(parts):
    return '"' + hashlib.md5(b"".join(hashlib.md5(part).digest() for part in parts)).hexdigest() + f'-{len(parts)}"'


def error_code(call):
    try:
        call()
        return None
    except botocore.exceptions.ClientError as error:
        return error.response["Error"]


def exercise_api(url, verify, data, sizes):
    """The low-level operations, one upload per algorithm/type pair."""
    s3 = client(url, verify)
    scheme = url.split(":")[0]
    sent = []  # x-amz-trailer of each UploadPart, as botocore sent it
    s3.meta.events.register("before-send.s3.UploadPart",
                            lambda request, **_: sent.append(request.headers.get("x-amz-trailer", b"")))
    parts, at = [], 0
    for size in sizes:
        parts.append(data[at:at + size])
        at += size
    whole = data[:at]
    for algorithm, checksum_type in [("CRC32", "COMPOSITE"), ("SHA1", "COMPOSITE"), ("SHA256", "COMPOSITE"),
                                     ("CRC32", "FULL_OBJECT")]:
        what = f"boto3 {scheme} {algorithm} {checksum_type}"
        key = f"api/{scheme}/{algorithm}/{checksum_type}"
        member = f"Checksum{algorithm}"
        created = s3.create_multipart_upload(Bucket="interop", Key=key, ChecksumAlgorithm=algorithm,
                                             ChecksumType=checksum_type)
        upload_id = created["UploadId"]
        check(created.get("ChecksumAlgorithm") == algorithm and created.get("ChecksumType") == checksum_type,
              f"{what}: CreateMultipartUpload answers the algorithm and type")
        completed_parts = []
        for number, part in enumerate(parts, start=1):
            answer = s3.upload_part(Bucket="interop", Key=key, UploadId=upload_id, PartNumber=number, Body=part,
                                    ChecksumAlgorithm=algorithm)
            check(answer.get(member) == b64(digest(algorithm, part)), f"{what}: part {number} checksum answered")
            check(answer["ETag"] == '"' + hashlib.md5(part).hexdigest() + '"', f"{what}: part {number} ETag is its MD5")
            completed_parts.append({"ETag": answer["ETag"], "PartNumber": number, member: answer[member]})
        # botocore streams a part with an aws-chunked trailer only over HTTPS; over HTTP it sends a header.
        trailers = {value.decode() if isinstance(value, bytes) else value for value in sent[-len(parts):]}
        check(trailers == ({f"x-amz-checksum-{algorithm.lower()}"} if scheme == "https" else {""}),
              f"{what}: parts sent with {'a trailer' if scheme == 'https' else 'a checksum header'}")
        listed = s3.list_parts(Bucket="interop", Key=key, UploadId=upload_id)["Parts"]
        check([(p["PartNumber"], p["Size"], p.get(member)) for p in listed] ==
              [(n, len(p), b64(digest(algorithm, p))) for n, p in enumerate(parts, start=1)],
              f"{what}: ListParts lists every part with its size and checksum")

        if checksum_type == "FULL_OBJECT":
            expected = b64(zlib.crc32(whole).to_bytes(4, "big"))
            extra = {"ChecksumType": "FULL_OBJECT", member: expected}  # checked by the server
        else:
            expected = composite(algorithm, parts)
            extra = {"ChecksumType": "COMPOSITE"}
        done = s3.complete_multipart_upload(Bucket="interop", Key=key, UploadId=upload_id,
                                            MultipartUpload={"Parts": completed_parts}, **extra)
        check(done["ETag"] == multipart_etag(parts), f"{what}: Complete answers the multipart ETag")
        check(done.get(member) == expected and done.get("ChecksumType") == checksum_type,
              f"{what}: Complete answers {expected} {checksum_type}")
        # get_object asks for the checksum; botocore validates a FULL_OBJECT CRC32 against the body it reads.
        got = s3.get_object(Bucket="interop", Key=key, ChecksumMode="ENABLED")
        check(got["Body"].read() == whole, f"{what}: read back byte-exact")
        head = s3.head_object(Bucket="interop", Key=key, ChecksumMode="ENABLED")
        check(head.get(member) == expected and head.get("ChecksumType") == checksum_type,
              f"{what}: HeadObject answers the object checksum and type")

    # Refusals: a wrong part checksum on UploadPart and on Complete, then abort.
    key = f"api/{scheme}/refused"
    upload_id = s3.create_multipart_upload(Bucket="interop", Key=key, ChecksumAlgorithm="CRC32")["UploadId"]
    error = error_code(lambda: s3.upload_part(Bucket="interop", Key=key, UploadId=upload_id, PartNumber=1,
                                              Body=parts[0], ChecksumCRC32="AAAAAA=="))
    check(error and error["Code"] == "BadDigest", f"boto3 {scheme}: a wrong part CRC32 is refused with BadDigest")
    answers = [s3.upload_part(Bucket="interop", Key=key, UploadId=upload_id, PartNumber=n, Body=p,
                              ChecksumAlgorithm="CRC32") for n, p in enumerate(parts[:2], start=1)]
    wrong = [{"ETag": a["ETag"], "PartNumber": n, "ChecksumCRC32": "AAAAAA=="} for n, a in enumerate(answers, start=1)]
    error = error_code(lambda: s3.complete_multipart_upload(Bucket="interop", Key=key, UploadId=upload_id,
                                                            MultipartUpload={"Parts": wrong}))
    check(error and error["Code"] == "InvalidPart", f"boto3 {scheme}: a wrong part checksum on Complete is InvalidPart")
    uploads = s3.list_multipart_uploads(Bucket="interop", Prefix=key).get("Uploads", [])
    check([u["UploadId"] for u in uploads] == [upload_id], f"boto3 {scheme}: ListMultipartUploads lists the upload")
    s3.abort_multipart_upload(Bucket="interop", Key=key, UploadId=upload_id)
    error = error_code(lambda: s3.list_parts(Bucket="interop", Key=key, UploadId=upload_id))
    check(error and error["Code"] == "NoSuchUpload", f"boto3 {scheme}: an aborted upload is NoSuchUpload")
    error = error_code(lambda: s3.head_object(Bucket="interop", Key=key))
    check(error and error["Code"] in ("404", "NoSuchKey"), f"boto3 {scheme}: nothing stored from the refused upload")
    error = error_code(lambda: s3.create_multipart_upload(Bucket="interop", Key=key, ChecksumAlgorithm="SHA1",
                                                          ChecksumType="FULL_OBJECT"))
    check(error and error["Code"] == "InvalidRequest", f"boto3 {scheme}: SHA1 FULL_OBJECT is refused")


def exercise_min_part_size(url, min_part_size):
    """--min-part-size: a part under it that is not the last fails Complete with EntityTooSmall."""
    s3 = client(url, True)
    upload_id = s3.create_multipart_upload(Bucket="interop", Key="small")["UploadId"]
    answers = [s3.upload_part(Bucket="interop", Key="small", UploadId=upload_id, PartNumber=n, Body=body)
               for n, body in [(1, b"x" * (min_part_size - 1)), (2, b"tail")]]
    parts = [{"ETag": a["ETag"], "PartNumber": n} for n, a in enumerate(answers, start=1)]
    error = error_code(lambda: s3.complete_multipart_upload(Bucket="interop", Key="small", UploadId=upload_id,
                                                            MultipartUpload={"Parts": parts}))
    check(error and error["Code"] == "EntityTooSmall", "boto3: a part under --min-part-size is EntityTooSmall")


def exercise_s3transfer(url, path, data):
    """s3transfer's upload_file in 5 MiB parts: its default CRC32, SHA256, and a FULL_OBJECT CRC32 it was given."""
    s3 = client(url, True)
    config = boto3.s3.transfer.TransferConfig(multipart_threshold=5 * MiB, multipart_chunksize=5 * MiB)
    parts = [data[at:at + 5 * MiB] for at in range(0, len(data), 5 * MiB)]
    full_crc32 = b64(zlib.crc32(data).to_bytes(4, "big"))
    cases = [
        ("default", {}, "CRC32", composite("CRC32", parts), "COMPOSITE"),
        ("SHA256", {"ChecksumAlgorithm": "SHA256"}, "SHA256", composite("SHA256", parts), "COMPOSITE"),
        ("full CRC32", {"ChecksumCRC32": full_crc32}, "CRC32", full_crc32, "FULL_OBJECT"),
    ]
    for name, extra_args, algorithm, expected, checksum_type in cases:
        key = f"s3transfer/{name}"
        s3.upload_file(path, "interop", key, ExtraArgs=extra_args, Config=config)
        head = s3.head_object(Bucket="interop", Key=key, ChecksumMode="ENABLED")
        check(head["ETag"] == multipart_etag(parts), f"s3transfer upload_file {name}: {len(parts)} parts, multipart ETag")
        check(head.get(f"Checksum{algorithm}") == expected and head.get("ChecksumType") == checksum_type,
              f"s3transfer upload_file {name}: {algorithm} {checksum_type} {expected}")
        got = s3.get_object(Bucket="interop", Key=key)["Body"].read()
        check(got == data, f"s3transfer upload_file {name}: read back byte-exact")


def main():
    s3up = sys.argv[1]
    data = os.urandom(12 * MiB + 4321)  # three 5 MiB parts for s3transfer, the last one short
    with tempfile.TemporaryDirectory(prefix="s3up-interop-mp-") as directory:
        path = os.path.join(directory, "object.bin")
        with open(path, "wb") as f:
            f.write(data)
        cert = os.path.join(directory, "server.pem")
        http = Serve(s3up, "--min-part-size", "4KiB")
        https = Serve(s3up, "--min-part-size", "4KiB", "--tls", "--cert-out", cert)
        try:
            sizes = [4096, 5000, 777]  # parts of at least --min-part-size, the last one under it
            exercise_api(http.url, True, data, sizes)
            exercise_api(https.url, cert, data, sizes)
            exercise_min_part_size(http.url, 4096)
            exercise_s3transfer(http.url, path, data)
        finally:
            check(http.stop() == 0, "s3up serve (HTTP) stops cleanly on SIGTERM")
            check(https.stop() == 0, "s3up serve (HTTPS) stops cleanly on SIGTERM")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
