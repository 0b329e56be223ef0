"""Shared by the interop tests: one line per check, and the closing line and exit code ctest reads."""
import sys

SKIP = 77  # ctest SKIP_RETURN_CODE: the third-party software is missing; the reason is printed first

_failures = []


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
