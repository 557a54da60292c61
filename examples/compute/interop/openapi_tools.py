"""The compute example's OpenAPI documents read by real tools.

Usage: openapi_tools.py ROOT_URL DOCS_DIR

- openapi-spec-validator accepts every committed per-version document and
  the whole-history document the server serves;
- schemathesis runs against the live server at several versions, with the
  version header set, and finds no 5xx and no response that contradicts
  the document (status codes, content types, headers, body schemas).
"""

import glob
import json
import os
import subprocess
import sys
import urllib.request

from openapi_spec_validator import validate

from _interop import Checks

VERSIONS = ["2.1", "2.2", "2.10", "2.55", "2.61", "2.75", "2.92", "2.96"]
CHECKS = ",".join([
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
])


def validator(checks, root, docs_dir):
    files = sorted(glob.glob(os.path.join(docs_dir, "*.json")))
    checks.check(len(files) >= 90, f"{len(files)} committed documents found")
    for path in files:
        with open(path) as f:
            document = json.load(f)
        try:
            validate(document)
            checks.check(True, f"{os.path.basename(path)} is a valid OpenAPI document")
        except Exception as exc:  # noqa: BLE001 - reported as a failed check
            checks.check(False, f"{os.path.basename(path)} is a valid OpenAPI document", str(exc)[:500])
    with urllib.request.urlopen(f"{root}/openapi-history.json") as res:
        history = json.load(res)
    try:
        validate(history)
        checks.check(True, "the whole-history document is a valid OpenAPI document")
    except Exception as exc:  # noqa: BLE001
        checks.check(False, "the whole-history document is a valid OpenAPI document", str(exc)[:500])


def schemathesis(checks, root):
    for version in VERSIONS:
        # As a module: the venv's console scripts name the interpreter by the
        # path the venv was built at.
        command = [
            sys.executable, "-m", "schemathesis.cli", "run", f"{root}/openapi.json?version={version}",
            "--url", root,
            "--header", f"OpenStack-API-Version: compute {version}",
            "--checks", CHECKS,
            "--max-examples", "15",
            "--seed", "1",
            "--phases", "examples,coverage,fuzzing",
            "--workers", "1",
        ]
        run = subprocess.run(command, capture_output=True, text=True, timeout=600)
        summary = [line for line in run.stdout.splitlines() if "generated" in line]
        detail = summary[-1].strip() if summary else run.stdout[-2000:]
        checks.check(run.returncode == 0, f"schemathesis at {version}: {detail}",
                      None if run.returncode == 0 else run.stdout[-4000:] + run.stderr[-2000:])


def main():
    root, docs_dir = sys.argv[1].rstrip("/"), sys.argv[2]
    checks = Checks("openapi_tools")
    checks.run("openapi-spec-validator accepts every document", validator, root, docs_dir)
    checks.run("schemathesis finds nothing against the live server", schemathesis, root)
    checks.finish()


if __name__ == "__main__":
    main()
