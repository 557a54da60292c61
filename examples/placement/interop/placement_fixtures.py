"""Gabbi fixtures with the names Placement's gabbits use.

Placement's own fixtures (placement/tests/functional/fixtures/gabbits.py)
seed a database directly; these seed the same data through the HTTP API of
the server under test (its URL is in $PLACEMENT_TEST_URL) and export the
same environment variables the YAML files read.
"""

import json
import os
import urllib.request
import uuid

from gabbi import fixture

LATEST = 'placement 1.39'


def _uuid():
    return str(uuid.uuid4())


def call(method, path, body=None, version=LATEST):
    """One request to the server under test; returns the decoded body."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(os.environ['PLACEMENT_TEST_URL'] + path, data=data, method=method)
    req.add_header('x-auth-token', 'admin')
    req.add_header('openstack-api-version', version)
    req.add_header('accept', 'application/json')
    if data is not None:
        req.add_header('content-type', 'application/json')
    with urllib.request.urlopen(req) as res:
        text = res.read()
    return json.loads(text) if text else None


def create_provider(name, *aggs, parent=None, uuid_=None):
    body = {'name': name, 'uuid': uuid_ or _uuid()}
    if parent:
        body['parent_provider_uuid'] = parent
    rp = call('POST', '/resource_providers', body)
    if aggs:
        set_aggregates(rp['uuid'], list(aggs))
    return rp['uuid']


def generation(rp):
    return call('GET', '/resource_providers/%s' % rp)['generation']


def set_aggregates(rp, aggs):
    call('PUT', '/resource_providers/%s/aggregates' % rp,
         {'aggregates': aggs, 'resource_provider_generation': generation(rp)})


def ensure_rc(name):
    if name.startswith('CUSTOM_'):
        call('PUT', '/resource_classes/%s' % name)


def add_inventory(rp, rc, total, **kwargs):
    ensure_rc(rc)
    inv = call('GET', '/resource_providers/%s/inventories' % rp)
    record = {'total': total}
    record.update(kwargs)
    inv['inventories'][rc] = record
    call('PUT', '/resource_providers/%s/inventories' % rp,
         {'inventories': inv['inventories'],
          'resource_provider_generation': inv['resource_provider_generation']})


def set_traits(rp, *traits):
    for trait in traits:
        if trait.startswith('CUSTOM_'):
            call('PUT', '/traits/%s' % trait)
    current = call('GET', '/resource_providers/%s/traits' % rp)
    call('PUT', '/resource_providers/%s/traits' % rp,
         {'traits': sorted(set(current['traits']) | set(traits)),
          'resource_provider_generation': current['resource_provider_generation']})


def set_allocation(rp, consumer, project, user, used):
    current = call('GET', '/allocations/%s' % consumer)
    allocations = current.get('allocations', {})
    allocations.setdefault(rp, {'resources': {}})
    allocations[rp]['resources'].update(used)
    body = {'allocations': {k: {'resources': v['resources']} for k, v in allocations.items()},
            'project_id': project, 'user_id': user,
            'consumer_generation': current.get('consumer_generation')}
    call('PUT', '/allocations/%s' % consumer, body, version='placement 1.37')


class APIFixture(fixture.GabbiFixture):
    """The variables of Placement's APIFixture; the server's database is fresh."""

    def start_fixture(self):
        for name in ('RP_UUID', 'RP_NAME', 'RP_UUID1', 'RP_NAME1', 'RP_UUID2', 'RP_NAME2',
                     'PROJECT_ID', 'ADMIN_PROJECT_ID', 'SERVICE_PROJECT_ID', 'USER_ID',
                     'PROJECT_ID_ALT', 'USER_ID_ALT', 'INSTANCE_UUID', 'MIGRATION_UUID',
                     'CONSUMER_UUID', 'PARENT_PROVIDER_UUID', 'ALT_PARENT_PROVIDER_UUID'):
            os.environ[name] = _uuid()
        os.environ['CUSTOM_RES_CLASS'] = 'CUSTOM_IRON_NFV'
        os.environ['CUSTOM_RES_CLASS1'] = 'CUSTOM_IRON_NFV1'
        os.environ['CUSTOM_RES_CLASS2'] = 'CUSTOM_IRON_NFV2'

    def stop_fixture(self):
        pass


class AllocationFixture(APIFixture):
    """A provider with DISK_GB and VCPU, and three consumers' allocations."""

    def start_fixture(self):
        super().start_fixture()
        os.environ['ALT_USER_ID'] = _uuid()
        project = os.environ['PROJECT_ID']
        user = os.environ['USER_ID']
        alt_user = os.environ['ALT_USER_ID']
        rp = create_provider(os.environ['RP_NAME'], uuid_=os.environ['RP_UUID'])
        add_inventory(rp, 'DISK_GB', 2048, step_size=10, min_unit=10, max_unit=1000)
        add_inventory(rp, 'VCPU', 10, max_unit=10)
        consumer1 = _uuid()
        set_allocation(rp, consumer1, project, user, {'DISK_GB': 1000})
        os.environ['CONSUMER_0'] = consumer1
        consumer2 = _uuid()
        set_allocation(rp, consumer2, project, user, {'VCPU': 6})
        os.environ['CONSUMER_ID'] = consumer2
        alt_consumer = _uuid()
        os.environ['ALT_CONSUMER_ID'] = alt_consumer
        set_allocation(rp, alt_consumer, project, alt_user, {'DISK_GB': 20, 'VCPU': 1})
        os.environ['ALT_RP_UUID'] = _uuid()
        os.environ['ALT_RP_NAME'] = _uuid()


