"""The compute example's OpenAPI 3.0.3 documents read by openapi-spec-validator.

Usage: openapi_3_0_validator.py DOCS_DIR

Every committed 3.0 document (DOCS_DIR/3.0/<version>.json, one per version,
as many as the 3.1 ones beside them) declares `openapi: 3.0.3`, names the
same version as its 3.1 twin, and is valid by openapi-spec-validator's 3.0
rules (its OpenAPIV30SpecValidator, not the one the document's own
`openapi` field would pick). The 3.1 documents are validated by
openapi_tools.py.
"""

import glob
import json
import os
import sys

from openapi_spec_validator import OpenAPIV30SpecValidator, validate

from _interop import Checks


def documents(checks, docs_dir):
    versions = {os.path.basename(f)[: -len(".json")] for f in glob.glob(os.path.join(docs_dir, "*.json"))}
    versions.discard("history")
    found = {os.path.basename(f)[: -len(".json")] for f in glob.glob(os.path.join(docs_dir, "3.0", "*.json"))}
    checks.check(len(found) >= 90, f"{len(found)} committed 3.0 documents found")
    checks.check(found == versions, "a 3.0 document for each 3.1 document", f"{sorted(found ^ versions)}")
    for version in sorted(found, key=lambda v: tuple(int(p) for p in v.split("."))):
        with open(os.path.join(docs_dir, "3.0", f"{version}.json")) as f:
            document = json.load(f)
        checks.check(document.get("openapi") == "3.0.3", f"{version}.json declares 3.0.3", document.get("openapi"))
        checks.check(document.get("info", {}).get("version") == version, f"{version}.json describes {version}")
        try:
            validate(document, cls=OpenAPIV30SpecValidator)
            checks.check(True, f"{version}.json is a valid OpenAPI 3.0 document")
        except Exception as exc:  # noqa: BLE001 - reported as a failed check
            checks.check(False, f"{version}.json is a valid OpenAPI 3.0 document", str(exc)[:800])


def main():
    checks = Checks("openapi_3_0_validator")
    checks.run("openapi-spec-validator accepts every 3.0 document", documents, sys.argv[1])
    checks.finish()


if __name__ == "__main__":
    main()
