#!/usr/bin/env python3
"""The same stateful random request sequences to the real Placement and to
the example, compared answer by answer.

Usage: differential.py REAL_URL OURS_URL [--seed N] [--sequences N]
[--length N]. Each sequence works in a namespace of its own (provider
names, custom classes and traits, consumers), builds providers, trees,
inventories, classes, traits, aggregates and allocations in every body
form, reads usages and candidates, and sends a share of bad bodies and bad
version headers, each request at a random microversion. Both servers get
every request in the same order, so even global listings must agree.

An answer is compared by its status, the contract's headers and its JSON
body after normalising only what is legitimately free (FREEDOMS below).
The first difference stops the run; the sequence is then shrunk (requests
dropped while the difference stays, replayed in fresh namespaces) and the
minimal sequence printed with both answers. Exit status: 0 when every
answer agrees, 1 on a difference, 2 when a server cannot be reached.
"""

import argparse
import http.client
import json
import random
import re
import sys
import collections
import urllib.parse
import uuid
import zlib

# What may differ, and why. Each entry is applied in `normalise` or
# `compare`; nothing else is forgiven.
FREEDOMS = {
    "request-ids": "x-openstack-request-id and an error's request_id are the server's own",
    "dates": "Last-Modified and Date are the time of the answer (their presence is compared)",
    "orders": "lists whose order Placement does not define are compared sorted "
              "(providers, classes, traits, aggregates, candidates, links, and the providers "
              "an allocation conflict names, the unknown traits of a provider's traits and a "
              "candidate's mappings, which Placement keeps in Python sets of strings, whose "
              "hash differs per process; the classes a conflict names, a set of integers, "
              "are compared in order)",
    "echo-bound": "a JSON-schema failure's detail shows the offending body value as '...' when its "
                  "JSON is longer than 255 characters: the framework never sends a client's large "
                  "document back; Python prints it whole (docs/16-placement.md, 'Where Placement and "
                  "the framework differ')",
    "limited-candidates": "with limit=N, which N candidates are kept is Placement's 'deterministic "
                          "but undefined order': only their number is compared",
    "server-header": "Server, Connection and Content-Length are the HTTP servers' own",
    "json-syntax-wording": "a body that is not JSON: the example words as Python's json does the "
                           "errors serde_json finds at the same place (Expecting value, Expecting "
                           "property name..., Extra data); for any other, only 'Malformed JSON: ' "
                           "is compared",
    "server-ids": "a uuid the server picks (a provider created without one) is compared as "
                  "'<server-id>': every uuid the client never sent",
    "isolate-aliasing": "with group_policy=isolate, Placement's consolidation adds a granular "
                        "group's amount into the unsuffixed group's own record of a provider's class "
                        "(research_context.copy_arr_if_needed copies only under group_policy=none), "
                        "so every candidate that reuses that record asks the sum, and one the sum "
                        "overflows is dropped; the example gives each candidate the amounts asked. "
                        "For a request whose unsuffixed and granular groups share a class, the "
                        "candidates are compared by their providers, classes and mappings, the "
                        "real ones must be among the example's, and each of the example's must ask "
                        "exactly the request's total of every class",
    "vary-on-errors": "Placement's version middleware adds Vary only to the answers its handlers "
                      "return, not to the errors they raise; the example varies every answer by "
                      "the version header, as a cache needs (Vary is compared on success only, "
                      "and on an error for a path no route has, which varies by nothing)",
}

MAX_MINOR = 39
# The syntax errors the example words as Python's json does (FREEDOMS).
PYTHON_JSON_ERRORS = ["Expecting value", "Expecting property name enclosed in double quotes", "Extra data"]
STANDARD_CLASSES = ["VCPU", "MEMORY_MB", "DISK_GB", "IPV4_ADDRESS"]
# MISC_SHARES_VIA_AGGREGATE makes a provider a sharing one for the
# candidates search.
STANDARD_TRAITS = ["HW_CPU_X86_AVX2", "STORAGE_DISK_SSD", "COMPUTE_VOLUME_MULTI_ATTACH",
                   "MISC_SHARES_VIA_AGGREGATE"]
# The Accept headers sent, one per request by its path (most ask for JSON).
ACCEPTS = ["application/json"] * 12 + ["*/*", "application/xml", "application/json;q=0.9, text/plain", "text/html"]
# The headers of the contract, compared by value.
COMPARED_HEADERS = ["openstack-api-version", "vary", "allow", "location", "cache-control", "content-type"]


class Server:
    def __init__(self, url):
        parsed = urllib.parse.urlsplit(url)
        self.host, self.port = parsed.hostname, parsed.port

    def send(self, method, path, headers, body):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers)
            res = conn.getresponse()
            data = res.read()
            return res.status, {k.lower(): v for k, v in res.getheaders()}, data
        finally:
            conn.close()


# -- requests ------------------------------------------------------------
#
# A request is (method, path, version, body), where strings
# may hold `{ns}` (the sequence's namespace) and a body may hold
# ("gen", uuid) or ("cgen", consumer): the provider's or the consumer's
# generation as last seen, resolved when the request is sent, so that a
# replay in a shrunk sequence reads its own state.


