"""Placid as a Nova scheduler filter and weigher.

Enable in nova.conf::

    [filter_scheduler]
    available_filters = nova.scheduler.filters.all_filters
    available_filters = placid_nova.PlacidFilter
    enabled_filters = ComputeFilter,...,PlacidFilter
    weight_classes = nova.scheduler.weights.all_weighers,placid_nova.PlacidWeigher

    [placid]
    endpoint = http://127.0.0.1:8780
"""

from placid_nova import conf  # noqa: F401  (registers [placid] at import)
from placid_nova.client import stats
from placid_nova.filter import PlacidFilter
from placid_nova.weigher import PlacidWeigher

__all__ = ['PlacidFilter', 'PlacidWeigher', 'stats']
__version__ = '0.1.0'
