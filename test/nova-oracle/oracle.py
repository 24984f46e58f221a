#!/usr/bin/python3
"""Nova 26 as Placid's test oracle.

Reads cases as JSON lines on stdin and answers each on one line of stdout, through Nova's own
HostFilterHandler and HostWeightHandler. A case holds hosts and a request in Placid's input
format (the oracle builds Nova's objects from them), config overrides by group, and the filters
and weighers to run:

  {"id": 1, "hosts": [...], "request": {...}, "config": {"filter_scheduler": {...}},
   "filters": ["ComputeFilter"], "weighers": ["RAMWeigher"]}
  -> {"id": 1, "filters": {"ComputeFilter": [true, false]},
      "weighers": {"RAMWeigher": [1.0, 0.0], "*": [1.0, 0.0]}}

"*" is the total of every listed weigher together.

A verdict or a weight is "error:<ExceptionName>" where Nova raises. The first line written is
{"ready": true, "nova": "<version>"}, or {"fatal": "..."} when Nova cannot be imported.
Run it with Debian's /usr/bin/python3 (python3-nova installs there).
"""

import datetime
import json
import logging
import os
import sys
import traceback
import uuid
import warnings

warnings.simplefilter('ignore')
logging.disable(logging.CRITICAL)  # Nova's filters log every elimination


def fatal(message):
    sys.stdout.write(json.dumps({'fatal': message}) + '\n')
    sys.stdout.flush()
    sys.exit(3)


try:
    import nova.conf
    from nova import objects
    from nova import version
    from nova.pci import stats as pci_stats
    from nova.scheduler import filters as nova_filters
    from nova.scheduler import weights as nova_weights
    from nova.tests.unit.scheduler import fakes
except ImportError as err:  # the test turns this into a clear failure
    fatal('%s cannot import Nova (%s)' % (sys.executable, err))

CONF = nova.conf.CONF


def utcnow():
    return datetime.datetime.utcnow().replace(microsecond=0)


def service_of(raw):
    """Placid's service {disabled, up, forced_down} as the dict Nova's HostState holds."""
    if raw is None:
        return None
    service = dict(raw)
    # Nova derives liveness from the heartbeat; Placid's `up` stands for a recent one.
    down_time = CONF.service_down_time
    seen = utcnow() if raw.get('up', True) else utcnow() - datetime.timedelta(seconds=10 * down_time)
    service['last_seen_up'] = raw.get('last_seen_up') and datetime.datetime.strptime(
        raw['last_seen_up'][:19], '%Y-%m-%dT%H:%M:%S') or seen
    service['created_at'] = seen
    service.setdefault('disabled', False)
    service.setdefault('forced_down', False)
    service.pop('up', None)
    return service


def numa_topology_of(raw):
    if not raw:
        return None
    cells = []
    for c in raw['cells']:
        cells.append(objects.NUMACell(
            id=c['id'], cpuset=set(c.get('cpuset', [])), pcpuset=set(c.get('pcpuset', [])),
            memory=c['memory'], cpu_usage=c.get('cpu_usage', 0),
            memory_usage=c.get('memory_usage', 0), pinned_cpus=set(c.get('pinned_cpus', [])),
            siblings=[set(s) for s in c.get('siblings', [])],
            mempages=[objects.NUMAPagesTopology(
                size_kb=p['size_kb'], total=p['total'], used=p.get('used', 0),
                reserved=p.get('reserved', 0)) for p in c.get('mempages', [])],
            network_metadata=objects.NetworkMetadata(physnets=set(), tunneled=False),
            socket=c.get('socket')))
    return objects.NUMATopology(cells=cells)


def pci_stats_of(raw, numa_topology):
    if raw is None:
        return None
    pools = []
    for p in raw['pools']:
        tags = dict(p.get('tags') or {})
        if p.get('dev_type') is not None:
            tags['dev_type'] = p['dev_type']
        if p.get('physical_network') is not None:
            tags['physical_network'] = p['physical_network']
        pools.append(objects.PciDevicePool(
            vendor_id=p['vendor_id'], product_id=p['product_id'], numa_node=p.get('numa_node'),
            count=p['count'], tags=tags))
    return pci_stats.PciDeviceStats(numa_topology, stats=objects.PciDevicePoolList(objects=pools))


def metrics_of(raw):
    out = []
    for m in raw or []:
        fields = {'name': m['name'], 'source': m.get('source', 'placid')}
        if 'value' in m:
            fields['value'] = m['value']
        if 'numa_membw_values' in m:
            fields['numa_membw_values'] = m['numa_membw_values']
        out.append(objects.MonitorMetric(**fields))
    return objects.MonitorMetricList(objects=out)


