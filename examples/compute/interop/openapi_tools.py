"""The compute example's OpenAPI documents read by real tools.

Usage: openapi_tools.py ROOT_URL DOCS_DIR

- openapi-spec-validator accepts every committed per-version document and
  the whole-history document the server serves;
- schemathesis runs against the live server at every released version (one
  committed document each), with the version header set and every check it
  has (its default: naming them with `--checks all` would override the
  per-operation exceptions below), its stateful phase included, and finds
  nothing: no
  5xx, no status, header, content type or body the document does not
  declare, no schema-invalid request accepted, no schema-valid request
  refused (except where listed below, with why), Allow headers that list
  exactly the documented methods, deleted resources gone.

The time budget (the whole script runs in CI on 2 cores): where a version's
document differs from the previous version's (the version itself aside), and
at the newest, every phase runs with BOUNDARY_EXAMPLES examples per
operation; at the versions in between, whose documents are the same contract
as their boundary's, the fuzzing and stateful phases run with
BETWEEN_EXAMPLES. Two processes run the stateless phases, each version in
process; the stateful phase then runs one version at a time, since it
follows links from lists to resources other runs on the same server made,
and two at once delete each other's.
"""

import glob
import json
import multiprocessing
import os
import sys
import tempfile
import time
import urllib.request

from openapi_spec_validator import validate

from _interop import Checks

BOUNDARY_EXAMPLES = 15
BETWEEN_EXAMPLES = 3
PARALLEL = 2

# Schema-valid requests the server refuses with 400. schemathesis's
# `positive_data_acceptance` check expects a schema-valid request to succeed
# (or get 404 or 409); for these operations it accepts 400 too, at the
# versions given (None: open-ended). Every other check runs on them
# unchanged. Each entry says why; the same list is in
# docs/17-describing-the-api.md.
#
# First, what JSON Schema cannot state:
FLAVOR_LIST_WHY = (
    "`marker` must name a stored flavor (that depends on the data, not on the request's shape), and "
    "`is_public` is any string to Nova's query schema, read by its handler (`_parse_is_public`: "
    "`true`, `false`, `none` and their other spellings)")
ACCEPTS_400 = [
    ("GET", "/v2.1/flavors", "2.1", None, FLAVOR_LIST_WHY),
    ("GET", "/v2.1/flavors/detail", "2.1", None, FLAVOR_LIST_WHY),
    ("POST", "/v2.1/flavors", "2.1", None,
     "a size given as a digit string is bounded by the handler, as Nova's `flavors.create` bounds it "
     "(oslo's `validate_integer`); the schema bounds numbers only, as Nova's does"),
    ("PUT", "/v2.1/flavors/{id}", "2.55", None,
     "a description's characters must be printable as Nova's `parameter_types._is_printable` says "
     "(its schema spells every printable range in a pattern); the handler checks them"),
    ("POST", "/v2.1/flavors/{id}/action", "2.1", None,
     "the body must hold exactly one key, naming a known action (`addTenantAccess`, "
     "`removeTenantAccess`): Nova's `wsgi.action_peek` decides that, before the schema that checks "
     "the action's arguments"),
    ("GET", "/v2.1/os-keypairs", "2.35", None,
     "`marker` must name a stored keypair: that depends on the data, not on the request's shape"),
    ("POST", "/v2.1/os-keypairs", "2.1", None,
     "`public_key` must parse as an OpenSSH public key or an X.509 PEM certificate (its fingerprint is "
     "computed): key structure, base64 and ASN.1 content are beyond a JSON Schema pattern"),
    ("PUT", "/v2.1/flavors/{id}/os-extra_specs/{key}", "2.1", None,
     "the body's one key must be the `{key}` of the path: JSON Schema cannot relate a body property "
     "name to a path parameter"),
    ("POST", "/v2.1/flavors/{id}/os-extra_specs", "2.86", None,
     "a key Nova knows must have a value its validator accepts, and a key in a namespace Nova knows "
     "must be one it knows: Nova's validators (api/validation/extra_specs) are code over five hundred "
     "keys, not its request schema"),
]
# Checks excluded at some versions, each with why (also in
# docs/17-describing-the-api.md): (check, first version, last version, why).
EXCLUDED = []
# Checks turned off for one operation, each with why (also in
# docs/17-describing-the-api.md): (method, path, check, why).
OPERATION_EXCLUDED = [
    ("GET", "/v2.1/flavors/{id}/os-flavor-access", "ensure_resource_availability",
     "a flavor just created is public unless asked otherwise, and a public flavor has no access list "
     "(404, as Nova's `FlavorAccessController.index` answers)"),
    ("POST", "/v2.1/flavors/{id}/action", "ensure_resource_availability",
     "`removeTenantAccess` of a project the flavor was never shared with answers 404 for the access, "
     "not the flavor (Nova's `_remove_tenant_access`: FlavorAccessNotFound, 'Flavor access not found "
     "for 10 / p combination.'), which the check reads as the flavor just created being gone"),
]

def version_key(version):
    return tuple(int(part) for part in version.split("."))


def applies(version, first, last):
    """Whether `version` is in first..last (last None: open-ended)."""
    return version_key(first) <= version_key(version) and (last is None or version_key(version) <= version_key(last))


