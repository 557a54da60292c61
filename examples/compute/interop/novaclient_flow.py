"""python-novaclient, unmodified, against the compute example (no auth).

usage: novaclient_flow.py ROOT_URL [CAPPED_ROOT_URL CAP]

ROOT_URL is the server root (``http://127.0.0.1:PORT``); the compute endpoint
novaclient is given is ``ROOT_URL/v2.1``, as a Keystone catalog would list
it. With CAPPED_ROOT_URL and CAP, a second server whose served maximum is
capped at CAP (docs/reference.md §3.5) is negotiated against too.

Checks, at several microversions: ``2.latest`` negotiation lands on
min(server max, novaclient's API_MAX_VERSION); flavors are listed, created,
shown, updated (2.55+), given extra specs and deleted, with the fields each
version shows; keypairs are generated and imported, shown, listed and deleted,
with the type, user_id and status-code changes; calls novaclient knows to be
newer than the negotiated version fail the way novaclient reports them.
"""

import base64
import hashlib
import sys

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.serialization import pkcs12

from keystoneauth1 import noauth
from keystoneauth1 import session as ks_session
import novaclient
from novaclient import api_versions
from novaclient import client as nova_client
from novaclient import exceptions as nova_exc

from _interop import Checks, root_url_from_argv

SERVER_MIN = api_versions.APIVersion("2.1")
SERVER_MAX = api_versions.APIVersion("2.96")
DEFAULT_FLAVORS = {
    "1": ("m1.tiny", 512, 1, 1),
    "2": ("m1.small", 2048, 1, 20),
    "3": ("m1.medium", 4096, 2, 40),
    "4": ("m1.large", 8192, 4, 80),
    "5": ("m1.xlarge", 16384, 8, 160),
}
# Real keys (made with ssh-keygen for these tests), with the MD5 fingerprints
# `ssh-keygen -l -E md5` prints for them, which is how Nova fingerprints ssh keys.
ED25519_KEY = (
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJYweqb3BF+24ZzVi25KznWdmTeM9W0DjFdanjz3dxn9"
    " interop@example"
)
ED25519_FINGERPRINT = "a9:98:04:87:ab:3e:25:62:20:6f:a1:df:73:23:cf:70"
RSA_KEY = (
    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC6v+1n2znffN6LZ3W1WnIxeNJpVRvCaM55Sd/KJSvZ"
    "FdwoM4/ETUegXp2LzY75spU0EslVO4zSLvxjlKBdP9oZQaFTWOd9qCsBBg8HcMiXjzSAV6Rb2W09xplF"
    "ZJZW2s/7jGI4ScMn46HFGAvudcSR3QXZZ1978ks7F3556Id/F7I3Q70J9+BSHmLd17yao3jibAfJdxxl"
    "4BoUonGSY6NoIzGTZgj+NXcyIQwzGK/VcYVHbxKpqWzYS/G404aAyxrg/ocl+1emd3wUOkzcN2hcUQnD"
    "k+Qm8EFM51PxpkDHLUkHV+8oi6fnAMAZPqqXBfnbVk4xVT4TPFbDNsiNARCl interop-rsa"
)
RSA_FINGERPRINT = "a3:00:78:20:00:53:58:26:09:aa:72:8e:8b:98:f3:96"
OTHER_USER = "interop-other-user"


def V(text):
    return api_versions.APIVersion(text)


def ssh_md5_fingerprint(public_key):
    blob = base64.b64decode(public_key.split()[1])
    digest = hashlib.md5(blob).hexdigest()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def slug(version):
    """A version for use in names Nova accepts before 2.92 ([a-zA-Z0-9 _-])."""
    return version.get_string().replace(".", "_")


class Nova:
    """novaclient clients for one endpoint, one per microversion."""

    def __init__(self, root):
        self.root = root
        self.endpoint = root + "/v2.1"
        # No Keystone: a fixed endpoint and no token, as for a noauth deployment.
        self.session = ks_session.Session(
            auth=noauth.NoAuth(endpoint=self.endpoint), timeout=30
        )

    def client(self, version):
        if not isinstance(version, api_versions.APIVersion):
            version = V(version)
        return nova_client.Client(version, session=self.session)


