"""keystoneauth1's version discovery and microversion requests against the compute example.

usage: keystoneauth_flow.py ROOT_URL

Checks that keystoneauth1, unmodified, reads the server's discovery documents
at ``/`` (version list) and ``/v2.1`` (one version): ``get_version_data``,
``Discover`` (``version_data``, ``versioned_data_for``, ``versioned_url_for``),
``EndpointData.get_versioned_data`` with ``min_version``/``max_version``,
that the maximum is written as both ``version`` and ``max_version`` and that
keystoneauth1 reads it from either (``max_version`` first),
an auth plugin's ``get_endpoint_data``/``get_api_major_version`` and an
``Adapter``'s; that the range found is 2.1 to 2.96; and that requests made
with ``microversion=`` send the headers and are answered at that version,
406 outside the range.
"""

import copy
import json

from keystoneauth1 import adapter
from keystoneauth1 import discover
from keystoneauth1 import exceptions as ks_exc
from keystoneauth1 import session as ks_session
from keystoneauth1 import token_endpoint

from _interop import Checks, root_url_from_argv

MIN = (2, 1)
MAX = (2, 96)


def check_raw_version(c, label, data):
    c.equal(data.get("id"), "v2.1", f"{label} id")
    c.equal(data.get("status"), "CURRENT", f"{label} status")
    c.equal(data.get("min_version"), "2.1", f"{label} min_version")
    c.equal(data.get("version"), "2.96", f"{label} version")
    c.equal(data.get("max_version"), "2.96", f"{label} max_version")
    c.check(bool(data.get("updated")), f"{label} has updated", data.get("updated"))
    links = data.get("links") or []
    c.check(any(link.get("rel") == "self" for link in links), f"{label} has a self link", links)


def version_data(c, session, root):
    for url in (root, root + "/"):
        data = discover.get_version_data(session, url)
        c.equal(len(data), 1, f"get_version_data({url!r}) entries")
        if data:
            check_raw_version(c, f"get_version_data({url!r})[0]", data[0])
    for url in (root + "/v2.1", root + "/v2.1/"):
        data = discover.get_version_data(session, url)
        c.equal(len(data), 1, f"get_version_data({url!r}) entries")
        if data:
            check_raw_version(c, f"get_version_data({url!r})[0]", data[0])
            c.check(bool(data[0].get("media-types")), f"{url}: the single-version document has media-types")
    # Discovery ignores version headers (docs/reference.md §7): an unsupported or
    # malformed one still gets the document.
    for header in ("compute 3.0", "compute bogus"):
        data = discover.get_version_data(session, root + "/v2.1", version_header=header)
        c.equal([d.get("id") for d in data], ["v2.1"], f"get_version_data(/v2.1, version_header={header!r})")


def discover_objects(c, session, root):
    for url in (root + "/", root + "/v2.1"):
        disc = discover.Discover(session, url)
        versions = disc.version_data()
        c.equal(len(versions), 1, f"Discover({url!r}).version_data() entries")
        if not versions:
            continue
        v = versions[0]
        c.equal(v["version"], (2, 1), f"Discover({url!r}) major version")
        c.equal(v["min_microversion"], MIN, f"Discover({url!r}) min_microversion")
        c.equal(v["max_microversion"], MAX, f"Discover({url!r}) max_microversion")
        c.equal(v["status"], discover.Status.CURRENT, f"Discover({url!r}) status")
        c.check(v["url"].rstrip("/").endswith("/v2.1"), f"Discover({url!r}) url is the v2.1 endpoint", v["url"])
        chosen = disc.versioned_data_for(min_version="2.0", max_version="2.latest")
        c.check(chosen is not None, f"Discover({url!r}).versioned_data_for(2.0, 2.latest)")
        if chosen is not None:
            c.equal(chosen["max_microversion"], MAX, "versioned_data_for(...) max_microversion")
        c.check(disc.versioned_data_for(min_version="3.0", max_version="3.latest") is None,
                f"Discover({url!r}).versioned_data_for(3.0, 3.latest) finds nothing")
        found = disc.versioned_url_for(min_version="2", max_version="2.latest")
        c.check(found is not None and found.rstrip("/").endswith("/v2.1"), "versioned_url_for(2, 2.latest)", found)
        strings = disc.version_string_data()
        c.equal([(s["version"], s["min_microversion"], s["max_microversion"]) for s in strings],
                [("2.1", "2.1", "2.96")], f"Discover({url!r}).version_string_data()")

    cached = discover.get_discovery(session, root + "/v2.1")
    c.equal(cached.version_data()[0]["max_microversion"], MAX, "get_discovery(...) max_microversion")


