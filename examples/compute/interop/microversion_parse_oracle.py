"""microversion-parse as an oracle for the server's header extraction.

usage: microversion_parse_oracle.py ROOT_URL [CASES] [SEED]

Generates header sets (seeded, so every run sends the same ones): standard
``OpenStack-API-Version`` lines and legacy ``X-OpenStack-Nova-API-Version``
lines, repeated, in any letter case, with entries for other services, extra
whitespace, empty entries and values, ``latest``, malformed and out-of-range
versions. For each, ``microversion_parse.get_version`` (what every OpenStack
service uses to read the header) says which version string the request names;
Nova's rules then say what the server must answer: the default (2.1) when no
version is named, 2.96 for ``latest``, 400 for a malformed string, 406 for a
well-formed one outside 2.1..2.96, else that version. The request
(``GET /v2.1/flavors``) is sent over ``http.client`` byte for byte (so
repeated header lines stay separate lines) and the server's answer is
compared: the status, and on 200 the ``OpenStack-API-Version`` and
``X-OpenStack-Nova-API-Version`` response headers.

Where the framework deliberately differs from microversion-parse
(docs/reference.md §2.5), the difference is applied explicitly below (see
DEPARTURES) and counted, never skipped.
"""

import http.client
import importlib.metadata
import random
import re
import sys
import urllib.parse

import microversion_parse

from _interop import Checks, root_url_from_argv

SERVICE = "compute"
LEGACY = "x-openstack-nova-api-version"
MIN = (2, 1)
MAX = (2, 96)
DEFAULT = MIN
# Nova's APIVersionRequest grammar, ASCII digits only (docs/reference.md §1.1).
GRAMMAR = re.compile(r"([1-9][0-9]*)\.([1-9][0-9]*|0)", re.ASCII)
# A component too large for the integer type is an invalid string, 400
# (docs/reference.md §1.1); the framework's Version holds u16 components.
COMPONENT_MAX = 65535

# Where the framework departs from microversion-parse (or from what a caller of it
# would do), the oracle applies the departure here and counts the cases where
# it mattered, so none is hidden:
DEPARTURES = {
    # The version grammar is Nova's regex (docs/reference.md §1.1). microversion_parse's own
    # parse_version_string() is int()-based and would accept "02.1", "2.01",
    # "+2.1", "1_0.5", "2. 1" or non-ASCII digits; the framework answers 400 for all.
    "lenient_parse": "microversion_parse.parse_version_string() accepts it; reference §1.1: 400",
    # A present-but-empty legacy header is a malformed version (400), as in
    # Nova (docs/reference.md §2.3). get_version() returns "" for it, which Nova's wsgi
    # (`if hdr_string is None` ... else parse) turns into 400; a caller that
    # tests the result for truth instead, as microversion_parse's own
    # extract_version() does (`found_version or min_version_string`), would
    # serve the default version.
    "empty_legacy": "get_version() gives ''; a truthiness test would serve the default; reference §2.3: 400",
    # A component too large for the integer type is malformed, 400 (docs/reference.md §1.1);
    # Nova's unbounded Python ints would call it well-formed and answer 406.
    "too_large": "Nova would answer 406 (unbounded ints); reference §1.1: 400",
}

STANDARD_NAMES = ["OpenStack-API-Version", "openstack-api-version", "OPENSTACK-API-VERSION", "Openstack-Api-Version"]
LEGACY_NAMES = ["X-OpenStack-Nova-API-Version", "x-openstack-nova-api-version", "X-OPENSTACK-NOVA-API-VERSION"]
OTHER_HEADERS = [
    ("X-OpenStack-Volume-API-Version", "3.5"),
    ("OpenStack-Volume-API-Version", "3.0"),
    ("X-OpenStack-Compute-API-Version", "2.7"),
    ("OpenStack-API-Version-Compute", "2.8"),
    ("X-Compute-Version", "2.9"),
]
SERVICES = ["compute", "compute", "compute", "Compute", "COMPUTE", "cOmPuTe",
            "volume", "placement", "dogs", "computer", "comput", "baremetal",
            # A non-ASCII service name, as its UTF-8 bytes on the wire.
            "c\u00f6mpute".encode("utf-8").decode("latin-1")]
