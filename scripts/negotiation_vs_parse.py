"""The Python half of scripts/negotiation_vs_parse.sh: what Nova does per
request to find its version (nova/api/openstack/wsgi.py and
api_version_request.py): microversion_parse.get_version over the request's
headers with the legacy header, then, unless absent or "latest", Nova's
version regex, two ints and the range check against 2.1..2.96. Prints each
outcome on stderr (checked against the Rust side) and the median time per
request in ns on stdout.

python negotiation_vs_parse.py HEADERS.json [ITERATIONS] [ROUNDS]
"""

import json
import re
import sys
import time

import microversion_parse

VERSION_RE = re.compile(r"^([1-9]\d*)\.([1-9]\d*|0)$")  # Nova's APIVersionRequest
MIN, MAX = (2, 1), (2, 96)
LEGACY = ["X-OpenStack-Nova-API-Version"]


def negotiate(headers):
    text = microversion_parse.get_version(headers, service_type="compute", legacy_headers=LEGACY)
    if text is None:
        return MIN
    if text == "latest":
        return MAX
    match = VERSION_RE.match(text)
    if match is None:
        return 400
    version = (int(match.group(1)), int(match.group(2)))
    if not MIN <= version <= MAX:
        return 406
    return version


def main():
    path = sys.argv[1]
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    with open(path) as f:
        # A dict per request, as webob's headers are (built outside the timing).
        requests = [dict(pairs) for pairs in json.load(f)]
    for headers in requests:
        got = negotiate(headers)
        print("%d.%d" % got if isinstance(got, tuple) else "error %d" % got, file=sys.stderr)
    per_call = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        for _ in range(iterations):
            for headers in requests:
                negotiate(headers)
        per_call.append((time.perf_counter_ns() - start) / (iterations * len(requests)))
    per_call.sort()
    print("%.1f" % per_call[len(per_call) // 2])


if __name__ == "__main__":
    main()