def version_header(rng):
    roll = rng.random()
    if roll < 0.08:
        return None
    if roll < 0.11:
        return "placement latest"
    if roll < 0.14:
        return rng.choice(["placement 1.99", "placement 2.0", "placement 1.a", "placement 0.9",
                           "compute 2.1", "placement 1.05", "placement  1.2", "placement -1.5",
                           "placement 1.099", "placement +1.5", "placement 1. 5", "placement 1_1.0"])
    return f"placement 1.{rng.randint(0, MAX_MINOR)}"


def minor_of(version):
    if version is None or not version.startswith("placement 1."):
        return 0 if version is None or version.startswith("compute") else None
    try:
        return int(version.split(".")[1])
    except ValueError:
        return None


class Generator:
    """Random requests over the namespace's known entities."""

    def __init__(self, rng):
        self.rng = rng
        self.providers = []
        self.consumers = []
        self.classes = list(STANDARD_CLASSES)
        self.traits = list(STANDARD_TRAITS)
        self.aggregates = [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(3)]
        self.projects = ["proj-{ns}-a", "proj-{ns}-b"]
        self.n = 0

    def fresh(self):
        self.n += 1
        return str(uuid.UUID(int=self.rng.getrandbits(128)))

    def provider(self):
        if not self.providers or self.rng.random() < 0.05:
            return self.fresh()
        return self.rng.choice(self.providers)

    def consumer(self):
        if not self.consumers or self.rng.random() < 0.3:
            c = self.fresh()
            self.consumers.append(c)
            return c
        return self.rng.choice(self.consumers)

    def resources(self, few=False):
        classes = self.rng.sample(self.classes, k=min(len(self.classes), self.rng.randint(1, 2)))
        return {rc: self.rng.choice([1, 2, 4, 64] if not few else [1, 2]) for rc in classes}

    def next(self):
        rng = self.rng
        version = version_header(rng)
        actions = [
            (8, self.create_provider), (3, self.get_provider), (2, self.update_provider),
            (2, self.delete_provider), (4, self.list_providers), (6, self.put_inventories),
            (3, self.put_inventory), (2, self.delete_inventory), (2, self.get_inventories),
            (3, self.put_traits), (1, self.delete_traits), (2, self.put_aggregates),
            (2, self.resource_class), (2, self.trait), (7, self.put_allocations),
            (2, self.post_allocations), (2, self.get_allocations), (1, self.delete_allocations),
            (3, self.usages), (8, self.candidates), (2, self.bad_body), (1, self.root),
            (1, self.other_method), (2, self.reshape), (2, self.unknown_path), (1, self.head),
        ]
        total = sum(w for w, _ in actions)
        roll = rng.uniform(0, total)
        for weight, action in actions:
            roll -= weight
            if roll <= 0:
                return action(version)
        return self.root(version)

    def create_provider(self, v):
        rng = self.rng
        u = self.fresh()
        body = {"name": f"rp-{{ns}}-{self.n}"}
        roll = rng.random()
        if roll < 0.05:
            body["name"] = ""
        elif roll < 0.1 and self.providers:
            body["name"] = f"rp-{{ns}}-{self.n - 1}"
        if rng.random() < 0.9:
            body["uuid"] = u
        if self.providers and rng.random() < 0.4:
            body["parent_provider_uuid"] = rng.choice(self.providers + [u, self.fresh()])
        if "uuid" in body:
            self.providers.append(u)
        return ("POST", "/resource_providers", v, body)

    def get_provider(self, v):
        return ("GET", f"/resource_providers/{self.provider()}", v, None)

    def update_provider(self, v):
        body = {"name": f"rp-{{ns}}-renamed-{self.n}"}
        if self.providers and self.rng.random() < 0.5:
            body["parent_provider_uuid"] = self.rng.choice(self.providers + [None])
        return ("PUT", f"/resource_providers/{self.provider()}", v, body)

    def delete_provider(self, v):
        return ("DELETE", f"/resource_providers/{self.provider()}", v, None)

    def list_providers(self, v):
        rng = self.rng
        filters = []
        for _ in range(rng.randint(0, 2)):
            kind = rng.choice(["name", "uuid", "member_of", "in_tree", "resources", "required"])
            if kind == "name":
                filters.append(("name", rng.choice(["", f"rp-{{ns}}-{rng.randint(1, self.n + 1)}"])))
            elif kind == "uuid":
                filters.append(("uuid", self.provider()))
            elif kind == "member_of":
                aggs = rng.sample(self.aggregates, k=rng.randint(1, 2))
                prefix = "in:" if len(aggs) > 1 else rng.choice(["", "", "!"])
                filters.append(("member_of", prefix + ",".join(aggs)))
            elif kind == "in_tree":
                filters.append(("in_tree", self.provider()))
            elif kind == "resources":
                res = self.resources(few=True)
                filters.append(("resources", ",".join(f"{k}:{n}" for k, n in res.items())))
            else:
                trait, other = rng.choice(self.traits), rng.choice(self.traits)
                filters.append(("required", rng.choice([trait, "!" + trait, f"in:{trait},{other}",
                                                        f"{trait},!{other}"])))
        query = urllib.parse.urlencode(filters, safe=":,!{}")
        return ("GET", "/resource_providers" + ("?" + query if query else ""), v, None)

    def inventory(self):
        rng = self.rng
        inv = {"total": rng.choice([1, 4, 16, 1024])}
        if rng.random() < 0.3:
            inv["reserved"] = rng.choice([0, 1, 2000])
        if rng.random() < 0.3:
            inv["allocation_ratio"] = rng.choice([1.0, 2.0, 16.0])
        if rng.random() < 0.2:
            inv["max_unit"] = rng.choice([1, 2, inv["total"]])
        if rng.random() < 0.05:
            inv["total"] = rng.choice([0, -1, "many"])
        return inv

    def generation(self, u):
        return ["gen", u] if self.rng.random() < 0.9 else 999

    def put_inventories(self, v):
        u = self.provider()
        classes = self.rng.sample(self.classes, k=min(len(self.classes), self.rng.randint(0, 3)))
        body = {"resource_provider_generation": self.generation(u),
                "inventories": {rc: self.inventory() for rc in classes}}
        return ("PUT", f"/resource_providers/{u}/inventories", v, body)

    def put_inventory(self, v):
        u = self.provider()
        rc = self.rng.choice(self.classes + ["CUSTOM_{NS}_UNKNOWN"])
        body = dict(self.inventory(), resource_provider_generation=self.generation(u))
        return ("PUT", f"/resource_providers/{u}/inventories/{rc}", v, body)

    def delete_inventory(self, v):
        u = self.provider()
        if self.rng.random() < 0.5:
            return ("DELETE", f"/resource_providers/{u}/inventories", v, None)
        return ("DELETE", f"/resource_providers/{u}/inventories/{self.rng.choice(self.classes)}", v, None)

    def get_inventories(self, v):
        u = self.provider()
        what = self.rng.choice(["inventories", "usages", "allocations", "traits", "aggregates"])
        return ("GET", f"/resource_providers/{u}/{what}", v, None)

    def put_traits(self, v):
        u = self.provider()
        traits = self.rng.sample(self.traits, k=min(len(self.traits), self.rng.randint(0, 2)))
        if self.rng.random() < 0.05:
            traits.append("CUSTOM_{NS}_NOT_A_TRAIT")
        body = {"resource_provider_generation": self.generation(u), "traits": traits}
        return ("PUT", f"/resource_providers/{u}/traits", v, body)

    def delete_traits(self, v):
        return ("DELETE", f"/resource_providers/{self.provider()}/traits", v, None)

    def put_aggregates(self, v):
        u = self.provider()
        aggs = self.rng.sample(self.aggregates, k=self.rng.randint(0, 2))
        minor = minor_of(v)
        if minor is not None and minor >= 19 or self.rng.random() < 0.1:
            body = {"aggregates": aggs, "resource_provider_generation": self.generation(u)}
        else:
            body = aggs
        return ("PUT", f"/resource_providers/{u}/aggregates", v, body)

    def resource_class(self, v):
        rng = self.rng
        name = f"CUSTOM_{{NS}}_C{rng.randint(1, 4)}"
        roll = rng.random()
        if roll < 0.4:
            if name not in self.classes:
                self.classes.append(name)
            return ("POST", "/resource_classes", v, {"name": rng.choice([name, name, "VCPU", "lower"])})
        if roll < 0.7:
            if name not in self.classes:
                self.classes.append(name)
            return ("PUT", f"/resource_classes/{name}", v, None)
        if roll < 0.85:
            return ("DELETE", f"/resource_classes/{rng.choice(self.classes)}", v, None)
        return ("GET", rng.choice(["/resource_classes", f"/resource_classes/{name}"]), v, None)

    def trait(self, v):
        rng = self.rng
        name = f"CUSTOM_{{NS}}_T{rng.randint(1, 4)}"
        roll = rng.random()
        if roll < 0.5:
            if name not in self.traits:
                self.traits.append(name)
            return ("PUT", f"/traits/{rng.choice([name, name, 'custom_lower'])}", v, None)
        if roll < 0.7:
            return ("DELETE", f"/traits/{rng.choice(self.traits)}", v, None)
        if roll < 0.85:
            return ("GET", f"/traits/{rng.choice(self.traits)}", v, None)
        return ("GET", "/traits?" + rng.choice(["name=startswith:CUSTOM_{NS}", "associated=true",
                                                "name=in:HW_CPU_X86_AVX2,CUSTOM_{NS}_T1"]), v, None)

    def owner(self, body, minor):
        if minor is not None and minor >= 8 or self.rng.random() < 0.1:
            body["project_id"] = self.rng.choice(self.projects)
            body["user_id"] = "user-{ns}"

    def allocations_body(self, consumer, minor):
        rng = self.rng
        targets = [self.provider() for _ in range(rng.randint(0, 2))]
        if minor is not None and minor < 12 and rng.random() < 0.95:
            body = {"allocations": [{"resource_provider": {"uuid": u}, "resources": self.resources()}
                                    for u in dict.fromkeys(targets)]}
        else:
            body = {"allocations": {u: {"resources": self.resources()} for u in targets}}
        self.owner(body, minor)
        if minor is not None and minor >= 28 or rng.random() < 0.05:
            body["consumer_generation"] = ["cgen", consumer] if rng.random() < 0.9 else 7
        if minor is not None and minor >= 38 or rng.random() < 0.05:
            body["consumer_type"] = rng.choice(["INSTANCE", "MIGRATION", "lower"])
        return body

    def put_allocations(self, v):
        c = self.consumer()
        return ("PUT", f"/allocations/{c}", v, self.allocations_body(c, minor_of(v)))

    def post_allocations(self, v):
        minor = minor_of(v)
        body = {}
        for _ in range(self.rng.randint(1, 2)):
            c = self.consumer()
            one = self.allocations_body(c, max(minor or 12, 12))
            if minor is not None and minor >= 28 and "consumer_generation" not in one:
                one["consumer_generation"] = ["cgen", c]
            if "project_id" not in one:
                one["project_id"], one["user_id"] = "proj-{ns}-a", "user-{ns}"
            body[c] = one
        return ("POST", "/allocations", v, body)

    def get_allocations(self, v):
        return ("GET", f"/allocations/{self.consumer()}", v, None)

    def delete_allocations(self, v):
        return ("DELETE", f"/allocations/{self.consumer()}", v, None)

    def usages(self, v):
        rng = self.rng
        if rng.random() < 0.5:
            return ("GET", f"/resource_providers/{self.provider()}/usages", v, None)
        query = [("project_id", rng.choice(self.projects))]
        if rng.random() < 0.3:
            query.append(("user_id", "user-{ns}"))
        if rng.random() < 0.3:
            query.append(("consumer_type", rng.choice(["INSTANCE", "all", "unknown", "lower"])))
        return ("GET", "/usages?" + urllib.parse.urlencode(query, safe="{}"), v, None)

    def candidates(self, v):
        rng = self.rng
        # Mostly at a version that has the search (1.10), where it reads the most.
        if rng.random() < 0.8:
            v = f"placement 1.{rng.randint(10, MAX_MINOR)}"
        res = self.resources(few=True)
        query = [("resources", ",".join(f"{k}:{n}" for k, n in res.items()))]
        if rng.random() < 0.3:
            query.append(("limit", str(rng.randint(1, 3))))
        if rng.random() < 0.3:
            query.append(("required", rng.choice(self.traits)))
        if rng.random() < 0.2:
            query.append(("member_of", rng.choice(self.aggregates)))
        if rng.random() < 0.2:
            query.append(("in_tree", self.provider()))
        if rng.random() < 0.2:
            query.append(("resources1", f"{rng.choice(self.classes)}:1"))
            if rng.random() < 0.5:
                query.append(("required1", rng.choice(self.traits)))
            query.append(("group_policy", rng.choice(["none", "isolate"])))
        if rng.random() < 0.1:
            query.append(("member_of", "!" + rng.choice(self.aggregates)))
        if rng.random() < 0.1:
            query.append(("root_required", rng.choice(["", "!"]) + rng.choice(self.traits)))
        if rng.random() < 0.1:
            query.append(("required", f"in:{rng.choice(self.traits)},{rng.choice(self.traits)}"))
        if rng.random() < 0.1:
            query.append(("resources_A", f"{rng.choice(self.classes)}:1"))
            query.append(("resources_B", f"{rng.choice(self.classes)}:1"))
            query.append(("same_subtree", "_A,_B"))
            query.append(("group_policy", "none"))
        if rng.random() < 0.05:
            query.append(("in_tree1", self.provider()))
        return ("GET", "/allocation_candidates?" + urllib.parse.urlencode(query, safe=":,!{}"), v, None)

    def bad_body(self, v):
        rng = self.rng
        target = rng.choice([("POST", "/resource_providers"), ("PUT", f"/allocations/{self.consumer()}"),
                             ("PUT", f"/resource_providers/{self.provider()}/inventories"),
                             ("POST", "/resource_classes"), ("PUT", f"/resource_providers/{self.provider()}/traits")])
        body = rng.choice([RawBody(b"{not json"), RawBody(b""), [], {"unknown": 1}, {"name": 5},
                           RawBody(b'{"name": "x"}', "text/plain")])
        return (target[0], target[1], v, body)

    def root(self, v):
        return ("GET", "/", v, None)

    def other_method(self, v):
        """A method a path does not declare (Placement's handle_405)."""
        path = self.rng.choice(["/resource_providers", f"/resource_providers/{self.provider()}",
                                f"/resource_providers/{self.provider()}/inventories",
                                f"/resource_providers/{self.provider()}/traits", "/traits",
                                f"/allocations/{self.consumer()}", "/allocations", "/usages",
                                "/resource_classes", "/allocation_candidates", "/reshaper", "/"])
        return (self.rng.choice(["PATCH", "POST", "DELETE", "PUT"]), path, v, None)

    def unknown_path(self, v):
        """A path no route has (Placement's router's bare 404)."""
        path = self.rng.choice(["/nothing", f"/resource_providers/{self.provider()}/nothing",
                                f"/resource_providers/{self.provider()}/inventories/VCPU/more",
                                "/traits/CUSTOM_{NS}_T1/more", f"/allocations/{self.consumer()}/more", "/v1"])
        return (self.rng.choice(["GET", "PUT", "POST", "DELETE"]), path, v, None)

    def head(self, v):
        """HEAD, which no route declares, on a path that has routes or none."""
        path = self.rng.choice(["/", "/resource_providers", f"/resource_providers/{self.provider()}",
                                f"/resource_providers/{self.provider()}/inventories", "/traits",
                                "/resource_classes", "/nothing"])
        return ("HEAD", path, v, None)

    def reshape(self, v):
        """POST /reshaper (1.30): inventories and allocations replaced at once."""
        rng = self.rng
        inventories = {}
        for u in dict.fromkeys(self.provider() for _ in range(rng.randint(1, 2))):
            classes = rng.sample(self.classes, k=min(len(self.classes), rng.randint(0, 2)))
            inventories[u] = {"resource_provider_generation": self.generation(u),
                              "inventories": {rc: self.inventory() for rc in classes}}
        allocations = {}
        for _ in range(rng.randint(0, 2)):
            c = self.consumer()
            one = self.allocations_body(c, 28)
            one.pop("consumer_type", None)
            one.setdefault("project_id", "proj-{ns}-a")
            one.setdefault("user_id", "user-{ns}")
            allocations[c] = one
        return ("POST", "/reshaper", v, {"inventories": inventories, "allocations": allocations})


