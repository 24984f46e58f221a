"""``placid_nova.stats``: what the plug-in did, for operators (and an INFO line at most once a
minute while requests come in)."""

import threading
import time

from oslo_log import log as logging

from placid_nova.failures import KINDS

LOG = logging.getLogger('placid_nova')

#: The summary line's period.
SUMMARY_EVERY_SECONDS = 60.0


class Stats(dict):
    """Counters by name, plus ``breaker`` (closed, open or half_open).

    calls (HTTP exchanges begun), answered, failed and failed_<kind>, fail_open_decisions and
    fail_closed_decisions (requests decided by the fail policy, breaker skips included),
    breaker_skips (requests not sent: breaker open), breaker_opened, cache_hits, and the hosts
    Placid did not judge: unknown_hosts, refused_hosts, stale_hosts.
    """

    def __init__(self):
        super(Stats, self).__init__()
        self._lock = threading.Lock()
        self._logged_at = time.monotonic()
        self._logged_calls = 0
        self.clear()

    def clear(self):
        with self._lock:
            dict.clear(self)
            for name in ('calls', 'answered', 'failed', 'fail_open_decisions',
                         'fail_closed_decisions', 'breaker_skips', 'breaker_opened', 'cache_hits',
                         'unknown_hosts', 'refused_hosts', 'stale_hosts'):
                self[name] = 0
            for kind in KINDS:
                self['failed_' + kind] = 0
            self['breaker'] = 'closed'

    def add(self, name, n=1):
        with self._lock:
            self[name] = self.get(name, 0) + n

    def summarise(self, now=None):
        """Logs the counters at INFO when a minute has passed since the last line and requests came."""
        now = time.monotonic() if now is None else now
        with self._lock:
            requests = self['calls'] + self['breaker_skips'] + self['cache_hits']
            if now - self._logged_at < SUMMARY_EVERY_SECONDS or requests == self._logged_calls:
                return
            self._logged_at, self._logged_calls = now, requests
            failed = ', '.join('%s %d' % (k, self['failed_' + k]) for k in KINDS
                               if self['failed_' + k])
        LOG.info('Placid plug-in: %d calls, %d answered, %d failed (%s), %d fail-open and %d '
                 'fail-closed decisions, %d skipped by the breaker (%s), %d cache hits; hosts not '
                 'judged: %d unknown, %d refused, %d stale',
                 self['calls'], self['answered'], self['failed'], failed or 'none',
                 self['fail_open_decisions'], self['fail_closed_decisions'], self['breaker_skips'],
                 self['breaker'], self['cache_hits'], self['unknown_hosts'],
                 self['refused_hosts'], self['stale_hosts'])

    def reset_clock(self):
        with self._lock:
            self._logged_at, self._logged_calls = time.monotonic(), 0