# Placid's own host fields (Placement and report data); Nova's HostState has no such attribute.
PLACID_ONLY_FIELDS = ('traits', 'inventories', 'availability_zone')


def host_of(raw):
    """One Placid host input document as Nova's FakeHostState."""
    attrs = {}
    for key, value in raw.items():
        if key in ('host', 'nodename', 'aggregates', 'instances', 'metrics', 'service',
                   'numa_topology', 'pci_stats', 'supported_instances') + PLACID_ONLY_FIELDS:
            continue
        attrs[key] = value  # Nova's fields and operator extras alike become attributes
    attrs.setdefault('uuid', '%s:%s' % (raw['host'], raw.get('nodename', raw['host'])))
    # A real HostState always has stats (`compute.stats or {}`); FakeHostState would have none.
    attrs.setdefault('stats', {})
    attrs['aggregates'] = [objects.Aggregate(
        id=i, uuid=a.get('uuid', a['name']), name=a['name'], hosts=a.get('hosts', []),
        metadata=a.get('metadata', {})) for i, a in enumerate(raw.get('aggregates', []))]
    attrs['metrics'] = metrics_of(raw.get('metrics'))
    attrs['supported_instances'] = [tuple(s) for s in raw.get('supported_instances', [])]
    if 'service' in raw:
        attrs['service'] = service_of(raw['service'])
    numa = numa_topology_of(raw.get('numa_topology'))
    attrs['numa_topology'] = numa
    attrs['pci_stats'] = pci_stats_of(raw.get('pci_stats'), numa)
    # As HostState._update_from_compute_node: both counters come from the compute node's stats.
    attrs.setdefault('num_instances', int(attrs['stats'].get('num_instances', 0)))
    attrs.setdefault('num_io_ops', int(attrs['stats'].get('io_workload', 0)))
    instances = raw.get('instances', {})
    uuids = instances if isinstance(instances, list) else list(instances)
    host = fakes.FakeHostState(raw['host'], raw.get('nodename', raw['host']), attrs,
                               instances=[objects.Instance(uuid=u) for u in uuids])
    return host


def instance_numa_of(raw):
    if not raw:
        return None
    cells = []
    for c in raw['cells']:
        pcpus, cpus = set(c.get('pcpuset', [])), set(c.get('cpuset', []))
        # Nova builds dedicated cells with only pcpus, mixed ones with both (hardware.py).
        policy = None if not pcpus else ('mixed' if cpus else 'dedicated')
        cells.append(objects.InstanceNUMACell(
            id=c['id'], cpuset=cpus, pcpuset=pcpus, memory=c['memory'],
            pagesize=c.get('pagesize'), cpu_policy=policy,
            cpu_thread_policy=c.get('cpu_thread_policy')))
    return objects.InstanceNUMATopology(cells=cells)


def pci_requests_of(raw):
    return objects.InstancePCIRequests(requests=[objects.InstancePCIRequest(
        count=r.get('count', 1), spec=r['spec'], alias_name=r.get('alias_name'),
        numa_policy=r.get('numa_policy'), request_id=str(uuid.UUID(int=i + 1)))
        for i, r in enumerate((raw.get('requests') if isinstance(raw, dict) else raw) or [])])


def destination_of(raw):
    if raw is None:
        return None
    fields = {k: raw[k] for k in ('host', 'node', 'aggregates', 'forbidden_aggregates',
                                  'allow_cross_cell_move') if raw.get(k) is not None}
    cell = raw.get('cell')
    if cell is not None:
        cell = cell if isinstance(cell, dict) else {'uuid': cell}
        fields['cell'] = objects.CellMapping(uuid=cell['uuid'], name=cell.get('name'))
    return objects.Destination(**fields)


def group_of(raw):
    if raw is None:
        return None
    # `policies` is what Nova's DB load fills in beside `policy` (ServerGroupAffinityFilter reads it).
    fields = dict(name=raw.get('name'), uuid=raw.get('uuid'), policy=raw['policy'],
                  policies=[raw['policy']],
                  members=raw.get('members', []), hosts=raw.get('hosts', []),
                  rules=raw.get('rules', {}))
    return objects.InstanceGroup(**{k: v for k, v in fields.items() if v is not None})


def hints_of(raw):
    # Nova stores every hint as a list of strings (RequestSpec._from_hints).
    return {k: v if isinstance(v, list) else [v] for k, v in (raw or {}).items()}


