#!/usr/bin/env python3
"""Real third-party clients against `s3up serve`: boto3/botocore and the AWS CLI v1 upload over HTTP and HTTPS
with their own SigV4 signer, aws-chunked trailer encoder and checksums; the mock server verifies every signature
and checksum and the objects must read back byte-exact. A checksum that botocore sends wrong on purpose (an
explicit ChecksumCRC32 that does not match) must be refused with BadDigest, and a wrong secret with
SignatureDoesNotMatch.

Each client uploads with the default checksum, CRC32, CRC32C, SHA256 (and boto3 SHA1), from a buffer (bytes; the
CLI: a file) and from a stream (a file object; the CLI: standard input). botocore computes CRC32C only with the
optional awscrt package: without it those uploads are skipped, each with the reason printed.

usage: botocore_clients.py PATH_TO_S3UP
Exits 77 (ctest: skipped) with a printed reason when boto3 or the AWS CLI is missing.
"""
import base64
import contextlib
import functools
import hashlib
import io
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import zlib

from report import check, finish, s3up_environment, skip
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
        self.process = subprocess.Popen([s3up, "serve", *flags], stdout=subprocess.PIPE, text=True,
                                        env=s3up_environment())
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


def _crc32c_table():
    table = []
    for n in range(256):
        for _ in range(8):
            n = (n >> 1) ^ (0x82F63B78 if n & 1 else 0)
        table.append(n)
    return table


_CRC32C_TABLE = _crc32c_table()