VALID = ["2.1", "2.2", "2.5", "2.10", "2.27", "2.54", "2.55", "2.60", "2.61", "2.75", "2.92", "2.95", "2.96"]
OUT_OF_RANGE = ["2.0", "2.97", "2.100", "2.200", "3.0", "3.5", "1.0", "1.5", "12.5", "10.1", "2.65535", "65535.0"]
MALFORMED = [
    "LATEST", "Latest", "2.1.3", "bogus", "02.1", "2.01", "2", "2.", ".5", "-1.5", "+2.1", "2.+1",
    "1_0.5", "2.1a", "v2.1", "2,1", "2..1", "0.1", "00.0", "2.65536", "65536.1",
    "2.99999999999999999999999", "99999999999999999999.1",
    # Arabic-Indic digits, as their UTF-8 bytes on the wire.
    "\u0662.\u0665".encode("utf-8").decode("latin-1"),
]
# Whitespace inside values is HTTP's (SP and HTAB) only: Python's str.split()
# would also split at bytes such as 0xA0 once the header is decoded as Latin-1,
# which no HTTP peer treats as whitespace.
SEPARATORS = [" ", " ", " ", "  ", "\t", " \t ", "   "]
PADDING = ["", "", "", " ", "  ", "\t"]


def expected_for(found):
    """(status, version or None, departure or None) that Nova's rules give for `found`."""
    if found is None:
        return 200, DEFAULT, None
    if found == "latest":
        return 200, MAX, None
    match = GRAMMAR.fullmatch(found)
    if not match:
        departure = None
        if found == "":
            departure = "empty_legacy"
        else:
            try:
                microversion_parse.parse_version_string(found)
                departure = "lenient_parse"
            except TypeError:
                pass
        return 400, None, departure
    version = (int(match.group(1)), int(match.group(2)))
    if max(version) > COMPONENT_MAX:
        return 400, None, "too_large"
    if not MIN <= version <= MAX:
        return 406, None, None
    return 200, version, None


def pick_version(rng):
    roll = rng.random()
    if roll < 0.45:
        return rng.choice(VALID + [f"2.{rng.randint(1, 96)}"])
    if roll < 0.55:
        return "latest"
    if roll < 0.75:
        return rng.choice(OUT_OF_RANGE)
    return rng.choice(MALFORMED)


def standard_entry(rng):
    roll = rng.random()
    if roll < 0.08:
        return ""  # an empty entry (", ,")
    if roll < 0.15:
        return rng.choice(["compute", "2.5", "compute2.5", "latest"])  # no whitespace: ignored
    pad_l, pad_r = rng.choice(PADDING), rng.choice(PADDING)
    return f"{pad_l}{rng.choice(SERVICES)}{rng.choice(SEPARATORS)}{pick_version(rng)}{pad_r}"


def standard_value(rng):
    if rng.random() < 0.07:
        return rng.choice(["", " ", "\t"])  # an empty standard header counts as absent
    entries = [standard_entry(rng) for _ in range(rng.randint(1, 3))]
    return rng.choice([",", ", ", " , ", ",\t"]).join(entries)


def legacy_value(rng):
    roll = rng.random()
    if roll < 0.08:
        return ""  # present but empty: 400 (docs/reference.md §2.3)
    if roll < 0.12:
        return rng.choice(["2.5,", "2.5, ", ","])  # last element empty
    if roll < 0.25:
        return ", ".join(pick_version(rng) for _ in range(rng.randint(2, 3)))
    return f"{rng.choice(PADDING)}{pick_version(rng)}{rng.choice(PADDING)}"


def generate(rng):
    headers = []
    shape = rng.random()
    n_standard = 0 if shape < 0.25 else rng.choice([1, 1, 1, 2, 3])
    n_legacy = 0 if 0.25 <= shape < 0.55 else rng.choice([0, 1, 1, 1, 2])
    for _ in range(n_standard):
        headers.append((rng.choice(STANDARD_NAMES), standard_value(rng)))
    for _ in range(n_legacy):
        headers.append((rng.choice(LEGACY_NAMES), legacy_value(rng)))
    if rng.random() < 0.3:
        headers.append(rng.choice(OTHER_HEADERS))
    rng.shuffle(headers)
    return headers


