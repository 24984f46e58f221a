"""Runs an OpenStack service from Debian's python3-* packages, which ship modules but no commands.

    launch.py <service> [args...]

nova-compute also reads FAKE_VCPUS, FAKE_MEMORY_MB and FAKE_LOCAL_GB: the size the fake
hypervisor reports.
"""
import importlib
import os
import sys

ENTRY_POINTS = {
    'nova-api': 'nova.cmd.api',
    'nova-conductor': 'nova.cmd.conductor',
    'nova-scheduler': 'nova.cmd.scheduler',
    'nova-compute': 'nova.cmd.compute',
    'nova-manage': 'nova.cmd.manage',
    'glance-api': 'glance.cmd.api',
    'glance-manage': 'glance.cmd.manage',
    'neutron-server': 'neutron.cmd.eventlet.server',
    'neutron-db-manage': 'neutron.db.migration.cli',
}


def fake_compute():
    """Sizes the fake hypervisor, and lets it keep its guests over a restart.

    The fake driver holds its guests in memory: after nova-compute restarts, every server on the
    host would read power state NOSTATE and Nova would refuse to live-migrate it (409). A real
    hypervisor still runs them, so servers Nova's database holds ACTIVE and idle here are adopted.
    """
    from nova.compute import power_state, vm_states
    from nova.virt import fake

    for attr, env in (('vcpus', 'FAKE_VCPUS'), ('memory_mb', 'FAKE_MEMORY_MB'), ('local_gb', 'FAKE_LOCAL_GB')):
        if os.environ.get(env):
            setattr(fake.FakeDriver, attr, int(os.environ[env]))
    get_info = fake.FakeDriver.get_info

    def get_info_adopting(self, instance, use_cache=True):
        if (instance.uuid not in self.instances and instance.host == self._host
                and instance.vm_state == vm_states.ACTIVE and instance.task_state is None):
            self.instances[instance.uuid] = fake.FakeInstance(instance.name, power_state.RUNNING, instance.uuid)
        return get_info(self, instance, use_cache)

    fake.FakeDriver.get_info = get_info_adopting


def main():
    service = sys.argv[1]
    module = importlib.import_module(ENTRY_POINTS[service])  # nova.cmd.* monkey-patches eventlet first
    if service == 'nova-compute':
        fake_compute()
    sys.argv = [service] + sys.argv[2:]
    sys.exit(module.main())


if __name__ == '__main__':
    main()