def crc32c_base64(data):
    """CRC32C (Castagnoli, reflected 0x82F63B78), table-driven: independent of botocore, awscrt and s3up."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc = (crc >> 8) ^ _CRC32C_TABLE[(crc ^ byte) & 0xFF]
    return base64.b64encode((crc ^ 0xFFFFFFFF).to_bytes(4, "big")).decode()


@functools.lru_cache(maxsize=8)  # the same object is uploaded many times; the pure-Python CRC32C takes a second
def expected_checksum(algorithm, data):
    """The x-amz-checksum-* value S3 echoes, computed here with zlib, hashlib and the CRC32C above."""
    if algorithm == "CRC32":
        return crc32_base64(data)
    if algorithm == "CRC32C":
        return crc32c_base64(data)
    return base64.b64encode(hashlib.new(algorithm.lower(), data).digest()).decode()


def no_crc32c_reason(client_name, error):
    message = str(error).strip()
    message = message[message.find("Missing Dependency"):] if "Missing Dependency" in message else message
    return (f"SKIPPED (part): {client_name} CRC32C: botocore {botocore.__version__} computes CRC32C only with the "
            f"optional awscrt package, not installed for {sys.executable} ({message[:100]})")


def exercise_boto3(url, verify, data):
    s3 = client(url, verify)
    scheme = url.split(":")[0]
    sent = []  # (x-amz-content-sha256, x-amz-trailer) of each PUT, as botocore sent it
    s3.meta.events.register("before-send.s3.PutObject", lambda request, **_: sent.append(
        (request.headers.get("x-amz-content-sha256", b""), request.headers.get("x-amz-trailer", b""))))
    # CRC32C (and CRC64NVME) need botocore's optional awscrt: tried, and skipped with the reason when absent.
    for algorithm in [None, "CRC32", "CRC32C", "SHA1", "SHA256"]:
        kwargs = {"ChecksumAlgorithm": algorithm} if algorithm else {}
        for kind in ["stream", "bytes"]:
            key = f"boto3/{scheme}/{algorithm or 'default'}/{kind}"
            what = f"boto3 put_object {scheme} {algorithm or 'default checksum'} from {kind}"
            # A file-like body is a stream botocore reads as it sends; bytes are a buffer.
            body = io.BytesIO(data) if kind == "stream" else data
            try:
                answer = s3.put_object(Bucket="interop", Key=key, Body=body, **kwargs)
            except botocore.exceptions.MissingDependencyException as error:
                print(no_crc32c_reason("boto3", error))
                break
            used = algorithm or "CRC32"  # botocore's default since 1.36: CRC32 "when supported"
            check(answer.get(f"Checksum{used}") == expected_checksum(used, data),
                  f"{what}: server verified and echoes {used} {answer.get(f'Checksum{used}')}")
            got = s3.get_object(Bucket="interop", Key=key)["Body"].read()
            check(got == data, f"{what}: read back byte-exact")
            # botocore sends PutObject aws-chunked with a trailer only over HTTPS; over HTTP it pre-reads the
            # body, sends a checksum header and signs the payload's SHA-256, which the mock server verifies too.
            payload, trailer = (value.decode() if isinstance(value, bytes) else value for value in sent[-1])
            expected = "STREAMING-UNSIGNED-PAYLOAD-TRAILER" if scheme == "https" else hashlib.sha256(data).hexdigest()
            check(payload == expected and (trailer != "") == (scheme == "https"),
                  f"{what}: sent as {payload} {trailer}")

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


def run_aws_cli(args, env, stdin=None):
    """Runs the AWS CLI v1 by its own driver (awscli.clidriver, what the `aws` command runs) in this process,
    sparing each call the Python start-up and botocore import of a new `aws` process (seconds on a loaded
    machine). stdin: bytes the CLI reads as its standard input. Returns (exit code, stderr)."""
    from awscli.clidriver import create_clidriver

    saved_environ, saved_stdin = dict(os.environ), sys.stdin
    os.environ.pop("AWS_PROFILE", None)
    os.environ.update(env)
    errors = io.StringIO()
    try:
        if stdin is not None:
            sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(errors):
            code = create_clidriver().main(args)
    finally:
        os.environ.clear()
        os.environ.update(saved_environ)
        sys.stdin = saved_stdin
    return code, errors.getvalue()


def exercise_aws_cli(url, ca_bundle, path, data):
    aws = shutil.which("aws")
    if not aws:
        print("SKIPPED (part): the AWS CLI is not installed")
        return
    env = dict(AWS_ACCESS_KEY_ID=ACCESS_KEY, AWS_SECRET_ACCESS_KEY=SECRET_KEY, AWS_DEFAULT_REGION="us-east-1")
    common = ["--endpoint-url", url] + (["--ca-bundle", ca_bundle] if ca_bundle else [])
    scheme = url.split(":")[0]
    s3 = client(url, ca_bundle or True)

    # The `aws` command itself, as a person runs it: a file, the default checksum.
    key = f"cli/{scheme}/aws-command"
    process_env = dict(os.environ, **env)
    process_env.pop("AWS_PROFILE", None)
    result = subprocess.run([aws, "s3", "cp", path, f"s3://interop/{key}", "--only-show-errors", *common],
                            env=process_env, capture_output=True, text=True)
    check(result.returncode == 0, f"aws s3 cp {scheme} (the aws command): exit 0 {result.stderr.strip()}")
    check(s3.get_object(Bucket="interop", Key=key)["Body"].read() == data,
          f"aws s3 cp {scheme} (the aws command): read back byte-exact")

    try:
        import awscli.clidriver  # noqa: F401
    except ImportError as error:
        print(f"SKIPPED (part): the AWS CLI's checksum matrix needs awscli importable by {sys.executable}: {error}")
        return
    # From a file (the CLI reads it in ranges it can re-read: a buffer) and from standard input (a stream).
    for algorithm in [None, "CRC32", "CRC32C", "SHA256"]:
        extra = ["--checksum-algorithm", algorithm] if algorithm else []
        for source in ["file", "stdin"]:
            key = f"cli/{scheme}/{algorithm or 'default'}/{source}"
            what = f"aws s3 cp {scheme} {algorithm or 'default checksum'} from {source}"
            code, errors = run_aws_cli(["s3", "cp", path if source == "file" else "-", f"s3://interop/{key}",
                                        "--only-show-errors", *common, *extra],
                                       env, stdin=data if source == "stdin" else None)
            if code != 0 and algorithm == "CRC32C" and "crt" in errors.lower():
                print(no_crc32c_reason("aws s3 cp", errors))
                break
            check(code == 0, f"{what}: exit 0 {errors.strip()}")
            used = algorithm or "CRC32"
            head = s3.head_object(Bucket="interop", Key=key, ChecksumMode="ENABLED")
            check(head.get(f"Checksum{used}") == expected_checksum(used, data),
                  f"{what}: stored with {used} {head.get(f'Checksum{used}')}")
            check(s3.get_object(Bucket="interop", Key=key)["Body"].read() == data, f"{what}: read back byte-exact")


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