class GranularFixture(APIFixture):
    """Three compute nodes and three sharing providers (Placement's layout)."""

    def start_fixture(self):
        super().start_fixture()
        ensure_rc('CUSTOM_NET_MBPS')
        agg_a, agg_b, agg_c = _uuid(), _uuid(), _uuid()
        os.environ['AGGA'], os.environ['AGGB'], os.environ['AGGC'] = agg_a, agg_b, agg_c
        left = create_provider('cn_left', agg_a)
        os.environ['CN_LEFT'] = left
        for rc, total in (('VCPU', 8), ('MEMORY_MB', 4096), ('DISK_GB', 500), ('VGPU', 8),
                          ('SRIOV_NET_VF', 8), ('CUSTOM_NET_MBPS', 4000)):
            add_inventory(left, rc, total)
        set_traits(left, 'HW_CPU_X86_AVX', 'HW_CPU_X86_AVX2', 'HW_GPU_API_DXVA',
                   'HW_NIC_DCB_PFC', 'CUSTOM_FOO')
        middle = create_provider('cn_middle', agg_a, agg_b)
        os.environ['CN_MIDDLE'] = middle
        for rc, total in (('VCPU', 8), ('MEMORY_MB', 4096), ('SRIOV_NET_VF', 8),
                          ('CUSTOM_NET_MBPS', 4000)):
            add_inventory(middle, rc, total)
        set_traits(middle, 'HW_CPU_X86_AVX', 'HW_CPU_X86_AVX2', 'HW_CPU_X86_SSE',
                   'HW_NIC_ACCEL_TLS')
        right = create_provider('cn_right', agg_b, agg_c)
        os.environ['CN_RIGHT'] = right
        add_inventory(right, 'VCPU', 8)
        add_inventory(right, 'MEMORY_MB', 4096)
        add_inventory(right, 'DISK_GB', 500)
        add_inventory(right, 'VGPU', 8, max_unit=2)
        set_traits(right, 'HW_CPU_X86_MMX', 'HW_GPU_API_DXVA', 'CUSTOM_DISK_SSD')
        shr1 = create_provider('shr_disk_1', agg_a)
        os.environ['SHR_DISK_1'] = shr1
        add_inventory(shr1, 'DISK_GB', 1000)
        set_traits(shr1, 'MISC_SHARES_VIA_AGGREGATE', 'CUSTOM_DISK_SSD')
        shr2 = create_provider('shr_disk_2', agg_a, agg_b)
        os.environ['SHR_DISK_2'] = shr2
        add_inventory(shr2, 'DISK_GB', 1000)
        set_traits(shr2, 'MISC_SHARES_VIA_AGGREGATE')
        net = create_provider('shr_net', agg_c)
        os.environ['SHR_NET'] = net
        add_inventory(net, 'SRIOV_NET_VF', 16)
        add_inventory(net, 'CUSTOM_NET_MBPS', 40000)
        set_traits(net, 'MISC_SHARES_VIA_AGGREGATE')


