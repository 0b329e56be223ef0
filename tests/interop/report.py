"""Shared by the interop tests: one line per check, the closing line and exit code ctest reads, and the
environment s3up runs in."""
import os
import sys

SKIP = 77  # ctest SKIP_RETURN_CODE: the third-party software is missing; the reason is printed first

_failures = []

# A path that cannot exist: s3up reads no AWS configuration or credentials file (a missing file is no profiles).
_NO_FILE = "/nonexistent/s3up-interop/no-aws-file"


def skip(reason):
    print(f"SKIPPED: {reason}")
    sys.exit(SKIP)


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        _failures.append(what)


def finish():
    """Prints the closing line and returns the exit code."""
    print(f"{'FAILED' if _failures else 'passed'}: {len(_failures)} failure(s)")
    return 1 if _failures else 0


def s3up_environment(**settings):
    """The environment for an s3up process: the caller's without any AWS_* variable and with no AWS config or
    credentials file, so a developer's AWS_PROFILE, ~/.aws files, AWS_ENDPOINT_URL... cannot change the run;
    then `settings` (e.g. AWS_ACCESS_KEY_ID). The third-party clients keep the caller's environment."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("AWS_")}
    env.update(AWS_CONFIG_FILE=_NO_FILE, AWS_SHARED_CREDENTIALS_FILE=_NO_FILE)
    env.update(settings)
    return env
