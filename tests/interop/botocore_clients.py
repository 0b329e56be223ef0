#!/usr/bin/env python3
"""Real third-party clients against `s3up serve`: boto3/botocore and the AWS CLI v1 upload over HTTP and HTTPS
with their own SigV4 signer, aws-chunked trailer encoder and checksums; the mock server verifies every signature
and checksum and the objects must read back byte-exact. A checksum that botocore sends wrong on purpose (an
explicit ChecksumCRC32 that does not match) must be refused with BadDigest, and a wrong secret with
SignatureDoesNotMatch.

usage: botocore_clients.py PATH_TO_S3UP
Exits 77 (ctest: skipped) with a printed reason when boto3 or the AWS CLI is missing.
"""
import base64
import hashlib
import io
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import zlib

from report import check, finish, skip
ACCESS_KEY = "AKIAIOSFODNN7EXAMPLE"
SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"

try:
    import boto3
    import botocore.config
    import botocore.exceptions
except ImportError as error:
    skip(f"boto3 is not installed for {sys.executable}: {error}")



class Serve:
    """`s3up serve` in a child process; the first stdout line is 'listening on <URL>'."""

    def __init__(self, s3up, *flags):
        self.process = subprocess.Popen([s3up, "serve", *flags], stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("listening on "):
            raise RuntimeError(f"s3up serve printed {line!r}")
        self.url = line[len("listening on "):]

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=20)


def client(url, verify, secret=SECRET_KEY, **config):
    return boto3.client(
        "s3", endpoint_url=url, region_name="us-east-1", aws_access_key_id=ACCESS_KEY,
        aws_secret_access_key=secret, verify=verify,
        config=botocore.config.Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}, **config))


def crc32_base64(data):
    return base64.b64encode(zlib.crc32(data).to_bytes(4, "big")).decode()


def exercise_boto3(url, verify, data):
    s3 = client(url, verify)
    scheme = url.split(":")[0]
    sent = []  # (x-amz-content-sha256, x-amz-trailer) of each PUT, as botocore sent it
    s3.meta.events.register("before-send.s3.PutObject", lambda request, **_: sent.append(
        (request.headers.get("x-amz-content-sha256", b""), request.headers.get("x-amz-trailer", b""))))
    # CRC32C and CRC64NVME need botocore's optional awscrt, which this machine does not have.
    for algorithm in [None, "CRC32", "SHA1", "SHA256"]:
        key = f"boto3/{scheme}/{algorithm or 'default'}"
        kwargs = {"ChecksumAlgorithm": algorithm} if algorithm else {}
        # A file-like body makes botocore stream it: aws-chunked with a trailer over HTTPS, a header over HTTP.
        s3.put_object(Bucket="interop", Key=key, Body=io.BytesIO(data), **kwargs)
        got = s3.get_object(Bucket="interop", Key=key)["Body"].read()
        check(got == data, f"boto3 put_object {scheme} {algorithm or 'default checksum'}: read back byte-exact")
        # botocore streams with an aws-chunked trailer only over HTTPS; over HTTP it pre-reads the body, sends a
        # checksum header and signs the payload's SHA-256, which the mock server then verifies too.
        payload, trailer = (value.decode() if isinstance(value, bytes) else value for value in sent[-1])
        expected = "STREAMING-UNSIGNED-PAYLOAD-TRAILER" if scheme == "https" else hashlib.sha256(data).hexdigest()
        check(payload == expected and (trailer != "") == (scheme == "https"),
              f"boto3 put_object {scheme} {algorithm or 'default checksum'}: sent as {payload} {trailer}")

    key = f"boto3/{scheme}/bytes"
    answer = s3.put_object(Bucket="interop", Key=key, Body=data)  # bytes: signed payload, checksum header
    check(answer["ETag"] == '"' + hashlib.md5(data).hexdigest() + '"', f"boto3 {scheme}: ETag is the MD5")
    check(answer.get("ChecksumCRC32") == crc32_base64(data), f"boto3 {scheme}: server echoes the CRC32")

    s3.upload_fileobj(io.BytesIO(data), "interop", f"boto3/{scheme}/upload_fileobj")
    got = s3.get_object(Bucket="interop", Key=f"boto3/{scheme}/upload_fileobj")["Body"].read()
    check(got == data, f"boto3 upload_fileobj {scheme}: read back byte-exact")

    try:
        s3.put_object(Bucket="interop", Key=f"boto3/{scheme}/wrong", Body=data, ChecksumCRC32="AAAAAA==")
        check(False, f"boto3 {scheme}: a wrong x-amz-checksum-crc32 is refused")
    except botocore.exceptions.ClientError as error:
        check(error.response["Error"]["Code"] == "BadDigest", f"boto3 {scheme}: wrong CRC32 refused with BadDigest")
    try:
        s3.head_object(Bucket="interop", Key=f"boto3/{scheme}/wrong")
        check(False, f"boto3 {scheme}: nothing stored after BadDigest")
    except botocore.exceptions.ClientError as error:
        check(error.response["Error"]["Code"] in ("404", "NoSuchKey"), f"boto3 {scheme}: nothing stored after BadDigest")

    try:
        client(url, verify, secret="not-the-secret").put_object(Bucket="interop", Key="x", Body=b"x")
        check(False, f"boto3 {scheme}: a wrong secret is refused")
    except botocore.exceptions.ClientError as error:
        check(error.response["Error"]["Code"] == "SignatureDoesNotMatch",
              f"boto3 {scheme}: wrong secret refused with SignatureDoesNotMatch")


