"""The Nova side of bench/novaPlugin.ts: Nova 26's filter+weigh step through its own handlers.

    /usr/bin/python3 bench/nova_plugin.py <fleet.json>   (then one JSON line on stdin)

Builds Nova's host states of the fleet (test/nova-oracle's builder), prints {"ready": true}, reads
{"url", "pid", "sizes": {"200": runs, ...}} and measures, per size, interleaved on the same
candidates: Nova alone (its default enabled_filters and weight_classes) against PlacidFilter +
PlacidWeigher asking `placid serve` at url (whose CPU it reads from /proc/<pid>/stat). Then the
cost of PlacidFilter + PlacidWeigher with the breaker open. Prints one JSON line of results.
"""

import json
import os
import random
import sys
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'test', 'nova-oracle'))
sys.path.insert(0, os.path.join(HERE, '..', 'integrations', 'nova'))

import oracle  # noqa: E402  (Nova's objects from Placid's input documents; silences Nova's logs)
from nova.scheduler import filters as nova_filters  # noqa: E402
from nova.scheduler import weights as nova_weights  # noqa: E402

CONF = oracle.CONF
REQUEST = {'flavor': {'name': 'm1.small', 'vcpus': 1, 'memory_mb': 1024, 'root_gb': 10},
           'project_id': 'project', 'user_id': 'user'}


def server_cpu_ms(pid):
    fields = open('/proc/%d/stat' % pid).read().rsplit(') ', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf('SC_CLK_TCK')


def percentiles(xs):
    xs = sorted(xs)
    at = lambda p: xs[min(len(xs) - 1, max(0, -(-p * len(xs) // 100) - 1))]  # noqa: E731
    return {'p50_ms': round(at(50), 2), 'p90_ms': round(at(90), 2), 'p99_ms': round(at(99), 2)}


class Variant(object):
    def __init__(self, name, filter_names, weigher_names):
        fh, wh = nova_filters.HostFilterHandler(), nova_weights.HostWeightHandler()
        self.name = name
        # As Nova's HostManager: enabled_filters names classes of available_filters (all_filters).
        self.filters = [oracle.FILTERS[n]() if n in oracle.FILTERS else fh.get_matching_classes([n])[0]()
                        for n in filter_names]
        self.weighers = [c() for c in wh.get_matching_classes(weigher_names)]
        self.fh, self.wh = fh, wh
        self.wall, self.cpu, self.passed = [], [], []

    def step(self, hosts):
        """One filter+weigh step for a fresh request (its own id: nothing cached across steps)."""
        spec = oracle.spec_of(dict(REQUEST, instance_uuid=str(uuid.uuid4())))
        t0, c0 = time.perf_counter(), time.process_time()
        passed = self.fh.get_filtered_objects(self.filters, hosts, spec, 0) or []
        weighed = self.wh.get_weighed_objects(self.weighers, passed, spec) if passed else []
        self.wall.append((time.perf_counter() - t0) * 1000)
        self.cpu.append((time.process_time() - c0) * 1000)
        self.passed.append(len(passed))
        return weighed

    def result(self):
        out = percentiles(self.wall)
        out['python_cpu_ms_p50'] = percentiles(self.cpu)['p50_ms']
        out['mean_passing_hosts'] = round(sum(self.passed) / len(self.passed), 1)
        return out


def measure_size(fleet, size, runs, pid, rnd):
    nova = Variant('nova', CONF.filter_scheduler.enabled_filters,
                   CONF.filter_scheduler.weight_classes)
    placid = Variant('placid', ['placid_nova.PlacidFilter'], ['placid_nova.PlacidWeigher'])
    for _ in range(3):  # warm-up, not recorded
        hosts = rnd.sample(fleet, size)
        nova.step(hosts)
        placid.step(hosts)
    nova.wall, nova.cpu, nova.passed = [], [], []
    placid.wall, placid.cpu, placid.passed = [], [], []
    cpu0 = server_cpu_ms(pid)
    for i in range(runs):
        hosts = rnd.sample(fleet, size)
        # Interleaved, in alternating order, on the same candidates.
        for v in ((nova, placid) if i % 2 == 0 else (placid, nova)):
            v.step(hosts)
    server_ms = (server_cpu_ms(pid) - cpu0) / runs
    from placid_nova import stats
    return {'candidates': size, 'runs_per_variant': runs, 'nova_alone': nova.result(),
            'nova_with_placid': dict(placid.result(), server_cpu_ms_per_request=round(server_ms, 2)),
            'plugin_failures': stats['failed']}


def breaker_open_cost(fleet, rnd):
    """PlacidFilter + PlacidWeigher through Nova's handlers with the breaker open (endpoint dead)."""
    from placid_nova import client
    CONF.set_override('endpoint', 'http://127.0.0.1:9', group='placid')
    CONF.set_override('breaker_failures', 1, group='placid')
    CONF.set_override('breaker_cooldown', 3600.0, group='placid')
    client.reset()
    placid = Variant('placid', ['placid_nova.PlacidFilter'], ['placid_nova.PlacidWeigher'])
    hosts = rnd.sample(fleet, 1000)
    placid.step(hosts)  # opens it
    assert client.stats['breaker'] == 'open', client.stats
    placid.wall, placid.cpu, placid.passed = [], [], []
    for _ in range(300):
        placid.step(hosts)
    own = []
    for _ in range(300):
        spec = oracle.spec_of(dict(REQUEST, instance_uuid=str(uuid.uuid4())))
        t0 = time.perf_counter()
        client.advice_for(spec, hosts)
        own.append((time.perf_counter() - t0) * 1000)
    return {'candidates': 1000, 'runs': 300,
            # Nova's handlers with PlacidFilter + PlacidWeigher: the handlers' own work per host
            # (a list, normalising, debug dicts) is most of it.
            'placid_filter_and_weigher': placid.result(),
            # The plug-in's decision alone (cache, breaker, fail policy) for a new request.
            'advice_alone': percentiles(own),
            'breaker_skips': client.stats['breaker_skips']}


def main():
    oracle.objects.register_all()
    CONF([], project='nova', default_config_files=[])
    # The run outlasts Nova's 60 s liveness window of heartbeats set when the fleet is built
    # (and serve's of the stored reports): an hour, on both sides alike.
    CONF.set_override('service_down_time', 3600)
    import placid_nova  # noqa: F401  (registers [placid])
    docs = json.load(open(sys.argv[1]))
    fleet = [oracle.host_of(d) for d in docs]
    print(json.dumps({'ready': True, 'nova': oracle.version.version_string()}), flush=True)
    job = json.loads(sys.stdin.readline())
    CONF.set_override('endpoint', job['url'], group='placid')
    rnd = random.Random(7)
    sizes = [measure_size(fleet, int(size), runs, job['pid'], rnd)
             for size, runs in job['sizes'].items()]
    print(json.dumps({'sizes': sizes, 'breaker_open': breaker_open_cost(fleet, rnd),
                      'nova_filters': CONF.filter_scheduler.enabled_filters,
                      'nova_weighers': CONF.filter_scheduler.weight_classes}), flush=True)


if __name__ == '__main__':
    main()