def check_negotiation(c, nova, expected_max, label):
    client = nova.client(novaclient.API_MIN_VERSION)
    current = client.versions.get_current()
    c.check(current is not None, f"{label}: versions.get_current() read {nova.endpoint}")
    if current is None:
        return None
    c.equal(getattr(current, "id", None), "v2.1", f"{label}: current version id")
    c.equal(getattr(current, "status", None), "CURRENT", f"{label}: current version status")
    c.equal(getattr(current, "min_version", None), "2.1", f"{label}: min_version")
    c.equal(getattr(current, "version", None), expected_max.get_string(), f"{label}: version (max)")
    # novaclient reads the endpoint URL itself (no trailing slash) and only
    # falls back to its parent on 404: make sure the first read answered.
    resp = nova.session.get(nova.endpoint, authenticated=False, raise_exc=False)
    c.equal(resp.status_code, 200, f"{label}: GET {nova.endpoint} (novaclient's first try)")

    listed = client.versions.list()
    c.equal([v.id for v in listed], ["v2.1"], f"{label}: versions.list() ids (GET /)")

    expected = min(expected_max, novaclient.API_MAX_VERSION)
    latest = api_versions.discover_version(client, V("2.latest"))
    c.equal(
        latest.get_string(),
        expected.get_string(),
        f"{label}: discover_version(2.latest) = min(server {expected_max.get_string()}, "
        f"novaclient {novaclient.API_MAX_VERSION.get_string()})",
    )
    explicit = api_versions.discover_version(client, V("2.55"))
    c.equal(explicit.get_string(), "2.55", f"{label}: discover_version(2.55)")
    above = V(f"2.{expected_max.ver_minor + 1}")
    c.raises(
        nova_exc.UnsupportedVersion,
        api_versions.discover_version,
        f"{label}: discover_version({above.get_string()}) above the server's max",
        client,
        above,
    )

    # The negotiated version is the one the server answers with.
    negotiated = nova.client(latest)
    resp, body = negotiated.client.get("/flavors")
    c.equal(
        resp.headers.get("OpenStack-API-Version"),
        f"compute {latest.get_string()}",
        f"{label}: OpenStack-API-Version of a request at the negotiated version",
    )
    c.equal(
        resp.headers.get("X-OpenStack-Nova-API-Version"),
        latest.get_string(),
        f"{label}: X-OpenStack-Nova-API-Version of that response",
    )
    return latest


def check_flavor_view(c, flavor, version, label, expect):
    """`expect` is (name, ram, vcpus, disk, swap, ephemeral, rxtx, is_public, description, specs)."""
    name, ram, vcpus, disk, swap, ephemeral, rxtx, is_public, description, specs = expect
    c.equal(flavor.name, name, f"{label}.name")
    c.equal(flavor.ram, ram, f"{label}.ram")
    c.equal(flavor.vcpus, vcpus, f"{label}.vcpus")
    c.equal(flavor.disk, disk, f"{label}.disk")
    shown_swap = swap if swap or version >= V("2.75") else ""
    c.equal(flavor.swap, shown_swap, f"{label}.swap at {version.get_string()}")
    c.equal(flavor.ephemeral, ephemeral, f"{label}.ephemeral")
    c.equal(flavor.rxtx_factor, rxtx, f"{label}.rxtx_factor")
    c.equal(flavor.is_public, is_public, f"{label}.is_public")
    if version >= V("2.55"):
        c.equal(getattr(flavor, "description", "<absent>"), description, f"{label}.description")
    else:
        c.check(not hasattr(flavor, "description"), f"{label} has no description before 2.55")
    if version >= V("2.61"):
        c.equal(getattr(flavor, "extra_specs", "<absent>"), specs, f"{label}.extra_specs")
    else:
        c.check(not hasattr(flavor, "extra_specs"), f"{label} has no extra_specs before 2.61")