class _Response:
    """Just what ``discover.get_version_data`` reads of a response."""

    def __init__(self, body):
        self._body = body
        self.headers = {}
        self.text = json.dumps(body)

    def json(self):
        return copy.deepcopy(self._body)


class _DocumentSession:
    """A session that answers every GET with one discovery document."""

    def __init__(self, body):
        self.body = body

    def get(self, url, headers=None, authenticated=None, **kwargs):
        return _Response(self.body)


def max_from_either_field(c, session, root):
    """The server writes the maximum under both names; keystoneauth1 reads
    ``max_version`` first and ``version`` without it, so the document is
    read alike with only one of them (docs/reference.md §7)."""
    for url, key in ((root + "/", "versions"), (root + "/v2.1", "version")):
        body = session.get(url).json()
        entry = body[key][0] if key == "versions" else body[key]
        c.equal((entry.get("version"), entry.get("max_version")), ("2.96", "2.96"),
                f"{url}: version and max_version agree")

        def read_max(edit, label):
            doc = copy.deepcopy(body)
            edit(doc[key][0] if key == "versions" else doc[key])
            versions = discover.Discover(_DocumentSession(doc), url).version_data()
            c.equal(len(versions), 1, f"{url} {label}: entries")
            return versions[0]["max_microversion"] if versions else None

        c.equal(read_max(lambda e: None, "as served"), MAX, f"{url} as served: max_microversion")
        c.equal(read_max(lambda e: e.pop("version"), "with only max_version"), MAX,
                f"{url} with only max_version: max_microversion")
        c.equal(read_max(lambda e: e.pop("max_version"), "with only version"), MAX,
                f"{url} with only version: max_microversion")
        # Which one keystoneauth1 reads when both are there: max_version.
        c.equal(read_max(lambda e: e.update(max_version="2.50"), "with max_version 2.50"), (2, 50),
                f"{url} with max_version 2.50 and version 2.96: max_microversion")


def endpoint_data(c, session, root):
    for catalog_url in (root + "/v2.1", root + "/v2.1/", root):
        data = discover.EndpointData(catalog_url=catalog_url, service_type="compute").get_versioned_data(
            session, min_version="2.0", max_version="2.latest"
        )
        label = f"EndpointData({catalog_url!r}).get_versioned_data(2.0, 2.latest)"
        c.equal(data.api_version, (2, 1), f"{label}.api_version")
        c.equal(data.min_microversion, MIN, f"{label}.min_microversion")
        c.equal(data.max_microversion, MAX, f"{label}.max_microversion")
        c.check((data.url or "").rstrip("/").endswith("/v2.1"), f"{label}.url", data.url)
    try:
        discover.EndpointData(catalog_url=root + "/v2.1").get_versioned_data(
            session, min_version="3.0", max_version="3.latest"
        )
    except ks_exc.DiscoveryFailure as exc:
        c.check(True, f"get_versioned_data(3.0, 3.latest) -> DiscoveryFailure: {exc}")
    else:
        c.check(False, "get_versioned_data(3.0, 3.latest) -> DiscoveryFailure", "it found a version")