class RawBody:
    """A body sent as these bytes, with this content type."""

    def __init__(self, data, content_type="application/json"):
        self.data, self.content_type = data, content_type

    def __repr__(self):
        return f"RawBody({self.data!r}, {self.content_type!r})"


# -- running -------------------------------------------------------------


# A uuid the generator picked, made the namespace's own when sent, so that a
# replay in another namespace creates its own providers and consumers.
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


KNOWN = set()


class Replay:
    """Sends requests to both servers in a namespace, tracking generations
    from the real Placement's answers."""

    def __init__(self, real, ours, ns):
        self.real, self.ours, self.ns = real, ours, ns
        self.gens, self.cgens = {}, {}
        # Every uuid this client sent, in any namespace (global listings
        # show them all): any other one is the server's pick.
        self.known = KNOWN

    def fill(self, value):
        if isinstance(value, str):
            value = UUID.sub(self.own, value)
            return value.replace("{ns}", self.ns).replace("{NS}", self.ns.upper())
        if isinstance(value, list) and len(value) == 2 and value[0] == "gen":
            return self.gens.get(self.fill(value[1]), 0)
        if isinstance(value, list) and len(value) == 2 and value[0] == "cgen":
            return self.cgens.get(self.fill(value[1]))
        if isinstance(value, list):
            return [self.fill(v) for v in value]
        if isinstance(value, dict):
            return {self.fill(k): self.fill(v) for k, v in value.items()}
        return value

    def own(self, match):
        """The namespace's own uuid for one the generator picked."""
        mine = str(uuid.uuid5(uuid.NAMESPACE_URL, self.ns + match.group(0)))
        self.known.add(mine)
        return mine

    def send(self, request):
        method, path, version, body = request
        # Chosen by the request as generated, so that a replay sends the same.
        accept = ACCEPTS[zlib.crc32((method + path).encode()) % len(ACCEPTS)]
        headers = {"X-Auth-Token": "admin", "Accept": accept}
        path = self.fill(path)
        if version is not None:
            headers["OpenStack-API-Version"] = version
        data = None
        if isinstance(body, RawBody):
            data = body.data
            headers["Content-Type"] = body.content_type
        elif body is not None:
            data = json.dumps(self.fill(body)).encode()
            headers["Content-Type"] = "application/json"
        answers = (self.real.send(method, path, headers, data), self.ours.send(method, path, headers, data))
        self.learn(method, path, answers[0])
        return (method, path, headers, data), answers

    def learn(self, method, path, answer):
        status, _, data = answer
        try:
            doc = json.loads(data) if data else None
        except ValueError:
            return
        parts = path.split("?")[0].strip("/").split("/")
        if isinstance(doc, dict):
            if parts[0] == "resource_providers" and len(parts) >= 2:
                gen = doc.get("resource_provider_generation", doc.get("generation"))
                if isinstance(gen, int):
                    self.gens[parts[1]] = gen
            if parts[0] == "resource_providers" and len(parts) == 1 and status in (200, 201):
                if isinstance(doc.get("generation"), int):
                    self.gens[doc["uuid"]] = doc["generation"]
            if parts[0] == "allocations" and len(parts) == 2 and method == "GET":
                self.cgens[parts[1]] = doc.get("consumer_generation")
            if parts[0] == "resource_providers" and len(parts) == 1 and method == "GET":
                for rp in doc.get("resource_providers", []):
                    self.gens[rp["uuid"]] = rp["generation"]
        if method in ("PUT", "POST", "DELETE") and parts[0] == "allocations" and status in (200, 204):
            # A consumer's generation moved: read it again before trusting it.
            for c in list(self.cgens):
                if c in path or method == "POST":
                    self.cgens.pop(c, None)