def exercise_aws_cli(url, ca_bundle, path, data):
    aws = shutil.which("aws")
    if not aws:
        print("SKIPPED (part): the AWS CLI is not installed")
        return
    env = dict(os.environ, AWS_ACCESS_KEY_ID=ACCESS_KEY, AWS_SECRET_ACCESS_KEY=SECRET_KEY, AWS_DEFAULT_REGION="us-east-1")
    env.pop("AWS_PROFILE", None)
    common = ["--endpoint-url", url] + (["--ca-bundle", ca_bundle] if ca_bundle else [])
    scheme = url.split(":")[0]
    for extra in [[], ["--checksum-algorithm", "SHA256"]]:
        key = f"cli/{scheme}/{'-'.join(extra) or 'default'}"
        result = subprocess.run([aws, "s3", "cp", path, f"s3://interop/{key}", "--only-show-errors", *common, *extra],
                                env=env, capture_output=True, text=True)
        check(result.returncode == 0, f"aws s3 cp {scheme} {' '.join(extra)}: exit 0 {result.stderr.strip()}")
        got = client(url, ca_bundle or True).get_object(Bucket="interop", Key=key)["Body"].read()
        check(got == data, f"aws s3 cp {scheme} {' '.join(extra)}: read back byte-exact")


def main():
    s3up = sys.argv[1]
    data = os.urandom(3 * 1024 * 1024 + 12345)  # several aws-chunked chunks, one partial
    with tempfile.TemporaryDirectory(prefix="s3up-interop-") as directory:
        path = os.path.join(directory, "object.bin")
        with open(path, "wb") as f:
            f.write(data)
        cert = os.path.join(directory, "server.pem")
        http = Serve(s3up)
        https = Serve(s3up, "--tls", "--cert-out", cert)
        try:
            exercise_boto3(http.url, True, data)
            exercise_boto3(https.url, cert, data)
            exercise_aws_cli(http.url, None, path, data)
            exercise_aws_cli(https.url, cert, path, data)
        finally:
            check(http.stop() == 0, "s3up serve (HTTP) stops cleanly on SIGTERM")
            check(https.stop() == 0, "s3up serve (HTTPS) stops cleanly on SIGTERM")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