def spec_of(raw):
    """One Placid request input document as Nova's RequestSpec."""
    f = raw['flavor']
    flavor = objects.Flavor(
        name=f.get('name', 'unnamed'), vcpus=f['vcpus'], memory_mb=f['memory_mb'],
        root_gb=f.get('root_gb', 0), ephemeral_gb=f.get('ephemeral_gb', 0), swap=f.get('swap', 0),
        extra_specs=f.get('extra_specs', {}))
    image = raw.get('image') or {}
    image_dict = {'properties': image.get('properties', {})}
    if image.get('id'):
        image_dict['id'] = image['id']
    if image.get('disk_format'):
        image_dict['disk_format'] = image['disk_format']
    uuids = raw.get('instance_uuids')
    fields = dict(
        flavor=flavor, image=objects.ImageMeta.from_dict(image_dict),
        scheduler_hints=hints_of(raw.get('scheduler_hints')),
        availability_zone=raw.get('availability_zone'),
        instance_group=group_of(raw.get('instance_group')),
        project_id=raw.get('project_id'), user_id=raw.get('user_id'),
        instance_uuid=raw.get('instance_uuid') or (uuids[0] if uuids else None),
        num_instances=len(uuids) if uuids else raw.get('num_instances', 1),
        ignore_hosts=raw.get('ignore_hosts'), force_hosts=raw.get('force_hosts'),
        force_nodes=raw.get('force_nodes'),
        requested_destination=destination_of(raw.get('requested_destination')),
        numa_topology=instance_numa_of(raw.get('numa_topology')),
        pci_requests=pci_requests_of(raw.get('pci_requests')),
        is_bfv=raw.get('is_bfv', False))
    # Nullable fields are set to None, as a RequestSpec from Nova's API has them; others stay unset.
    nullable = objects.RequestSpec.fields
    return objects.RequestSpec(**{k: v for k, v in fields.items()
                                  if v is not None or nullable[k].nullable})


def error_of(err):
    if os.environ.get('ORACLE_DEBUG'):
        traceback.print_exc()
    return 'error:%s' % type(err).__name__


FILTERS = {cls.__name__: cls for cls in nova_filters.HostFilterHandler().get_all_classes()}
WEIGHERS = {cls.__name__: cls for cls in nova_weights.HostWeightHandler().get_all_classes()}
WEIGH_HANDLER = nova_weights.HostWeightHandler()


def run_filter(name, hosts, spec):
    f = FILTERS[name]()
    out = []
    for host in hosts:
        host.limits = {}  # NUMATopologyFilter writes its limits here; no filter reads another's
        try:
            out.append(bool(f._filter_one(host, spec)))
        except Exception as err:  # Nova raising is an answer too
            out.append(error_of(err))
    return out


def run_weigher(names, hosts, spec):
    try:
        weighed = WEIGH_HANDLER.get_weighed_objects([WEIGHERS[n]() for n in names], hosts, spec)
    except Exception as err:
        return error_of(err)
    by_host = {id(w.obj): w.weight for w in weighed}
    return [by_host[id(h)] for h in hosts]


def with_config(config, fn):
    """Runs fn with the case's nova.conf overrides, then clears them."""
    applied = []
    try:
        for group, options in (config or {}).items():
            for name, value in options.items():
                CONF.set_override(name, value, None if group == 'DEFAULT' else group)
                applied.append((name, None if group == 'DEFAULT' else group))
        return fn()
    finally:
        for name, group in applied:
            CONF.clear_override(name, group)


def answer(case):
    def run():
        # Built once per case (building Nova's objects is most of the oracle's time); filters
        # copy the spec where they change it (NUMATopologyFilter) and weighers change nothing.
        hosts = [host_of(raw) for raw in case['hosts']]
        spec = spec_of(case['request'])
        out = {'id': case.get('id')}
        out['filters'] = {n: run_filter(n, hosts, spec) for n in case.get('filters', [])}
        out['weighers'] = {n: run_weigher([n], hosts, spec) for n in case.get('weighers', [])}
        if case.get('weighers'):
            # Every weigher at once: Nova normalises each and sums (`all_weighers`).
            out['weighers']['*'] = run_weigher(case['weighers'], hosts, spec)
        return out
    try:
        return with_config(case.get('config'), run)
    except Exception as err:  # a bad case (not a Nova verdict): say so instead of dying
        return {'id': case.get('id'), 'case_error': '%s: %s' % (type(err).__name__, err)}


def main():
    objects.register_all()
    CONF([], project='nova', default_config_files=[])
    sys.stdout.write(json.dumps({'ready': True, 'nova': version.version_string(),
                                 'filters': sorted(FILTERS), 'weighers': sorted(WEIGHERS)}) + '\n')
    sys.stdout.flush()
    for line in sys.stdin:
        if line.strip():
            sys.stdout.write(json.dumps(answer(json.loads(line))) + '\n')
            sys.stdout.flush()


if __name__ == '__main__':
    main()