def flavors_at(c, nova, version):
    nova_v = nova.client(version)
    vs = version.get_string()
    tag = slug(version)

    summary = nova_v.flavors.list(detailed=False)
    ids = {f.id for f in summary}
    c.check(set(DEFAULT_FLAVORS) <= ids, "list(detailed=False) has the default flavors 1..5", sorted(ids))
    for f in summary:
        c.check(
            ("description" in f._info) == (version >= V("2.55")),
            f"summary {f.id}: description present iff >= 2.55",
            sorted(f._info),
        )
        c.check("extra_specs" not in f._info, f"summary {f.id}: no extra_specs (detail only)")
        c.check("ram" not in f._info, f"summary {f.id}: no ram (summary view)")
        break
    detail = {f.id: f for f in nova_v.flavors.list(detailed=True)}
    for fid, (name, ram, vcpus, disk) in DEFAULT_FLAVORS.items():
        if fid in detail:
            check_flavor_view(
                c, detail[fid], version, f"detail[{fid}]",
                (name, ram, vcpus, disk, 0, 0, 1.0, True, None, {}),
            )
            break
    tiny = nova_v.flavors.get("1")
    check_flavor_view(c, tiny, version, "get('1')", ("m1.tiny", 512, 1, 1, 0, 0, 1.0, True, None, {}))
    # Nova's request id, which novaclient keeps on what it returns.
    for what, got in (("list(detailed=False)", summary), ("get('1')", tiny)):
        ids = list(got.request_ids)
        c.check(len(ids) == 1 and ids[0].startswith("req-"), f"{what}.request_ids is one req- id", ids)
    c.check(summary.request_ids != tiny.request_ids, "two requests have two request ids",
            (summary.request_ids, tiny.request_ids))
    found = nova_v.flavors.find(name="m1.small")
    c.equal(found.id, "2", "flavors.find(name='m1.small').id")

    # Create with a generated id and no swap, then with everything explicit.
    desc = f"made by novaclient at {vs}"
    kwargs = {"description": desc} if version >= V("2.55") else {}
    auto = nova_v.flavors.create(f"interop-{tag}-auto", 256, 1, 2, **kwargs)
    c.check(isinstance(auto.id, str) and auto.id not in DEFAULT_FLAVORS, "create(flavorid='auto') got an id", auto.id)
    expect_auto = (f"interop-{tag}-auto", 256, 1, 2, 0, 0, 1.0, True, kwargs.get("description"), {})
    check_flavor_view(c, auto, version, "create(auto)", expect_auto)
    check_flavor_view(c, nova_v.flavors.get(auto.id), version, "get(auto)", expect_auto)
    c.check(auto.id in {f.id for f in nova_v.flavors.list()}, "the new flavor is listed")

    explicit = nova_v.flavors.create(
        f"interop-{tag}-explicit", 1024, 2, 10, flavorid=f"interop-{tag}",
        ephemeral=5, swap=512, rxtx_factor=2.0, is_public=False,
    )
    expect_explicit = (f"interop-{tag}-explicit", 1024, 2, 10, 512, 5, 2.0, False, None, {})
    c.equal(explicit.id, f"interop-{tag}", "create(flavorid=...).id")
    check_flavor_view(c, explicit, version, "create(explicit)", expect_explicit)
    check_flavor_view(c, nova_v.flavors.get(explicit.id), version, "get(explicit)", expect_explicit)

    exc = c.raises(nova_exc.Conflict, nova_v.flavors.create, "duplicate id -> 409",
                   f"interop-{tag}-other", 256, 1, 1, flavorid=explicit.id)
    if exc is not None:
        c.check(exc.message not in (None, "n/a", "Unknown Error"),
                "novaclient read the fault message of the 409", exc.message)
    c.raises(nova_exc.Conflict, nova_v.flavors.create, "duplicate name -> 409",
             f"interop-{tag}-auto", 256, 1, 1)
    c.raises(nova_exc.BadRequest, nova_v.flavors.create, "ram=0 -> 400 (Nova: ram >= 1)",
             f"interop-{tag}-zero", 0, 1, 1)

    # Description and update exist from 2.55.
    if version >= V("2.55"):
        updated = nova_v.flavors.update(auto, description="changed")
        c.equal(updated.description, "changed", "flavors.update(description=).description")
        c.equal(nova_v.flavors.get(auto.id).description, "changed", "get() after update")
        again = nova_v.flavors.get(auto.id).update(description=None)
        c.equal(again.description, None, "Flavor.update(description=None) clears it")
        check_flavor_view(c, again, version, "update() result",
                          expect_auto[:8] + (None, {}))
        c.raises(nova_exc.NotFound, nova_v.flavors.update, "update of a missing flavor -> 404",
                 "no-such-flavor", description="x")
    else:
        c.raises(nova_exc.UnsupportedAttribute, nova_v.flavors.create,
                 f"create(description=...) at {vs} (novaclient refuses before 2.55)",
                 f"interop-{tag}-desc", 256, 1, 1, description="too early")
        body = {"flavor": {"name": f"interop-{tag}-desc", "ram": 256, "vcpus": 1,
                           "disk": 1, "description": "too early"}}
        c.raises(nova_exc.BadRequest, nova_v.client.post,
                 f"POST /flavors with description at {vs} -> 400 (unknown key before 2.55)",
                 "/flavors", body=body)
        c.raises(nova_exc.VersionNotFoundForAPIMethod, nova_v.flavors.update,
                 f"flavors.update at {vs} (novaclient: 2.55-only method)", auto, description="x")
        c.raises(nova_exc.VersionNotFoundForAPIMethod, auto.update,
                 f"Flavor.update at {vs}", description="x")
        exc = c.raises(nova_exc.NotFound, nova_v.client.put,
                       f"PUT /flavors/{{id}} at {vs} -> 404 (the method does not exist yet)",
                       f"/flavors/{auto.id}", body={"flavor": {"description": "x"}})
        if exc is not None:
            c.equal(exc.code, 404, "novaclient's NotFound.code")

    # Flavor access: the private flavor's projects (FlavorAccessManager).
    access = nova_v.flavor_access
    c.equal(access.list(flavor=explicit), [], "flavor_access.list() of a new private flavor")
    added = access.add_tenant_access(explicit, "interop-project-b")
    added = access.add_tenant_access(explicit, "interop-project-a")
    c.equal(sorted((a.flavor_id, a.tenant_id) for a in added),
            [(explicit.id, "interop-project-a"), (explicit.id, "interop-project-b")],
            "add_tenant_access() answers the flavor's projects")
    c.raises(nova_exc.Conflict, access.add_tenant_access, "the same project again -> 409",
             explicit, "interop-project-a")
    left = access.remove_tenant_access(explicit, "interop-project-b")
    c.equal([a.tenant_id for a in left], ["interop-project-a"], "remove_tenant_access() result")
    c.equal([a.tenant_id for a in access.list(flavor=explicit)], ["interop-project-a"],
            "flavor_access.list() after remove")
    c.raises(nova_exc.NotFound, access.remove_tenant_access, "a project not there -> 404",
             explicit, "interop-project-b")
    c.raises(nova_exc.NotFound, access.list, "the list of a public flavor -> 404", flavor=auto)
    if version >= V("2.7"):
        c.raises(nova_exc.Conflict, access.add_tenant_access,
                 "a project for a public flavor -> 409 from 2.7", auto, "interop-project-c")
    c.check(explicit.id not in {f.id for f in nova_v.flavors.list()},
            "a private flavor is not in the default list")
    c.check(explicit.id in {f.id for f in nova_v.flavors.list(is_public=False)},
            "a private flavor is in list(is_public=False)")

    # Extra specs.
    specs = auto.set_keys({"hw:cpu_policy": "dedicated", "interop:tier": tag})
    c.equal(dict(specs), {"hw:cpu_policy": "dedicated", "interop:tier": tag}, "set_keys() result")
    c.equal(dict(auto.get_keys()), {"hw:cpu_policy": "dedicated", "interop:tier": tag}, "get_keys()")
    auto.unset_keys(["interop:tier"])
    c.equal(dict(auto.get_keys()), {"hw:cpu_policy": "dedicated"}, "get_keys() after unset_keys")
    shown = nova_v.flavors.get(auto.id)
    if version >= V("2.61"):
        c.equal(shown.extra_specs, {"hw:cpu_policy": "dedicated"}, "get().extra_specs at 2.61+")
        listed = {f.id: f for f in nova_v.flavors.list(detailed=True)}
        c.equal(getattr(listed.get(auto.id), "extra_specs", None), {"hw:cpu_policy": "dedicated"},
                "list(detailed=True) extra_specs at 2.61+")
    else:
        c.check(not hasattr(shown, "extra_specs"), "get() shows no extra_specs before 2.61")
    c.raises(nova_exc.NotFound, auto.unset_keys, "unset_keys of a missing key -> 404", ["no-such-key"])

    # Delete.
    nova_v.flavors.delete(auto)
    c.raises(nova_exc.NotFound, nova_v.flavors.get, "get() after delete -> 404", auto.id)
    c.raises(nova_exc.NotFound, nova_v.flavors.delete, "delete() again -> 404", auto.id)
    resp, _ = nova_v.client.delete(f"/flavors/{explicit.id}")
    c.equal(resp.status_code, 202, "DELETE /flavors/{id} status")
    exc = c.raises(nova_exc.NotFound, nova_v.flavors.get, "get() of a missing flavor -> 404", "no-such-flavor")
    if exc is not None:
        c.check(exc.message not in (None, "n/a", "Unknown Error"),
                "novaclient read the itemNotFound message", exc.message)


