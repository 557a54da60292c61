"""osc-placement's own functional tests against the placement example.

The tests come unmodified from the osc-placement package. They run the
`openstack` CLI in-process against `PlacementFixture` from Placement's own
functional fixtures, which serves the real Placement through wsgi-intercept
over a fresh database for each test. Here that fixture serves this example
instead: a `placement-node` process (the path in `PLACEMENT_NODE`) on a
free loopback port over a fresh in-memory database for each test, with
Placement's noauth2 admin token. The one test that runs `openstack` as a
program finds it on PATH, as in a tox environment. Nothing else changes.

Run: PLACEMENT_NODE=... python osc_functional.py [test name prefixes...]
Prints unittest's report and a last line `osc-placement: N run, F failed,
E errors, S skipped`; exits non-zero unless every test ran and passed.
"""

import os
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import fixtures
import osc_placement.tests.functional as functional
from placement.tests.functional.fixtures import placement as placement_fixtures

NODE = os.environ["PLACEMENT_NODE"]
START_TIMEOUT = 10.0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ExamplePlacement(fixtures.Fixture):
    """Placement's `PlacementFixture`, served by the example: the same
    `endpoint` and `token` attributes the tests read."""

    def _setUp(self):
        port = free_port()
        process = subprocess.Popen(
            [NODE, "--listen", f"127.0.0.1:{port}", "--database", ":memory:"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self.addCleanup(self._stop, process)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError(
                        "placement-node exited: " + process.stderr.read().decode(errors="replace")
                    )
                if time.monotonic() > deadline:
                    raise RuntimeError(f"placement-node is not listening on {port}")
                time.sleep(0.01)
        self.endpoint = f"http://127.0.0.1:{port}"
        # noauth2: the user `admin` has the admin role.
        self.token = "admin"

    @staticmethod
    def _stop(process):
        process.kill()
        process.wait()
        process.stderr.close()


placement_fixtures.PlacementFixture = ExamplePlacement


def put_openstack_on_path(directory):
    """An `openstack` command for the tests that run it as a program, as a
    tox environment's would be: through this interpreter (the venv's own
    scripts name the directory it was built in)."""
    script = os.path.join(directory, "openstack")
    with open(script, "w") as f:
        f.write(
            f"#!/bin/sh\nexec '{sys.executable}' -c "
            "'import sys; from openstackclient.shell import main; sys.exit(main(sys.argv[1:]))' \"$@\"\n"
        )
    os.chmod(script, 0o755)
    os.environ["PATH"] = directory + os.pathsep + os.environ.get("PATH", "")


def main():
    with tempfile.TemporaryDirectory() as bin_dir:
        put_openstack_on_path(bin_dir)
        run()


def run():
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(functional.__file__))))
    suite = unittest.defaultTestLoader.discover(os.path.dirname(functional.__file__), top_level_dir=top)
    prefixes = sys.argv[1:]
    if prefixes:

        def wanted(test):
            return any(test.id().startswith(p) or p in test.id() for p in prefixes)

        def keep(tests):
            kept = unittest.TestSuite()
            for test in tests:
                if isinstance(test, unittest.TestSuite):
                    kept.addTests(keep(test))
                elif wanted(test):
                    kept.addTest(test)
            return kept

        suite = keep(suite)
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=1).run(suite)
    print(
        f"osc-placement: {result.testsRun} run, {len(result.failures)} failed, "
        f"{len(result.errors)} errors, {len(result.skipped)} skipped"
    )
    # An import error of a test module is an error too: nothing may go unrun.
    ok = result.wasSuccessful() and result.testsRun > 0 and not result.skipped
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