def sort_key(value):
    return json.dumps(value, sort_keys=True)


# An allocation conflict naming sets (FREEDOMS: orders): its providers, a
# set of strings, compared sorted; its classes, a set of their integer ids,
# iterate in an order every process shares, compared as named.
SET_NAMES = re.compile(r"Inventory for ('|&#x27;)(.*?)\1 on resource provider \1(.*?)\1 invalid")


def sorted_names(match):
    quote, classes, providers = match.groups()
    providers = ", ".join(sorted(providers.split(", ")))
    return f"Inventory for {quote}{classes}{quote} on resource provider {quote}{providers}{quote} invalid"


# The unknown traits of PUT .../traits, joined from a Python set.
MISSING_TRAITS = re.compile(r"No such trait ([A-Za-z0-9_]+(?:, [A-Za-z0-9_]+)*)")


def normalise(doc, known):
    """What is legitimately free, made equal (FREEDOMS)."""
    if isinstance(doc, str):
        doc = SET_NAMES.sub(sorted_names, doc)
        doc = MISSING_TRAITS.sub(lambda m: "No such trait " + ", ".join(sorted(m.group(1).split(", "))), doc)
        return UUID.sub(lambda m: m.group(0) if m.group(0) in known else "<server-id>", doc)
    if isinstance(doc, dict):
        pairs = [(normalise(key, known), normalise(value, known)) for key, value in doc.items()
                 if key != "request_id"]
        # Several keys the server picked (two providers created without a
        # uuid) normalise alike: numbered in the order of their values, so
        # that neither hides the other whatever order the server lists them.
        out = {}
        for key in dict.fromkeys(k for k, _ in pairs):
            values = sorted((v for k, v in pairs if k == key), key=lambda v: json.dumps(v, sort_keys=True))
            if len(values) == 1:
                out[key] = values[0]
            else:
                for n, value in enumerate(values, 1):
                    out[f"{key}#{n}"] = value
        for key in ("resource_providers", "resource_classes", "traits", "aggregates",
                    "allocation_requests", "links", "errors"):
            if isinstance(out.get(key), list):
                out[key] = sorted(out[key], key=sort_key)
        # A candidate's providers per request group come from a Python set.
        if isinstance(out.get("mappings"), dict):
            out["mappings"] = {k: sorted(v) if isinstance(v, list) else v for k, v in out["mappings"].items()}
        return out
    if isinstance(doc, list):
        return [normalise(v, known) for v in doc]
    return doc


