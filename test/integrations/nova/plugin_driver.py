"""Runs placid_nova inside Nova's own scheduler machinery, for test/integrations/nova (vitest).

Reads one case per line on stdin (JSON), answers one line per case on stdout. The filter and the
weigher are loaded by class path through Nova's HostFilterHandler / HostWeightHandler, and a
multi-create is placed as Nova's scheduler manager does: filter, weigh, take the best, consume,
and go on with the sorted survivors for the next instance.
"""

import os

if os.environ.get('PLACID_DRIVER_EVENTLET'):
    # As nova-scheduler runs (nova/cmd/__init__.py): eventlet-patched sockets, threads and time.
    import nova.monkey_patch  # noqa: F401

import json  # noqa: E402
import logging  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import nova.conf
from nova import context as nova_context
from nova import objects
from nova.scheduler import filters
from nova.scheduler import weights
from nova.tests.unit.scheduler import fakes

import placid_nova
from placid_nova import client

CONF = nova.conf.CONF


class Captured(logging.Handler):
    """The plug-in's log records, answered with the case (stderr could arrive after the answer)."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.lines = []

    def emit(self, record):
        self.lines.append('%s %s' % (record.levelname, record.getMessage()))


captured = Captured()
logging.getLogger('placid_nova').addHandler(captured)
logging.getLogger('placid_nova').setLevel(logging.INFO)


def load():
    CONF([], project='nova', default_config_files=[])
    objects.register_all()
    filter_handler = filters.HostFilterHandler()
    weight_handler = weights.HostWeightHandler()
    filter_classes = filter_handler.get_matching_classes(['placid_nova.PlacidFilter'])
    weigher_classes = weight_handler.get_matching_classes(['placid_nova.PlacidWeigher'])
    return filter_handler, weight_handler, filter_classes, weigher_classes


def request_spec(case):
    r = case['request']
    ctx = nova_context.RequestContext(user_id='user', project_id='project', request_id=r['request_id'])
    return objects.RequestSpec(
        context=ctx,
        flavor=objects.Flavor(name=r.get('flavor_name', 'm1.small'), vcpus=r['vcpus'],
                              memory_mb=r['memory_mb'], root_gb=r.get('root_gb', 1),
                              ephemeral_gb=0, swap=0, extra_specs={}),
        num_instances=r.get('num_instances', 1),
        instance_uuid=r['instance_uuid'],
        scheduler_hints=r.get('scheduler_hints', {}),
        availability_zone=r.get('availability_zone'),
        project_id='project',
        user_id='user',
        ignore_hosts=[],
        force_hosts=[],
        force_nodes=[],
        is_bfv=False,
    )


def place(spec, hosts, handlers, weigher_only=False):
    """Nova's placement of ``spec`` among ``hosts``: the first instance's view and every pick.
    ``weigher_only``: PlacidWeigher without PlacidFilter (Placid reorders, never removes)."""
    filter_handler, weight_handler, filter_classes, weigher_classes = handlers
    filters_ = [] if weigher_only else [cls() for cls in filter_classes]
    weighers = [cls() for cls in weigher_classes]
    first = None
    selected = []
    for index in range(spec.num_instances):
        passed = filter_handler.get_filtered_objects(filters_, hosts, spec, index)
        if not passed:
            break
        weighed = weight_handler.get_weighed_objects(weighers, passed, spec)
        if first is None:
            first = {'passed': [[h.host, h.nodename] for h in passed],
                     'order': [[w.obj.host, w.obj.nodename, w.weight] for w in weighed]}
        selected.append([weighed[0].obj.host, weighed[0].obj.nodename])
        # Nova consumes the pick in memory and sorts the next instance among these survivors.
        hosts = [w.obj for w in weighed]
    out = {'selected': selected}
    out.update(first or {'passed': [], 'order': []})
    return out


def run(case, handlers):
    """One case: ``repeat`` placements (request ids -0, -1, …); the last one's view is answered.
    ``keep_state`` keeps the plug-in's cache, counters and breaker from the case before;
    ``env`` sets (or, with null, removes) environment variables for the case."""
    for name, value in case.get('conf', {}).items():
        CONF.set_override(name, value, group='placid')
    saved_env = {k: os.environ.get(k) for k in case.get('env', {})}
    _set_env(case.get('env', {}))
    if not case.get('keep_state'):
        client.reset()
    captured.lines = []
    elapsed = []
    try:
        for i in range(case.get('repeat', 1)):
            r = dict(case['request'])
            if 'repeat' in case:
                r['request_id'] = '%s-%d' % (r['request_id'], i)
            hosts = [fakes.FakeHostState(h, n, {'aggregates': []}) for h, n in case['hosts']]
            started = time.monotonic()
            out = place(request_spec(dict(case, request=r)), hosts, handlers,
                        case.get('weigher_only', False))
            elapsed.append(time.monotonic() - started)
        if case.get('summarise'):
            placid_nova.stats.summarise(now=time.monotonic() + 61)
    finally:
        _set_env(saved_env)
        for name in case.get('conf', {}):
            CONF.clear_override(name, group='placid')
    out.update({'id': case['id'], 'stats': dict(placid_nova.stats), 'log': captured.lines,
                'elapsed': elapsed})
    return out


def _set_env(env):
    for k, v in env.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def main():
    handlers = load()
    print(json.dumps({'ready': True}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        try:
            out = run(case, handlers)
        except Exception as e:  # one broken case must not end the session
            out = {'id': case.get('id'), 'error': '%s: %s' % (type(e).__name__, e)}
        print(json.dumps(out), flush=True)


if __name__ == '__main__':
    main()