def plugin_and_adapter(c, root):
    endpoint = root + "/v2.1"
    auth = token_endpoint.Token(endpoint, "interop-unused-token")
    session = ks_session.Session(auth=auth, timeout=30)

    data = session.get_endpoint_data(auth=auth, service_type="compute", interface="public",
                                     min_version="2.0", max_version="2.latest")
    c.check(data is not None, "Session.get_endpoint_data(service_type='compute')")
    if data is not None:
        c.equal(data.min_microversion, MIN, "Session.get_endpoint_data().min_microversion")
        c.equal(data.max_microversion, MAX, "Session.get_endpoint_data().max_microversion")
    c.equal(auth.get_api_major_version(session), (2, 1), "Token plugin get_api_major_version()")

    compute = adapter.Adapter(session, service_type="compute", interface="public",
                              min_version="2.0", max_version="2.latest")
    c.equal(compute.get_api_major_version(), (2, 1), "Adapter.get_api_major_version()")
    data = compute.get_endpoint_data()
    c.equal((data.min_microversion, data.max_microversion), (MIN, MAX), "Adapter.get_endpoint_data() range")

    # A request at 2.61 sends both headers and is answered at 2.61.
    resp = session.get("/flavors/detail", endpoint_filter={"service_type": "compute", "interface": "public",
                                                          "min_version": "2.0", "max_version": "2.latest"},
                       microversion="2.61")
    sent = resp.request.headers
    c.equal(sent.get("OpenStack-API-Version"), "compute 2.61", "request header OpenStack-API-Version")
    c.equal(sent.get("X-OpenStack-Nova-API-Version"), "2.61", "request header X-OpenStack-Nova-API-Version")
    c.equal(resp.status_code, 200, "GET /flavors/detail at 2.61 status")
    c.equal(resp.headers.get("OpenStack-API-Version"), "compute 2.61", "response OpenStack-API-Version")
    c.equal(resp.headers.get("X-OpenStack-Nova-API-Version"), "2.61", "response X-OpenStack-Nova-API-Version")
    vary = {v.strip().lower() for v in resp.headers.get("Vary", "").split(",")}
    c.check({"openstack-api-version", "x-openstack-nova-api-version"} <= vary, "response Vary names both", vary)
    flavors = resp.json().get("flavors", [])
    c.check(bool(flavors) and all("extra_specs" in f for f in flavors), "flavors at 2.61 show extra_specs")

    resp = compute.get("/flavors/1", microversion="2.60")
    c.equal(resp.headers.get("OpenStack-API-Version"), "compute 2.60", "Adapter.get(microversion=2.60)")
    c.check("extra_specs" not in resp.json().get("flavor", {}), "a flavor at 2.60 has no extra_specs")

    resp = compute.get("/flavors", microversion="latest")
    c.equal(resp.headers.get("OpenStack-API-Version"), "compute 2.96", "microversion='latest' -> 2.96")

    pinned = adapter.Adapter(session, service_type="compute", interface="public", default_microversion="2.55")
    resp = pinned.get("/flavors/1")
    c.equal(resp.headers.get("OpenStack-API-Version"), "compute 2.55", "Adapter(default_microversion=2.55)")
    c.check("description" in resp.json().get("flavor", {}), "a flavor at 2.55 has a description")

    resp = compute.get("/flavors")
    c.equal(resp.headers.get("OpenStack-API-Version"), "compute 2.1", "no microversion -> the minimum 2.1")

    # Outside the range: 406 with the range to renegotiate.
    try:
        compute.get("/flavors", microversion="2.97")
    except ks_exc.NotAcceptable as exc:
        resp = exc.response
        c.check(True, f"microversion=2.97 -> keystoneauth1 NotAcceptable (HTTP {exc.http_status})")
        c.equal(resp.headers.get("OpenStack-API-Minimum-Version"), "2.1", "406 OpenStack-API-Minimum-Version")
        c.equal(resp.headers.get("OpenStack-API-Maximum-Version"), "2.96", "406 OpenStack-API-Maximum-Version")
        fault = resp.json()
        c.check(isinstance(fault, dict) and len(fault) == 1, "406 body is one Nova fault", fault)
        inner = next(iter(fault.values()), {}) if isinstance(fault, dict) else {}
        c.equal(inner.get("code"), 406, "406 fault code")
        message = inner.get("message", "")
        c.check("2.1" in message and "2.96" in message, "406 message names min and max", message)
    except Exception as exc:  # noqa: BLE001 - reported as a failed check
        c.check(False, "microversion=2.97 -> NotAcceptable", f"{type(exc).__name__}: {exc}")
    else:
        c.check(False, "microversion=2.97 -> NotAcceptable", "the request succeeded")
    try:
        compute.get("/flavors", microversion="2.0")
    except ks_exc.NotAcceptable:
        c.check(True, "microversion=2.0 -> NotAcceptable (below the minimum)")
    except Exception as exc:  # noqa: BLE001
        c.check(False, "microversion=2.0 -> NotAcceptable", f"{type(exc).__name__}: {exc}")
    else:
        c.check(False, "microversion=2.0 -> NotAcceptable", "the request succeeded")


def main():
    root = root_url_from_argv("keystoneauth_flow.py ROOT_URL")
    import keystoneauth1

    print(f"keystoneauth1 {getattr(keystoneauth1, '__version__', '?')} against {root}")
    session = ks_session.Session(timeout=30)
    c = Checks("keystoneauth_flow")
    c.run("get_version_data on / and /v2.1", version_data, session, root)
    c.run("Discover", discover_objects, session, root)
    c.run("the maximum from max_version or version", max_from_either_field, session, root)
    c.run("EndpointData.get_versioned_data(min_version, max_version)", endpoint_data, session, root)
    c.run("auth plugin, Adapter and microversion requests", plugin_and_adapter, root)
    c.finish()


if __name__ == "__main__":
    main()