# The value a schema failure's detail ends with, after `On instance[...]:`.
INSTANCE = re.compile(r"(On instance[^:]*:\s+)(.*?)(\s*)$", re.S)


def echo_bound(real_detail, our_detail):
    """Our detail, with the real one's value where ours shows '...' for a
    value longer than the framework echoes (FREEDOMS: echo-bound)."""
    real, ours = INSTANCE.search(real_detail), INSTANCE.search(our_detail)
    if real and ours and ours.group(2) == "..." and len(real.group(2)) > 255:
        return our_detail[:ours.start(2)] + real.group(2) + our_detail[ours.end(2):]
    return our_detail


def plain_page(body):
    """webob's plain-text error page (`404 Not Found`, a blank line, the
    text) as an errors document, compared as one; None for anything else."""
    text = body.decode("utf-8", "replace")
    match = re.match(r"(\d{3}) ([^\n]*)\n\n(.*)", text, re.S)
    if not match:
        return None
    return {"errors": [{"status": int(match.group(1)), "title": match.group(2), "detail": match.group(3),
                        "form": "text/plain"}]}


def isolate_shared_classes(path):
    """Of a candidates search under group_policy=isolate, the classes both
    the unsuffixed group and a granular one ask for, with the request's total
    of every class (FREEDOMS: isolate-aliasing); an empty set otherwise."""
    if not path.startswith("/allocation_candidates?"):
        return set(), {}
    query = urllib.parse.parse_qsl(path.split("?", 1)[1])
    if ("group_policy", "isolate") not in query:
        return set(), {}
    totals, unsuffixed, granular = collections.Counter(), set(), set()
    for key, value in query:
        if not key.startswith("resources"):
            continue
        for part in value.split(","):
            name, _, amount = part.partition(":")
            totals[name] += int(amount) if amount.isdigit() else 0
            (unsuffixed if key == "resources" else granular).add(name)
    return unsuffixed & granular, dict(totals)


