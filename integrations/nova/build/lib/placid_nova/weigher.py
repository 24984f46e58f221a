"""PlacidWeigher: Placid's weights for the hosts Nova weighs (Nova normalises them; the order stays)."""

from nova.scheduler import utils
from nova.scheduler import weights

from placid_nova import client
from placid_nova import conf as placid_conf

CONF = placid_conf.CONF


class PlacidWeigher(weights.BaseHostWeigher):
    """Returns Placid's weight per host from the request's one advisory answer."""

    def weight_multiplier(self, host_state):
        return utils.get_weight_multiplier(
            host_state, 'placid_weight_multiplier', CONF.placid.weight_multiplier)

    def weigh_objects(self, weighed_obj_list, weight_properties):
        hosts = [w.obj for w in weighed_obj_list]
        if not hosts:
            return []
        advice = client.advice_for(weight_properties, hosts)
        if advice.failed:
            return [0.0] * len(hosts)
        passing = [w for passes, w in advice.verdicts.values() if passes]
        # Unknown hosts rank with Placid's lowest choice, never above a host it prefers; hosts
        # Placid eliminates (when PlacidFilter is not enabled) rank below every other.
        lowest = min(passing) if passing else 0.0
        out = []
        for h in hosts:
            verdict = advice.verdicts.get((h.host, h.nodename))
            if verdict is None:
                out.append(lowest)
            else:
                out.append(verdict[1] if verdict[0] else lowest - 1.0)
        return out

    def _weigh_object(self, obj, weight_properties):
        return self.weigh_objects([weights.WeighedHost(obj, 0.0)], weight_properties)[0]