class NUMANetworkFixture(APIFixture):
    """Two compute trees with NUMA, device and network providers."""

    def start_fixture(self):
        super().start_fixture()
        agg_a = _uuid()
        os.environ['AGGA_UUID'] = agg_a
        ss1 = create_provider('ss1', agg_a)
        set_traits(ss1, 'MISC_SHARES_VIA_AGGREGATE')
        add_inventory(ss1, 'DISK_GB', 2000)
        os.environ['SS1_UUID'] = ss1
        cn1 = create_provider('cn1', agg_a)
        set_traits(cn1, 'COMPUTE_VOLUME_MULTI_ATTACH')
        os.environ['CN1_UUID'] = cn1
        project, user = 'numafx-project', 'numafx-user'
        numas = []
        for i in (0, 1):
            numa = create_provider('numa%d' % i, parent=cn1)
            traits = ['HW_NUMA_ROOT'] + (['CUSTOM_FOO'] if i == 1 else [])
            set_traits(numa, *traits)
            add_inventory(numa, 'VCPU', 4)
            numas.append(numa)
            os.environ['NUMA%d_UUID' % i] = numa
        add_inventory(numas[0], 'MEMORY_MB', 2048, min_unit=512, step_size=256)
        add_inventory(numas[1], 'MEMORY_MB', 2048, min_unit=256, max_unit=1024)
        set_allocation(numas[0], _uuid(), project, user, {'VCPU': 2})
        fpga = create_provider('fpga0', parent=numas[0])
        add_inventory(fpga, 'FPGA', 1)
        os.environ['FPGA0_UUID'] = fpga
        pgpu = create_provider('pgpu0', parent=numas[0])
        add_inventory(pgpu, 'VGPU', 8)
        os.environ['PGPU0_UUID'] = pgpu
        for i in (0, 1):
            fpga = create_provider('fpga1_%d' % i, parent=numas[1])
            add_inventory(fpga, 'FPGA', 1)
            os.environ['FPGA1_%d_UUID' % i] = fpga
        agent = create_provider('sriov_agent', parent=cn1)
        set_traits(agent, 'CUSTOM_VNIC_TYPE_DIRECT')
        os.environ['SRIOV_AGENT_UUID'] = agent
        for i in (1, 2):
            dev = create_provider('esn%d' % i, parent=agent)
            set_traits(dev, 'CUSTOM_PHYSNET%d' % i)
            add_inventory(dev, 'NET_BW_EGR_KILOBIT_PER_SEC', 10000 * i)
            os.environ['ESN%d_UUID' % i] = dev
        agent = create_provider('ovs_agent', parent=cn1)
        set_traits(agent, 'CUSTOM_VNIC_TYPE_NORMAL')
        os.environ['OVS_AGENT_UUID'] = agent
        dev = create_provider('br_int', parent=agent)
        set_traits(dev, 'CUSTOM_PHYSNET0')
        add_inventory(dev, 'NET_BW_EGR_KILOBIT_PER_SEC', 1000)
        os.environ['BR_INT_UUID'] = dev
        cn2 = create_provider('cn2')
        set_aggregates(cn2, [agg_a])
        add_inventory(cn2, 'VCPU', 8)
        set_allocation(cn2, _uuid(), project, user, {'VCPU': 3})
        add_inventory(cn2, 'MEMORY_MB', 2048, min_unit=1024, step_size=128)
        add_inventory(cn2, 'DISK_GB', 1000)
        set_traits(cn2, 'CUSTOM_FOO')
        os.environ['CN2_UUID'] = cn2
        nics = []
        for i in (1, 2, 3):
            nic = create_provider('nic%d' % i, parent=cn2)
            set_traits(nic, 'CUSTOM_HW_NIC_ROOT')
            nics.append(nic)
            os.environ['NIC%s_UUID' % i] = nic
        for i in (1, 2):
            pf = create_provider('pf1_%d' % i, parent=nics[0])
            set_traits(pf, 'CUSTOM_PHYSNET%d' % i)
            add_inventory(pf, 'CUSTOM_VF', 4)
            os.environ['PF1_%d_UUID' % i] = pf
        for i in (0, 1, 2, 3):
            pf = create_provider('pf2_%d' % (i + 1), parent=nics[1])
            set_traits(pf, 'CUSTOM_PHYSNET%d' % ((i % 2) + 1))
            add_inventory(pf, 'CUSTOM_VF', 2)
            os.environ['PF2_%d_UUID' % (i + 1)] = pf
        pf = create_provider('pf3_1', parent=nics[2])
        set_traits(pf, 'CUSTOM_PHYSNET1')
        add_inventory(pf, 'CUSTOM_VF', 8)
        os.environ['PF3_1_UUID'] = pf