def check_keypair(c, kp, version, label, name, key_type, public_key=None, fingerprint=None, user_id=None):
    c.equal(kp.name, name, f"{label}.name")
    c.check(bool(getattr(kp, "public_key", None)), f"{label} has a public_key")
    if public_key is not None:
        c.equal(kp.public_key, public_key, f"{label}.public_key")
    if fingerprint is not None:
        c.equal(getattr(kp, "fingerprint", None), fingerprint, f"{label}.fingerprint")
    if version >= V("2.2"):
        c.equal(getattr(kp, "type", "<absent>"), key_type, f"{label}.type")
    else:
        c.check(not hasattr(kp, "type"), f"{label} has no type before 2.2")
    if user_id is not None:
        c.equal(getattr(kp, "user_id", None), user_id, f"{label}.user_id")


def keypairs_at(c, nova, version):
    nova_v = nova.client(version)
    vs = version.get_string()
    tag = slug(version)
    created = []

    # A generated key pair (below 2.92) carries its private key.
    gen_name = f"interop-gen-{tag}"
    if version < V("2.92"):
        kp = nova_v.keypairs.create(gen_name)
        check_keypair(c, kp, version, "create(generated)", gen_name, "ssh")
        private = getattr(kp, "private_key", "")
        c.check("PRIVATE KEY-----" in private, "a generated key pair has a private_key", private[:40])
        c.check(kp.public_key.startswith("ssh-"), "the generated public key is an ssh key", kp.public_key[:20])
        c.equal(kp.fingerprint, ssh_md5_fingerprint(kp.public_key), "fingerprint = MD5 of the generated key")
        created.append(gen_name)
    else:
        c.raises(TypeError, nova_v.keypairs.create, f"keypairs.create(name) at {vs} (novaclient: public_key required)",
                 gen_name)
        c.raises(nova_exc.BadRequest, nova_v.client.post, f"POST /os-keypairs without public_key at {vs} -> 400",
                 "/os-keypairs", body={"keypair": {"name": gen_name}})

    # An imported key pair: no private key, Nova's MD5 fingerprint.
    imp_name = f"interop-imp-{tag}"
    kp = nova_v.keypairs.create(imp_name, public_key=ED25519_KEY)
    check_keypair(c, kp, version, "create(imported)", imp_name, "ssh", ED25519_KEY, ED25519_FINGERPRINT)
    c.check(not getattr(kp, "private_key", None), "an imported key pair has no private_key")
    created.append(imp_name)
    shown = nova_v.keypairs.get(imp_name)
    check_keypair(c, shown, version, "get(imported)", imp_name, "ssh", ED25519_KEY, ED25519_FINGERPRINT)
    c.raises(nova_exc.Conflict, nova_v.keypairs.create, "duplicate name -> 409", imp_name, public_key=RSA_KEY)
    c.raises(nova_exc.BadRequest, nova_v.keypairs.create, "an invalid public key -> 400",
             f"interop-bad-{tag}", public_key="ssh-rsa not-base64!")

    # The status codes changed at 2.2 (create 200 -> 201, delete 202 -> 204).
    raw_name = f"interop-raw-{tag}"
    resp, body = nova_v.client.post("/os-keypairs", body={"keypair": {"name": raw_name, "public_key": RSA_KEY}})
    c.equal(resp.status_code, 200 if version < V("2.2") else 201, f"POST /os-keypairs status at {vs}")
    c.equal(body.get("keypair", {}).get("fingerprint"), RSA_FINGERPRINT, "RSA key fingerprint")
    resp, _ = nova_v.client.delete(f"/os-keypairs/{raw_name}")
    c.equal(resp.status_code, 202 if version < V("2.2") else 204, f"DELETE /os-keypairs/{{name}} status at {vs}")

    # Key types arrived at 2.2.
    if version < V("2.2"):
        c.raises(TypeError, nova_v.keypairs.create, f"keypairs.create(key_type=) at {vs} (novaclient: no such argument)",
                 f"interop-x509-{tag}", key_type="x509")
        c.raises(nova_exc.BadRequest, nova_v.client.post, f"POST /os-keypairs with type at {vs} -> 400",
                 "/os-keypairs", body={"keypair": {"name": f"interop-x509-{tag}", "type": "ssh"}})
    elif version < V("2.92"):
        x509 = nova_v.keypairs.create(f"interop-x509-{tag}", key_type="x509")
        check_keypair(c, x509, version, "create(x509)", f"interop-x509-{tag}", "x509")
        # Nova's generate_winrm_x509_cert: the private key is a PKCS#12
        # file with the empty password, in base64, holding the key and the
        # public key's certificate.
        c.check("BEGIN CERTIFICATE" in x509.public_key, "its public_key is a certificate", x509.public_key[:40])
        try:
            pfx = base64.b64decode(getattr(x509, "private_key", ""), validate=True)
            key, cert, _ = pkcs12.load_key_and_certificates(pfx, b"")
            c.equal(key.key_size, 2048, "the x509 private key is RSA 2048")
            c.equal(cert.public_bytes(serialization.Encoding.PEM).decode().strip(), x509.public_key.strip(),
                    "the PKCS#12 file holds the public key's certificate")
        except (ValueError, TypeError) as error:
            c.check(False, "a generated x509 private key is a base64 PKCS#12 file", str(error))
        created.append(x509.name)
        c.raises(nova_exc.BadRequest, nova_v.keypairs.create, "type 'dsa' -> 400",
                 f"interop-dsa-{tag}", key_type="dsa")

    # user_id arrived at 2.10 (body of create, query of show/delete and list).
    if version >= V("2.10"):
        other_name = f"interop-user-{tag}"
        kp = nova_v.keypairs.create(other_name, public_key=RSA_KEY, user_id=OTHER_USER)
        check_keypair(c, kp, version, "create(user_id=)", other_name, "ssh", RSA_KEY, RSA_FINGERPRINT, OTHER_USER)
        shown = nova_v.keypairs.get(other_name, user_id=OTHER_USER)
        check_keypair(c, shown, version, "get(user_id=)", other_name, "ssh", RSA_KEY, RSA_FINGERPRINT, OTHER_USER)
        c.raises(nova_exc.NotFound, nova_v.keypairs.get, "get() without user_id: another user's key -> 404", other_name)
        c.check(other_name in {k.name for k in nova_v.keypairs.list(user_id=OTHER_USER)}, "list(user_id=) has it")
        c.check(other_name not in {k.name for k in nova_v.keypairs.list()}, "list() of the default user lacks it")
        nova_v.keypairs.delete(other_name, user_id=OTHER_USER)
        c.raises(nova_exc.NotFound, nova_v.keypairs.get, "get(user_id=) after delete -> 404", other_name,
                 user_id=OTHER_USER)
    else:
        c.raises(nova_exc.BadRequest, nova_v.client.post, f"POST /os-keypairs with user_id at {vs} -> 400",
                 "/os-keypairs", body={"keypair": {"name": f"interop-user-{tag}", "public_key": RSA_KEY,
                                                   "user_id": OTHER_USER}})

    # Names with '@' and '.' are accepted from 2.92 only.
    odd_name = f"interop@key.{tag}"
    if version >= V("2.92"):
        kp = nova_v.keypairs.create(odd_name, public_key=ED25519_KEY)
        c.equal(kp.name, odd_name, "a name with '@' and '.' at 2.92+")
        created.append(odd_name)
    else:
        c.raises(nova_exc.BadRequest, nova_v.keypairs.create, f"a name with '@' and '.' at {vs} -> 400",
                 odd_name, public_key=ED25519_KEY)

    listed = nova_v.keypairs.list()
    names = {k.name for k in listed}
    c.check(set(created) <= names, "list() has every key pair made here", sorted(names))
    for k in listed:
        c.check(bool(k.fingerprint) and bool(k.public_key), f"list entry {k.name} has fingerprint and public_key")
        if version >= V("2.2"):
            c.check(getattr(k, "type", None) in ("ssh", "x509"), f"list entry {k.name} has a type at 2.2+")
        else:
            c.check(not hasattr(k, "type"), f"list entry {k.name} has no type before 2.2")
        break
    if version >= V("2.35"):
        page = nova_v.keypairs.list(limit=1)
        c.equal(len(page), 1, "list(limit=1) at 2.35+")
        if page:
            following = nova_v.keypairs.list(limit=1000, marker=page[0].name)
            c.check(page[0].name not in {k.name for k in following}, "list(marker=) starts after the marker")
            c.equal(len(following), len(listed) - 1, "list(marker=first) has the rest")

    for name in created:
        nova_v.keypairs.delete(name)
        c.raises(nova_exc.NotFound, nova_v.keypairs.get, f"get({name!r}) after delete -> 404", name)
    c.raises(nova_exc.NotFound, nova_v.keypairs.delete, "delete of a missing key pair -> 404", "no-such-key")