def committed(docs_dir):
    """Every committed document, by version, in version order."""
    files = glob.glob(os.path.join(docs_dir, "*.json"))
    versions = sorted((os.path.basename(f)[: -len(".json")] for f in files), key=version_key)
    return {v: os.path.join(docs_dir, f"{v}.json") for v in versions}


def validator(checks, root, docs_dir):
    files = list(committed(docs_dir).values())
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


def boundaries(documents):
    """The versions whose contract differs from the previous version's, and the newest."""
    found, previous = [], None
    for version, path in documents.items():
        with open(path) as f:
            text = f.read().replace(f"compute {version}", "compute X").replace(f'"{version}"', '"X"')
        if text != previous:
            found.append(version)
        previous = text
    return set(found) | {list(documents)[-1]}


def operation_setting(method, path, setting):
    """One `[[operations]]` entry: `setting` for the one operation named.
    `include-name`, because `include-path` and `include-method` would each
    select operations of their own (schemathesis ORs filters)."""
    return ["[[operations]]", f"include-name = {json.dumps(f'{method} {path}')}", setting, ""]


def config_for(version):
    """The schemathesis configuration at `version`: ACCEPTS_400's operations
    there, and OPERATION_EXCLUDED's checks."""
    lines = []
    for method, path, first, last, _why in ACCEPTS_400:
        if applies(version, first, last):
            lines += operation_setting(
                method, path, 'checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "404", "409"]')
    for method, path, check, _why in OPERATION_EXCLUDED:
        lines += operation_setting(method, path, f"checks.{check}.enabled = false")
    return "\n".join(lines)


def seed_of(version):
    """A fixed seed per version (2.40 -> 2040): reproducible, and distinct across versions."""
    major, minor = version.split(".")
    return int(major) * 1000 + int(minor)


def run_one(root, version, boundary, workdir, stateful):
    """One schemathesis run, in this (pool) process, of the stateful phase or
    of the others: its exit code, output and time.

    In process rather than as `python -m schemathesis.cli`: a new interpreter
    per version costs about a second of CPU in imports, as much as a run
    between boundaries itself.
    """
    import contextlib
    import io

    from schemathesis.cli import schemathesis as cli

    config = os.path.join(workdir, f"{version}-{'stateful' if stateful else 'stateless'}.toml")
    with open(config, "w") as f:
        f.write(config_for(version))
    arguments = [
        "--config-file", config, "run",
        f"{root}/openapi.json?version={version}",
        "--url", root,
        "--header", f"OpenStack-API-Version: compute {version}",
        # No `--checks`: every check runs by default, and a check named on
        # the command line overrides the configuration's per-operation
        # exceptions (OPERATION_EXCLUDED).
        "--max-examples", str(BOUNDARY_EXAMPLES if boundary else BETWEEN_EXAMPLES),
        "--phases", "stateful" if stateful else ("examples,coverage,fuzzing" if boundary else "fuzzing"),
        # A seed of its own per version: the runs share one server, and runs
        # with one seed generate the same resources (one run deleted the
        # flavor another had just created, which then read "not found").
        "--seed", str(seed_of(version)),
        "--workers", "1",
        "--no-color",
        "--generation-database", "none",
    ]
    excluded = [check for check, first, last, _why in EXCLUDED if applies(version, first, last)]
    if excluded:
        arguments += ["--exclude-checks", ",".join(excluded)]
    started = time.monotonic()
    output = io.StringIO()
    os.chdir(workdir)
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        try:
            cli.main(arguments, standalone_mode=False)
            code = 0
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 1
        except Exception as exc:  # noqa: BLE001 - reported as a failed run
            print(f"schemathesis raised {type(exc).__name__}: {exc}")
            code = 1
    return code, output.getvalue(), time.monotonic() - started


def report(checks, version, kind, result):
    """One run's check: it found nothing."""
    code, output, seconds = result
    summary = [line.strip() for line in output.splitlines() if " generated" in line]
    detail = f"{summary[-1] if summary else '?'} in {seconds:.1f} s"
    checks.check(code == 0, f"schemathesis (every check) at {version} ({kind}): {detail}",
                 None if code == 0 else output[-8000:])


def schemathesis(checks, root, docs_dir):
    documents = committed(docs_dir)
    edges = boundaries(documents)
    print(f"  boundaries (every phase, {BOUNDARY_EXAMPLES} examples): {', '.join(sorted(edges, key=version_key))}")
    started = time.monotonic()
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as workdir, context.Pool(PARALLEL) as pool:
        stateless = {v: pool.apply_async(run_one, (root, v, v in edges, workdir, False)) for v in documents}
        for version, result in stateless.items():
            kind = "examples, coverage, fuzzing" if version in edges else "fuzzing"
            report(checks, version, kind, result.get())
        # One at a time: a stateful run deletes what the lists show it.
        for version in documents:
            report(checks, version, "stateful", pool.apply(run_one, (root, version, version in edges, workdir, True)))
    print(f"  schemathesis at {len(documents)} versions in {time.monotonic() - started:.1f} s")


def main():
    root, docs_dir = sys.argv[1].rstrip("/"), sys.argv[2]
    checks = Checks("openapi_tools")
    checks.run("openapi-spec-validator accepts every document", validator, root, docs_dir)
    checks.run("schemathesis finds nothing against the live server at every released version",
               schemathesis, root, docs_dir)
    checks.finish()


if __name__ == "__main__":
    main()