def aliased_candidates(rj, oj, totals):
    """The differences between two candidate lists under the freedom
    isolate-aliasing; both lists and summaries are then left out of the
    plain comparison."""
    found = []

    def shape(candidate):
        allocations = {p: sorted(a["resources"]) for p, a in candidate["allocations"].items()}
        return json.dumps({"allocations": allocations, "mappings": candidate.get("mappings")}, sort_keys=True)

    real = {shape(c) for c in rj.pop("allocation_requests")}
    ours_list = oj.pop("allocation_requests")
    ours = {shape(c) for c in ours_list}
    if not real <= ours:
        found.append(f"candidates only the real Placement offers: {sorted(real - ours)[:3]}")
    for candidate in ours_list:
        asked = collections.Counter()
        for allocation in candidate["allocations"].values():
            asked.update(allocation["resources"])
        if dict(asked) != totals:
            found.append(f"candidate {json.dumps(candidate, sort_keys=True)} asks {dict(asked)}, not {totals}")
    real_summaries, our_summaries = rj.pop("provider_summaries", {}), oj.pop("provider_summaries", {})
    same_candidates = real == ours
    if (same_candidates and real_summaries != our_summaries) or any(
            our_summaries.get(p) != s for p, s in real_summaries.items()):
        found.append(f"provider summaries {json.dumps(real_summaries, sort_keys=True)[:1500]} != "
                     f"{json.dumps(our_summaries, sort_keys=True)[:1500]}")
    return found


