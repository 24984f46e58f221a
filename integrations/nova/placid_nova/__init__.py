"""Placid as a Nova scheduler filter and weigher (docs/nova-plugin.md).

Enable in nova.conf, the weigher alone first (Placid reorders, never removes a host)::

    [filter_scheduler]
    weight_classes = nova.scheduler.weights.all_weighers,placid_nova.PlacidWeigher

    [placid]
    endpoint = http://127.0.0.1:8780

then the filter too (``available_filters = placid_nova.PlacidFilter`` beside Nova's all_filters,
and PlacidFilter in ``enabled_filters``). Anything but a well-formed answer within ``timeout`` is
no answer: ``fail_open`` decides, and ``placid_nova.stats`` counts it.
"""

from placid_nova import conf  # noqa: F401  (registers [placid] at import)
from placid_nova.client import stats
from placid_nova.filter import PlacidFilter
from placid_nova.weigher import PlacidWeigher

__all__ = ['PlacidFilter', 'PlacidWeigher', 'stats']
__version__ = '0.1.0'
