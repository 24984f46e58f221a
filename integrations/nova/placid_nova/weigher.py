"""PlacidWeigher: Placid's weights for the hosts Nova weighs (Nova normalises them; the order stays)."""

from nova.scheduler import utils
from nova.scheduler import weights

from placid_nova import client
from placid_nova import conf as placid_conf

CONF = placid_conf.CONF


class PlacidWeigher(weights.BaseHostWeigher):
    """Returns Placid's weight per host from the request's one advisory answer."""

    def __init__(self):
        #: Hosts of the last weighing whose weights were all equal: Nova normalises them to 0, so
        #: their multiplier is not looked up in their aggregates (most of the cost of a dead Placid).
        self._flat = frozenset()

    def weight_multiplier(self, host_state):
        if id(host_state) in self._flat:
            return 0.0
        return utils.get_weight_multiplier(
            host_state, 'placid_weight_multiplier', CONF.placid.weight_multiplier)

    def weigh_objects(self, weighed_obj_list, weight_properties):
        hosts = [w.obj for w in weighed_obj_list]
        if not hosts:
            return []
        out = self._weights(hosts, client.advice_for(weight_properties, hosts))
        # Nova asks for the multipliers right after this returns (no I/O between: no other request).
        self._flat = frozenset(id(h) for h in hosts) if len(set(out)) <= 1 else frozenset()
        return out

    @staticmethod
    def _weights(hosts, advice):
        if advice.failed:
            return [0.0] * len(hosts)
        verdicts = advice.verdicts
        passing = [w for passes, w in verdicts.values() if passes]
        # Hosts Placid did not judge (unknown, refused, stale) rank with Placid's lowest choice,
        # never above a host it prefers; hosts it eliminates (when PlacidFilter is not enabled)
        # rank below every other.
        neutral = min(passing) if passing else 0.0
        out = []
        for h in hosts:
            verdict = verdicts.get((h.host, h.nodename))
            if verdict is None:
                out.append(neutral)
            else:
                out.append(verdict[1] if verdict[0] else neutral - 1.0)
        return out

    def _weigh_object(self, obj, weight_properties):
        return self.weigh_objects([weights.WeighedHost(obj, 0.0)], weight_properties)[0]
