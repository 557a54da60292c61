"""Small helpers shared by the interoperability scripts (no third-party imports)."""

import sys


class Checks:
    """Counts checks, prints each one, and ends the script non-zero on failure.

    A failed check is printed at once (``FAIL ...``) and the script goes on,
    so one run reports every broken behaviour; ``finish()`` exits 1 if any
    check failed.
    """

    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failures = []
        self.section_name = None

    def section(self, title):
        self.section_name = title
        print(f"\n== {title}", flush=True)

    def run(self, title, func, *args):
        """Runs one section; an unexpected exception fails it and the script goes on."""
        self.section(title)
        try:
            func(self, *args)
        except Exception as exc:  # noqa: BLE001 - reported as a failed check
            import traceback

            traceback.print_exc()
            self.check(
                False,
                "section ran to its end",
                f"{type(exc).__module__}.{type(exc).__name__}: {exc}",
            )

    def check(self, condition, what, detail=None):
        if condition:
            self.passed += 1
            print(f"  ok   {what}", flush=True)
        else:
            message = what if detail is None else f"{what}: {detail}"
            where = f"[{self.section_name}] " if self.section_name else ""
            self.failures.append(where + message)
            print(f"  FAIL {message}", flush=True)
        return condition

    def equal(self, actual, expected, what):
        return self.check(
            actual == expected, f"{what} == {expected!r}", f"got {actual!r}"
        )

    def raises(self, exc_type, func, what, *args, **kwargs):
        """Checks that ``func(*args, **kwargs)`` raises ``exc_type``; returns it."""
        try:
            result = func(*args, **kwargs)
        except exc_type as exc:
            self.check(True, f"{what} raises {exc_type.__name__}: {exc}")
            return exc
        except Exception as exc:  # noqa: BLE001 - reported as a failed check
            self.check(
                False,
                f"{what} raises {exc_type.__name__}",
                f"raised {type(exc).__module__}.{type(exc).__name__}: {exc}",
            )
            return None
        self.check(
            False, f"{what} raises {exc_type.__name__}", f"returned {result!r}"
        )
        return None

    def finish(self):
        total = self.passed + len(self.failures)
        print(f"\n{self.name}: {total} checks, {self.passed} ok, {len(self.failures)} FAILED")
        if self.failures:
            print(f"\n{self.name}: FAILED checks:", file=sys.stderr)
            for failure in self.failures:
                print(f"  - {failure}", file=sys.stderr)
            sys.exit(1)
        if total == 0:
            print(f"{self.name}: no check ran", file=sys.stderr)
            sys.exit(1)


def root_url_from_argv(usage):
    if len(sys.argv) < 2 or not sys.argv[1].startswith("http"):
        print(f"usage: {usage}", file=sys.stderr)
        sys.exit(2)
    return sys.argv[1].rstrip("/")