# The freedoms of wording: `strict` comparison forgives none of them, so
# that the share of answers the same even in words can be reported.
WORDING_FREEDOMS = ("echo-bound", "json-syntax-wording")


# The paths of Placement's routes (`placement/handler.py`), whatever the
# method: an error on any other path is no handler's (FREEDOMS: vary-on-errors).
ROUTES = re.compile(r"/(|resource_providers(/[^/]+(/(inventories(/[^/]+)?|usages|allocations|traits|aggregates))?)?"
                    r"|resource_classes(/[^/]+)?|traits(/[^/]+)?|allocations(/[^/]+)?|usages|allocation_candidates"
                    r"|reshaper)")


def routed(path):
    """Whether a route of Placement's has `path` (its query left out)."""
    return ROUTES.fullmatch(path.split("?")[0]) is not None


def differences(real, ours, known, sent, strict=False):
    """The differences between two answers to `sent`, or []; with `strict`,
    without the WORDING_FREEDOMS."""
    (rs, rh, rb), (os_, oh, ob) = real, ours
    method, path = sent[0], sent[1]
    limited = path.startswith("/allocation_candidates?") and "limit=" in path
    found = []
    if rs != os_:
        found.append(f"status {rs} != {os_}")
    for name in COMPARED_HEADERS:
        a, b = rh.get(name), oh.get(name)
        if name == "allow" and a and b:
            a, b = sorted(x.strip() for x in a.split(",")), sorted(x.strip() for x in b.split(","))
        if name == "vary" and rs >= 400 and routed(path):
            continue
        if name == "vary" and a and b:
            a, b = a.lower(), b.lower()
        if name == "location" and a and b:
            a, b = (normalise(urllib.parse.urlsplit(x).path, known) for x in (a, b))
        if a != b:
            found.append(f"header {name}: {a!r} != {b!r}")
    if ("last-modified" in rh) != ("last-modified" in oh):
        found.append(f"header last-modified present: {'last-modified' in rh} != {'last-modified' in oh}")
    if rb or ob:
        try:
            rj, oj = json.loads(rb), json.loads(ob)
        except ValueError:
            rj, oj = plain_page(rb), plain_page(ob)
            if rj is None or oj is None:
                # An HTML page: its text normalised as a JSON string is.
                rt, ot = (normalise(body.decode("utf-8", "replace"), known) for body in (rb, ob))
                if not strict and "Failed validating" in rt:
                    (real_text, _, end), our_text = rt.partition("\n </body>"), ot.partition("\n </body>")[0]
                    ot = echo_bound(real_text, our_text) + _ + end
                if rt != ot:
                    found.append(f"body (not JSON): {rb[:200]!r} != {ob[:200]!r}")
                return found
        rj, oj = normalise(rj, known), normalise(oj, known)
        if limited and rs == 200 and os_ == 200:
            rj, oj = (len(doc.get("allocation_requests", [])) for doc in (rj, oj))
        shared, totals = isolate_shared_classes(path)
        if shared and rs == 200 and os_ == 200 and not limited:
            found += aliased_candidates(rj, oj, totals)
        if not strict and isinstance(rj, dict) and isinstance(oj, dict) and "errors" in rj and "errors" in oj:
            real_details = " ".join(str(e.get("detail")) for e in rj["errors"])
            schema_failure = "Failed validating" in real_details or "JSON does not validate" in real_details
            other_syntax = "Malformed JSON: " in real_details and not any(
                f"Malformed JSON: {kind}" in real_details for kind in PYTHON_JSON_ERRORS)
            if schema_failure and len(rj["errors"]) == len(oj["errors"]):
                for real_err, our_err in zip(rj["errors"], oj["errors"]):
                    if isinstance(real_err.get("detail"), str) and isinstance(our_err.get("detail"), str):
                        our_err["detail"] = echo_bound(real_err["detail"], our_err["detail"])
            for err in rj["errors"] + oj["errors"]:
                if not isinstance(err.get("detail"), str):
                    continue
                if other_syntax:
                    err["detail"] = err["detail"].split("Malformed JSON: ")[0] + "Malformed JSON: ..."
        if rj != oj:
            found.append(f"body {json.dumps(rj, sort_keys=True)[:1500]} != {json.dumps(oj, sort_keys=True)[:1500]}")
    return found


# Answers compared by `run_sequence`, those the same in strict comparison,
# and how many of each kind of strict difference.
TALLY = {"compared": 0, "strictly_same": 0, "kinds": collections.Counter()}


def run_sequence(real, ours, requests, ns):
    """Sends `requests`; the index of the first that differs, with what differs."""
    replay = Replay(real, ours, ns)
    for i, request in enumerate(requests):
        sent, (ra, oa) = replay.send(request)
        found = differences(ra, oa, replay.known, sent)
        TALLY["compared"] += 1
        strict = differences(ra, oa, replay.known, sent, strict=True)
        TALLY["strictly_same"] += not strict
        if strict:
            TALLY["kinds"][(sent[0], UUID.sub("U", sent[1].split("?")[0]), tuple(kinds(strict)))] += 1
        if found:
            return i, sent, (ra, oa), found
    return None


def kinds(found):
    """What differs, without the values: `status`, `header vary`, `body`."""
    return sorted(f.split(":")[0].split(" {")[0] for f in found)


