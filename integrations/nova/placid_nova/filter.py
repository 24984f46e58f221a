"""PlacidFilter: keeps the hosts Placid passes, with one call per request rather than per host."""

from oslo_log import log as logging

from nova.scheduler import filters
from nova.scheduler import utils

from placid_nova import client
from placid_nova import conf as placid_conf

LOG = logging.getLogger(__name__)
CONF = placid_conf.CONF


class PlacidFilter(filters.BaseHostFilter):
    """Asks Placid about every candidate host at once (``filter_all``, not ``host_passes``)."""

    # Like most of Nova's filters: a rebuild keeps its host, Placid is not asked.
    RUN_ON_REBUILD = False

    def filter_all(self, filter_obj_list, spec_obj):
        hosts = list(filter_obj_list)
        if not hosts:
            return hosts
        if not self.RUN_ON_REBUILD and _is_rebuild(spec_obj):
            return hosts
        advice = client.advice_for(spec_obj, hosts)
        if advice.failed:
            return hosts if CONF.placid.fail_open else []
        kept = []
        for h in hosts:
            key = (h.host, h.nodename)
            verdict = advice.verdicts.get(key)
            # Hosts Placid did not judge (unknown, refused, stale, unmentioned) are Nova's call.
            if verdict is None or verdict[0]:
                kept.append(h)
        return kept

    def host_passes(self, host_state, spec_obj):
        return bool(self.filter_all([host_state], spec_obj))


def _is_rebuild(spec_obj):
    # Nova's helper reads scheduler_hints without allowing for None (a nullable field).
    try:
        if 'scheduler_hints' in spec_obj and spec_obj.scheduler_hints is None:
            return False
        return utils.request_is_rebuild(spec_obj)
    except Exception:  # an odd spec is Placid's question to judge, not a failed boot
        return False
