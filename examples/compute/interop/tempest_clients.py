"""tempest.lib's own compute service clients against the compute example.

usage: tempest_clients.py ROOT_URL

Every operation the example serves (flavors, their extra specs and access, keypairs) is
called through tempest.lib's ``FlavorsClient`` and ``KeyPairsClient``,
unmodified (tempest from PyPI, pinned in ``requirements-tempest.txt``), at
each microversion where tempest's response schemas or the example's
behaviour change, and with no version header at all. Those clients are
tempest's judges of Nova: each call picks the response schema module of the
requested microversion (``BaseComputeClient.get_schema``) and checks the
answer with ``RestClient.validate_response`` (the status in the schema's
``status_code`` list, then the body with jsonschema and tempest's
``FORMAT_CHECKER``, or no body where the schema has none), and checks that
``X-OpenStack-Nova-API-Version`` echoes the requested version. Any failure
of tempest's is a failed check here, so one run reports every operation
whose status or body differs from what tempest accepts of Nova.

Only the authentication is replaced: the example has none, so a provider of
our own sends each request to ROOT_URL/v2.1 with no token.
"""

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519
from tempest.lib import exceptions as tempest_exc
from tempest.lib.services.compute import base_compute_client
from tempest.lib.services.compute import flavors_client
from tempest.lib.services.compute import keypairs_client

from _interop import Checks, root_url_from_argv

# None sends no version header (the minimum, 2.1); the others are where
# tempest's schemas change (keypairs 2.2; flavors 2.55, 2.61) or where the
# example's behaviour changes (keypair user_id 2.10, paging 2.35, strict
# queries 2.75, import only 2.92), with the version before each, and the
# maximum.
VERSIONS = [
    None, "2.1", "2.2", "2.9", "2.10", "2.34", "2.35", "2.54", "2.55",
    "2.60", "2.61", "2.74", "2.75", "2.91", "2.92", "2.96",
]



def public_key():
    """A new OpenSSH public key to import (from 2.92 keys are only imported)."""
    key = ed25519.Ed25519PrivateKey.generate().public_key()
    return key.public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH).decode()


class NoAuth:
    """The part of tempest.lib's AuthProvider a RestClient calls, without tokens."""

    def __init__(self, endpoint):
        self.endpoint = endpoint

    def auth_request(self, method, url, headers=None, body=None, filters=None):
        return f"{self.endpoint}/{url}", headers, body

    def base_url(self, filters, auth_data=None):
        return self.endpoint


def at_least(version, floor):
    if version is None:
        return False
    major, minor = (int(part) for part in version.split("."))
    want_major, want_minor = (int(part) for part in floor.split("."))
    return (major, minor) >= (want_major, want_minor)


def call(c, what, func, *args, **kwargs):
    """One client call: a check that tempest accepted the answer; returns its body."""
    try:
        body = func(*args, **kwargs)
    except (tempest_exc.InvalidHttpSuccessCode, tempest_exc.InvalidHTTPResponseBody,
            tempest_exc.InvalidHTTPResponseHeader) as exc:
        c.check(False, what, f"tempest refused the answer: {type(exc).__name__}: {exc}")
        return None
    except tempest_exc.RestClientException as exc:
        c.check(False, what, f"{type(exc).__name__}: {exc}")
        return None
    c.check(True, f"{what}: HTTP {body.response.status}, accepted by tempest's schema")
    return body


def flavors(c, client, version, tag):
    call(c, "list_flavors", client.list_flavors)
    call(c, "list_flavors(detail=True)", client.list_flavors, detail=True)
    call(c, "show_flavor(1)", client.show_flavor, "1")
    fields = dict(name=f"tempest-{tag}", ram=512, vcpus=1, disk=1, id=f"tempest-{tag}",
                  ephemeral=0, swap=0, rxtx_factor=1.0, is_public=True)
    if at_least(version, "2.55"):
        fields["description"] = "created by tempest.lib"
    created = call(c, "create_flavor", client.create_flavor, **fields)
    if created is None:
        return
    flavor_id = created["flavor"]["id"]
    if at_least(version, "2.55"):
        call(c, "update_flavor", client.update_flavor, flavor_id, description="updated")
    call(c, "set_flavor_extra_spec", client.set_flavor_extra_spec, flavor_id,
         **{"hw:cpu_policy": "dedicated", "hw:numa_nodes": "1"})
    call(c, "list_flavor_extra_specs", client.list_flavor_extra_specs, flavor_id)
    call(c, "show_flavor_extra_spec", client.show_flavor_extra_spec, flavor_id, "hw:numa_nodes")
    call(c, "update_flavor_extra_spec", client.update_flavor_extra_spec, flavor_id, "hw:numa_nodes",
         **{"hw:numa_nodes": "2"})
    call(c, "show_flavor(new)", client.show_flavor, flavor_id)
    call(c, "list_flavors(detail=True) with extra specs", client.list_flavors, detail=True)
    call(c, "unset_flavor_extra_spec", client.unset_flavor_extra_spec, flavor_id, "hw:numa_nodes")
    call(c, "delete_flavor", client.delete_flavor, flavor_id)
    private = call(c, "create_flavor(private)", client.create_flavor,
                   **dict(fields, name=f"tempest-{tag}-private", id=f"tempest-{tag}-private", is_public=False))
    if private is None:
        return
    private_id = private["flavor"]["id"]
    call(c, "add_flavor_access", client.add_flavor_access, private_id, "tempest-project")
    call(c, "list_flavor_access", client.list_flavor_access, private_id)
    call(c, "remove_flavor_access", client.remove_flavor_access, private_id, "tempest-project")
    call(c, "delete_flavor(private)", client.delete_flavor, private_id)


def keypairs(c, client, version, tag):
    names = []
    if not at_least(version, "2.92"):
        generated = call(c, "create_keypair (generated)", client.create_keypair, name=f"gen-{tag}")
        if generated is not None:
            c.check("private_key" in generated["keypair"], "a generated keypair carries its private key")
            names.append(generated["keypair"]["name"])
    imported = call(c, "create_keypair (imported)", client.create_keypair, name=f"imp-{tag}",
                    public_key=public_key())
    if imported is not None:
        names.append(imported["keypair"]["name"])
    if at_least(version, "2.2") and not at_least(version, "2.92"):
        x509 = call(c, "create_keypair (x509)", client.create_keypair, name=f"x509-{tag}", type="x509")
        if x509 is not None:
            names.append(x509["keypair"]["name"])
    call(c, "list_keypairs", client.list_keypairs)
    for name in names:
        call(c, f"show_keypair({name})", client.show_keypair, name)
    for name in names:
        call(c, f"delete_keypair({name})", client.delete_keypair, name)
    listed = call(c, "list_keypairs (after deletes)", client.list_keypairs)
    if listed is not None:
        c.equal(listed["keypairs"], [], "no keypair left")


def at_version(c, root, version):
    base_compute_client.COMPUTE_MICROVERSION = version
    auth = NoAuth(root + "/v2.1")
    tag = (version or "none").replace(".", "-")
    flavors(c, flavors_client.FlavorsClient(auth, "compute", "RegionOne"), version, tag)
    keypairs(c, keypairs_client.KeyPairsClient(auth, "compute", "RegionOne"), version, tag)


def main():
    root = root_url_from_argv("tempest_clients.py ROOT_URL")
    c = Checks("tempest_clients")
    for version in VERSIONS:
        c.run(f"tempest.lib compute clients at {version or 'no version header'}", at_version, root, version)
    c.finish()


if __name__ == "__main__":
    main()