def shrink(real, ours, requests, rng, found):
    """Drops requests while the same kind of difference at the same request stays."""
    last = requests[-1]
    wanted = kinds(found)
    kept = list(requests[:-1])
    chunk = max(1, len(kept) // 2)
    while chunk >= 1:
        i = 0
        while i < len(kept):
            trial = kept[:i] + kept[i + chunk:]
            ns = f"s{rng.getrandbits(32):08x}"
            result = run_sequence(real, ours, trial + [last], ns)
            if result is not None and result[0] == len(trial) and kinds(result[3]) == wanted:
                kept = trial
            else:
                i += chunk
        chunk //= 2
    return kept + [last]


def show(sent, answers, found):
    method, path, headers, data = sent
    print(f"  {method} {path}  [{headers.get('OpenStack-API-Version')}]")
    if data is not None:
        print(f"    body: {data[:500]!r}")
    for what in found:
        print(f"    DIFFERS: {what}")


def explore(args):
    """Every kind of difference, once, without shrinking."""
    rng = random.Random(args.seed or 0)
    real, ours = Server(args.real), Server(args.ours)
    kinds = {}
    total = 0
    for s in range(args.sequences):
        generator = Generator(rng)
        replay = Replay(real, ours, f"x{s:02d}{rng.getrandbits(24):06x}")
        for _ in range(args.length):
            sent, answers = replay.send(generator.next())
            total += 1
            found = differences(*answers, replay.known, sent, strict=args.strict)
            if not found:
                continue
            shape = UUID.sub("U", sent[1].split("?")[0])
            kind = (sent[0], shape, tuple(f.split(":")[0][:30] for f in found))
            kinds.setdefault(kind, []).append((sent, answers, found))
    differing = sum(len(v) for v in kinds.values())
    print(f"explore: {total} requests, {total - differing} the same, {len(kinds)} kinds of difference")
    for kind, cases in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        sent, answers, found = cases[0]
        print(f"\n== {len(cases)} x {kind}")
        show(sent, answers, found)
        for label, (status, _, body) in zip(("real", "ours"), answers):
            print(f"  {label}: {status} {body[:600]!r}")
    return 1 if kinds else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("real")
    parser.add_argument("ours")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--sequences", type=int, default=20)
    parser.add_argument("--length", type=int, default=150)
    parser.add_argument("--explore", action="store_true",
                        help="go on past differences and print one example of each kind")
    parser.add_argument("--strict", action="store_true",
                        help="with --explore: forgive none of the freedoms of wording")
    parser.add_argument("--min-agreement", type=float, default=98.0,
                        help="the least share (%%) of answers the same without the freedoms of wording")
    args = parser.parse_args()
    if args.explore:
        return explore(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    print(f"differential: seed {seed} ({args.sequences} sequences of {args.length} requests)")
    print("declared freedoms:")
    for name, why in FREEDOMS.items():
        print(f"  - {name}: {why}")
    rng = random.Random(seed)
    real, ours = Server(args.real), Server(args.ours)
    sent_total = 0
    for s in range(args.sequences):
        generator = Generator(rng)
        requests = [generator.next() for _ in range(args.length)]
        ns = f"q{s:02d}{rng.getrandbits(24):06x}"
        result = run_sequence(real, ours, requests, ns)
        if result is None:
            sent_total += len(requests)
            continue
        index = result[0]
        sent_total += index + 1
        report_agreement()
        print(f"\nsequence {s} (namespace {ns}) differs at request {index + 1}:")
        show(result[1], result[2], result[3])
        print("shrinking...")
        minimal = shrink(real, ours, requests[: index + 1], rng, result[3])
        ns = f"m{rng.getrandbits(32):08x}"
        replay = Replay(real, ours, ns)
        print(f"minimal sequence ({len(minimal)} requests, namespace {ns}):")
        for request in minimal:
            sent, answers = replay.send(request)
            found = differences(*answers, replay.known, sent)
            show(sent, answers, found or ["(same)"] if request is not minimal[-1] else found)
        for label, (status, headers, body) in zip(("real", "ours"), answers):
            print(f"  {label}: {status} {body[:1500]!r}")
        print(f"\nreproduce: differential.py REAL OURS --seed {seed} --sequences {args.sequences} "
              f"--length {args.length}")
        return 1
    print(f"differential: {sent_total} requests, every answer the same")
    rate = report_agreement()
    if rate < args.min_agreement:
        print(f"differential: agreement {rate:.1f} % is below {args.min_agreement:.1f} %")
        return 1
    return 0


def report_agreement():
    """Prints the share of answers the same without the freedoms of
    wording, and what differs in the others; returns the share (%)."""
    same, compared = TALLY["strictly_same"], TALLY["compared"]
    rate = 100 * same / max(compared, 1)
    print(f"differential: {same} of {compared} ({rate:.1f} %) the same without "
          f"the freedoms of wording ({', '.join(WORDING_FREEDOMS)})")
    for (method, path, what), count in TALLY["kinds"].most_common():
        print(f"  {count} x {method} {path}: {', '.join(what)}")
    return rate


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (ConnectionError, OSError) as error:
        print(f"differential: a server cannot be reached: {error}")
        sys.exit(2)
