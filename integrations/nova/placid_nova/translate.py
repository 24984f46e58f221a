"""Nova's RequestSpec and HostStates as Placid's decision request (Placid uses Nova's field names)."""


def _get(obj, name, default=None):
    """A field of a Nova object, or ``default`` when it is unset (reading an unset field raises)."""
    if obj is None:
        return default
    if hasattr(obj, 'obj_attr_is_set'):
        try:
            if not obj.obj_attr_is_set(name):
                return default
        except AttributeError:
            return default
    value = getattr(obj, name, default)
    return default if value is None else value


def _scalar(value):
    """JSON for a metadata value: strings, numbers and booleans as they are, anything else as str()."""
    if isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _flavor(flavor):
    return {
        'name': _get(flavor, 'name', 'unnamed'),
        'vcpus': _get(flavor, 'vcpus', 0),
        'memory_mb': _get(flavor, 'memory_mb', 0),
        'root_gb': _get(flavor, 'root_gb', 0),
        'ephemeral_gb': _get(flavor, 'ephemeral_gb', 0),
        'swap': _get(flavor, 'swap', 0),
        'extra_specs': {k: _scalar(v) for k, v in (_get(flavor, 'extra_specs', {}) or {}).items()},
    }


def _image(image):
    if image is None:
        return None
    props = _get(image, 'properties')
    properties = {}
    if props is not None:
        for name in props.fields:
            value = _get(props, name)
            if value is not None:
                properties[name] = _scalar(value)
    return {'id': _get(image, 'id'), 'properties': properties, 'disk_format': _get(image, 'disk_format')}


def _instance_group(group):
    if group is None:
        return None
    out = {
        'policy': _get(group, 'policy'),
        'members': list(_get(group, 'members', []) or []),
        'hosts': list(_get(group, 'hosts', []) or []),
        'rules': {k: _scalar(v) for k, v in (_get(group, 'rules', {}) or {}).items()},
    }
    for name in ('name', 'uuid'):
        if _get(group, name) is not None:
            out[name] = _get(group, name)
    return out if out['policy'] else None


def _destination(dest):
    if dest is None:
        return None
    cell = _get(dest, 'cell')
    out = {
        'host': _get(dest, 'host'),
        'node': _get(dest, 'node'),
        # Nova holds a CellMapping; Placid matches hosts by the cell's uuid.
        'cell': _get(cell, 'uuid') if cell is not None else None,
    }
    aggregates = _get(dest, 'aggregates')
    if aggregates is not None:
        out['aggregates'] = list(aggregates)
    forbidden = _get(dest, 'forbidden_aggregates')
    if forbidden is not None:
        out['forbidden_aggregates'] = sorted(forbidden)
    if _get(dest, 'allow_cross_cell_move') is not None:
        out['allow_cross_cell_move'] = bool(dest.allow_cross_cell_move)
    return out


def _numa(topology):
    if topology is None or not _get(topology, 'cells'):
        return None
    cells = []
    for cell in topology.cells:
        out = {
            'id': _get(cell, 'id', 0),
            'cpuset': sorted(_get(cell, 'cpuset', set()) or ()),
            'pcpuset': sorted(_get(cell, 'pcpuset', set()) or ()),
            'memory': _get(cell, 'memory', 0),
        }
        if _get(cell, 'pagesize') is not None:
            out['pagesize'] = cell.pagesize
        if _get(cell, 'cpu_thread_policy') is not None:
            out['cpu_thread_policy'] = cell.cpu_thread_policy
        cells.append(out)
    return {'cells': cells}


def _pci(requests):
    out = []
    for req in _get(requests, 'requests', []) or []:
        item = {
            'count': _get(req, 'count', 1),
            'spec': [{k: _scalar(v) for k, v in s.items()} for s in (_get(req, 'spec', []) or [])],
        }
        if _get(req, 'alias_name') is not None:
            item['alias_name'] = req.alias_name
        if _get(req, 'numa_policy') is not None:
            item['numa_policy'] = req.numa_policy
        if item['spec']:
            out.append(item)
    return out


def request_id_of(spec_obj):
    """Nova's global request id (the API request's), which every instance of a multi-create shares."""
    context = getattr(spec_obj, '_context', None)
    return getattr(context, 'request_id', None) or _get(spec_obj, 'instance_uuid')


def decision_request(spec_obj, host_states, request_id):
    """The advisory decision request: the RequestSpec and the hosts Nova holds after Placement."""
    hints = _get(spec_obj, 'scheduler_hints', {}) or {}
    body = {
        'request_id': request_id,
        'advisory': True,
        'candidates': [{'host': h.host, 'nodename': h.nodename} for h in host_states],
        'flavor': _flavor(spec_obj.flavor),
        'image': _image(_get(spec_obj, 'image')),
        'scheduler_hints': {k: [str(x) for x in (v if isinstance(v, list) else [v])]
                            for k, v in hints.items()},
        'availability_zone': _get(spec_obj, 'availability_zone'),
        'instance_group': _instance_group(_get(spec_obj, 'instance_group')),
        'project_id': _get(spec_obj, 'project_id'),
        'user_id': _get(spec_obj, 'user_id'),
        'instance_uuid': _get(spec_obj, 'instance_uuid'),
        'num_instances': _get(spec_obj, 'num_instances', 1) or 1,
        'ignore_hosts': list(_get(spec_obj, 'ignore_hosts', []) or []),
        'force_hosts': list(_get(spec_obj, 'force_hosts', []) or []),
        'force_nodes': list(_get(spec_obj, 'force_nodes', []) or []),
        'requested_destination': _destination(_get(spec_obj, 'requested_destination')),
        'numa_topology': _numa(_get(spec_obj, 'numa_topology')),
        'pci_requests': _pci(_get(spec_obj, 'pci_requests')),
        'is_bfv': bool(_get(spec_obj, 'is_bfv', False)),
    }
    return {k: v for k, v in body.items() if v is not None}


_release = []


def nova_release():
    """This nova-scheduler's version (``26.2.2``), read once; Placid decides as that release."""
    if not _release:
        try:
            from nova import version
            _release.append(version.version_string())
        except Exception:  # a Nova without its version module still schedules
            _release.append('unknown')
    return _release[0]
