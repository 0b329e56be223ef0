#!/usr/bin/env python3
"""`s3up cp` against a real third-party S3 server: moto's server with IAM authentication on, which verifies SigV4
(with a verifier that shares no code with s3up's) and decodes aws-chunked. Every payload mode must upload, and
the object read back through boto3 must be byte-exact; a wrong secret must be refused.

usage: moto_server.py PATH_TO_S3UP
Exits 77 (ctest: skipped) with a printed reason when moto or boto3 is missing.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from report import check, finish, s3up_environment, skip

try:
    import boto3
except ImportError as error:
    skip(f"boto3 is not installed for {sys.executable}: {error}")
moto_server = shutil.which("moto_server")
if not moto_server:
    skip("moto_server is not on PATH")



def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_moto(port):
    # The first four requests may go unauthenticated: they create the IAM user, policy and key s3up signs with.
    env = dict(os.environ, TEST_SERVER_MODE="true", INITIAL_NO_AUTH_ACTION_COUNT="4")
    process = subprocess.Popen([moto_server, "-p", str(port)], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("moto_server did not start")


def main():
    s3up = sys.argv[1]
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    moto = start_moto(port)
    try:
        iam = boto3.client("iam", endpoint_url=url, region_name="us-east-1", aws_access_key_id="bootstrap",
                           aws_secret_access_key="bootstrap")
        iam.create_user(UserName="s3up")
        iam.put_user_policy(UserName="s3up", PolicyName="all", PolicyDocument=json.dumps(
            {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}))
        key = iam.create_access_key(UserName="s3up")["AccessKey"]
        credentials = {"aws_access_key_id": key["AccessKeyId"], "aws_secret_access_key": key["SecretAccessKey"]}
        s3 = boto3.client("s3", endpoint_url=url, region_name="us-east-1", **credentials)
        s3.create_bucket(Bucket="interop")

        env = s3up_environment(AWS_ACCESS_KEY_ID=key["AccessKeyId"], AWS_SECRET_ACCESS_KEY=key["SecretAccessKey"],
                               AWS_REGION="us-east-1")
        data = os.urandom(2 * 1024 * 1024 + 4321)
        with tempfile.NamedTemporaryFile(prefix="s3up-moto-") as f:
            f.write(data)
            f.flush()
            modes = [["--checksum-location", "header"],
                     ["--checksum-location", "trailer"],
                     ["--checksum-location", "trailer", "--signed-payload"],
                     ["--checksum-location", "header", "--signed-payload"],
                     ["--checksum-location", "none", "--signed-payload"],
                     ["--checksum-location", "none"],
                     ["--checksum-algorithm", "SHA256", "--content-md5"]]
            for number, mode in enumerate(modes):
                name = " ".join(mode)
                result = subprocess.run([s3up, "cp", f.name, f"s3://interop/object-{number}", "--endpoint-url", url,
                                         "--quiet", *mode], env=env, capture_output=True, text=True)
                check(result.returncode == 0, f"s3up cp {name}: exit 0 {result.stderr.strip()}")
                got = s3.get_object(Bucket="interop", Key=f"object-{number}")["Body"].read()
                check(got == data, f"s3up cp {name}: moto stored the bytes exactly")

            env["AWS_SECRET_ACCESS_KEY"] = "not-the-secret"
            result = subprocess.run([s3up, "cp", f.name, "s3://interop/refused", "--endpoint-url", url], env=env,
                                    capture_output=True, text=True)
            check(result.returncode == 4 and "SignatureDoesNotMatch" in result.stderr,
                  "s3up cp with a wrong secret: moto refuses it (exit 4, SignatureDoesNotMatch)")
    finally:
        moto.terminate()
        moto.wait(timeout=20)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