# The table of docs/reference.md §2.4, row by row, before the generated cases.
TABLE = [
    [],
    [("OpenStack-API-Version", "compute 2.5")],
    [("OpenStack-API-Version", "Compute 2.5")],
    [("OpenStack-API-Version", "  compute   2.5  ")],
    [("OpenStack-API-Version", "volume 3.5")],
    [("OpenStack-API-Version", "volume 3.5"), ("X-OpenStack-Nova-API-Version", "2.7")],
    [("OpenStack-API-Version", "compute 2.3"), ("X-OpenStack-Nova-API-Version", "2.7")],
    [("OpenStack-API-Version", "compute 2.3"), ("X-OpenStack-Nova-API-Version", "garbage")],
    [("OpenStack-API-Version", "compute 2.1, compute 2.9")],
    [("OpenStack-API-Version", "compute 2.1"), ("OpenStack-API-Version", "compute 2.9")],
    [("OpenStack-API-Version", "dogs 1.9, compute 2.4")],
    [("OpenStack-API-Version", "compute latest")],
    [("OpenStack-API-Version", "compute LATEST")],
    [("OpenStack-API-Version", "compute 2.1.3")],
    [("OpenStack-API-Version", "compute bogus")],
    [("OpenStack-API-Version", "compute 02.1")],
    [("OpenStack-API-Version", "compute 2.0")],
    [("OpenStack-API-Version", "compute 3.0")],
    [("OpenStack-API-Version", "compute 2.97")],
    [("X-OpenStack-Nova-API-Version", "")],
    [("X-OpenStack-Nova-API-Version", "2.7")],
    [("X-OpenStack-Nova-API-Version", "2.5"), ("X-OpenStack-Nova-API-Version", "2.8")],
    [("OpenStack-API-Version", ""), ("X-OpenStack-Nova-API-Version", "2.6")],
]


def send(root, headers):
    url = urllib.parse.urlsplit(root)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=15)
    try:
        conn.putrequest("GET", "/v2.1/flavors", skip_host=False, skip_accept_encoding=True)
        for name, value in headers:
            conn.putheader(name, value.encode("latin-1"))
        conn.endheaders()
        resp = conn.getresponse()
        resp.read()
        return resp.status, resp.headers
    finally:
        conn.close()


def describe(headers):
    return "; ".join(f"{name}: {value!r}" for name, value in headers) or "(no version header)"


def main():
    root = root_url_from_argv("microversion_parse_oracle.py ROOT_URL [CASES] [SEED]")
    cases = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 20240601
    rng = random.Random(seed)
    header_sets = TABLE + [generate(rng) for _ in range(cases)]
    print(f"microversion-parse {importlib.metadata.version('microversion-parse')} oracle: "
          f"{len(TABLE)} reference §2.4 table rows + {cases} generated header sets (seed {seed}) against {root}")

    c = Checks("microversion_parse_oracle")
    c.section("requests")
    outcomes = {}
    departures = {key: 0 for key in DEPARTURES}
    for index, headers in enumerate(header_sets):
        found = microversion_parse.get_version(headers, service_type=SERVICE, legacy_headers=[LEGACY])
        status, version, departure = expected_for(found)
        if departure is not None:
            departures[departure] += 1
        try:
            got_status, got_headers = send(root, headers)
        except (OSError, http.client.HTTPException) as exc:
            c.check(False, f"case {index}: {describe(headers)}", f"request failed: {exc}")
            continue
        expected = f"{status}" + (f" compute {version[0]}.{version[1]}" if version else "")
        got = f"{got_status}"
        if got_status == 200:
            got += f" {got_headers.get('OpenStack-API-Version')}"
            legacy = got_headers.get("X-OpenStack-Nova-API-Version")
            if version and legacy != f"{version[0]}.{version[1]}":
                got += f" (legacy response header {legacy!r})"
        if got_status == 406:
            lo = got_headers.get("OpenStack-API-Minimum-Version")
            hi = got_headers.get("OpenStack-API-Maximum-Version")
            if (lo, hi) != ("2.1", "2.96"):
                got += f" (min/max headers {lo!r}/{hi!r})"
        outcomes[expected.split(" ")[0]] = outcomes.get(expected.split(" ")[0], 0) + 1
        note = f" [departure: {DEPARTURES[departure]}]" if departure else ""
        c.check(got == expected, f"case {index}: {describe(headers)} -> get_version {found!r} -> {expected}{note}",
                f"server answered {got}")

    print("\nexpected outcomes: " + ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items())))
    print("cases where a departure from microversion-parse (reference §2.5) decided the expectation:")
    for key, count in departures.items():
        print(f"  {key}: {count}  ({DEPARTURES[key]})")
    for key in ("lenient_parse", "empty_legacy"):
        c.check(departures[key] > 0, f"the generated cases exercise the departure {key!r}")
    c.finish()


if __name__ == "__main__":
    main()