def main():
    root = root_url_from_argv("novaclient_flow.py ROOT_URL [CAPPED_ROOT_URL CAP]")
    capped = None
    if len(sys.argv) >= 4:
        capped = (sys.argv[2].rstrip("/"), V(sys.argv[3]))
    print(f"python-novaclient {novaclient.__version__} (API_MAX_VERSION "
          f"{novaclient.API_MAX_VERSION.get_string()}) against {root}/v2.1")
    c = Checks("novaclient_flow")
    nova = Nova(root)
    latest = [None]

    def negotiation(c):
        latest[0] = check_negotiation(c, nova, SERVER_MAX, "server")

    c.run("negotiation of 2.latest", negotiation)
    if capped is not None:
        c.run(f"negotiation against a server capped at {capped[1].get_string()}",
              lambda c: check_negotiation(c, Nova(capped[0]), capped[1], "capped server"))
    negotiated = latest[0] or min(SERVER_MAX, novaclient.API_MAX_VERSION)

    for version in [V("2.1"), V("2.54"), V("2.55"), V("2.60"), V("2.61"), V("2.74"), V("2.75"), negotiated]:
        c.run(f"flavors at {version.get_string()}", flavors_at, nova, version)
    for version in [V("2.1"), V("2.2"), V("2.9"), V("2.10"), V("2.35"), V("2.91"), V("2.92"), negotiated]:
        c.run(f"keypairs at {version.get_string()}", keypairs_at, nova, version)
    c.finish()


if __name__ == "__main__":
    main()
