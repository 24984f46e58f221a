"""One advisory call to Placid per scheduling request, shared by the filter, the weigher and every
instance of a multi-create (cached per request id), behind a circuit breaker, with the fail policy
applied to anything but a well-formed answer. Nothing here raises into Nova."""

import collections
import json
import threading
import time
import uuid

from oslo_log import log as logging

from placid_nova import answer
from placid_nova import breaker as breakers
from placid_nova import conf as placid_conf
from placid_nova import counters
from placid_nova import signing
from placid_nova import translate
from placid_nova import transport
from placid_nova.failures import Unanswered

LOG = logging.getLogger(__name__)
CONF = placid_conf.CONF

#: Answers kept per scheduler process: enough for every request in flight, small enough to forget.
CACHE_SIZE = 256
#: An answer older than this is asked again (a request id is not reused for long).
CACHE_TTL_SECONDS = 300.0
#: Warnings about an unusable Placid at most this often.
WARN_EVERY_SECONDS = 60.0

#: Counters for operators and the tests (see counters.Stats).
stats = counters.Stats()
breaker = breakers.Breaker()


class _Cache(object):
    def __init__(self):
        self._entries = collections.OrderedDict()
        self._lock = threading.Lock()

    def get(self, request_id, host_states):
        with self._lock:
            entry = self._entries.get(request_id)
            if entry is None:
                return None
            at, advice = entry
            # A later call with hosts the answer never saw (a retried live migration) asks again.
            if time.monotonic() - at > CACHE_TTL_SECONDS or not advice.covers(host_states):
                return None
            self._entries.move_to_end(request_id)
            return advice

    def put(self, request_id, advice):
        with self._lock:
            self._entries[request_id] = (time.monotonic(), advice)
            self._entries.move_to_end(request_id)
            while len(self._entries) > CACHE_SIZE:
                self._entries.popitem(last=False)

    def clear(self):
        with self._lock:
            self._entries.clear()


_cache = _Cache()
_last_warning = [float('-inf')]
_warn_lock = threading.Lock()


def reset():
    """Forgets answers, counters, the breaker, credentials and the log clocks (tests; a reload)."""
    _cache.clear()
    stats.clear()
    stats.reset_clock()
    breaker.reset()
    signing.reset()
    _last_warning[0] = float('-inf')


def advice_for(spec_obj, host_states):
    """Placid's advice on ``host_states`` for ``spec_obj``: cached, asked, or the fail policy's."""
    try:
        request_id = translate.request_id_of(spec_obj)
        if request_id is not None:
            cached = _cache.get(request_id, host_states)
            if cached is not None:
                stats.add('cache_hits')
                return cached
        advice = _ask(spec_obj, host_states, request_id or 'req-%s' % uuid.uuid4())
        if request_id is not None:
            _cache.put(request_id, advice)
        return advice
    except Exception as e:  # a bug here must not fail the boot
        _count_failure(Unanswered('internal', '%s: %s' % (type(e).__name__, e)))
        return answer.FAILED
    finally:
        stats.summarise()


def _ask(spec_obj, host_states, request_id):
    if not breaker.allow(CONF.placid.breaker_cooldown):
        stats.add('breaker_skips')
        _policy_decided()
        return answer.FAILED
    deadline = time.monotonic() + CONF.placid.timeout
    stats.add('calls')
    keys = {(h.host, h.nodename) for h in host_states}
    try:
        advice = _exchange(spec_obj, host_states, keys, request_id, deadline)
    except Unanswered as failure:
        _count_failure(failure)
        return answer.FAILED
    except Exception as e:
        _count_failure(Unanswered('internal', '%s: %s' % (type(e).__name__, e)))
        return answer.FAILED
    breaker.succeeded()
    stats['breaker'] = breaker.state
    stats.add('answered')
    for name, n in advice.counts.items():
        stats.add('%s_hosts' % name, n)
    if advice.unjudged:
        LOG.debug('Placid did not judge %d of %d host(s) for request %s (unknown %d, refused %d, '
                  'stale %d): Nova decides those', len(advice.unjudged), len(keys), request_id,
                  advice.counts['unknown'], advice.counts['refused'], advice.counts['stale'])
    return advice


def _exchange(spec_obj, host_states, keys, request_id, deadline):
    request = translate.decision_request(spec_obj, host_states, request_id)
    request['nova_release'] = CONF.placid.nova_release or translate.nova_release()
    body = json.dumps(request).encode('utf-8')
    url = CONF.placid.endpoint
    headers = {'Content-Type': 'application/json', 'Accept': 'application/json'}
    if CONF.placid.region:
        headers = signing.signed_headers(
            url, transport.host_header(url), body, headers, CONF.placid.region)
    advice = answer.parse(transport.post(url, body, headers, deadline), keys)
    if time.monotonic() > deadline:
        raise Unanswered('timeout', 'the answer was read and checked after the deadline')
    return advice


def _policy_decided():
    stats.add('fail_open_decisions' if CONF.placid.fail_open else 'fail_closed_decisions')


def _count_failure(failure):
    stats.add('failed')
    stats.add('failed_' + failure.kind)
    _policy_decided()
    if breaker.failed(CONF.placid.breaker_failures):
        stats.add('breaker_opened')
        LOG.warning('Placid failed %d time(s) in a row; not asked for %.0f s (then one probe)',
                    CONF.placid.breaker_failures, CONF.placid.breaker_cooldown)
    stats['breaker'] = breaker.state
    _warn(failure)


def _warn(failure):
    with _warn_lock:
        now = time.monotonic()
        if now - _last_warning[0] < WARN_EVERY_SECONDS:
            return
        _last_warning[0] = now
    policy = 'every host passes with weight 0' if CONF.placid.fail_open else 'no host passes'
    # A refused request is a bug in the translation or the config, not an outage: say so loudly.
    log = LOG.error if failure.kind in ('http_4xx', 'internal') else LOG.warning
    log('Placid gave no usable answer (%s: %s); %s (failures so far: %d; at most one such line a '
        'minute, counts in placid_nova.stats)', failure.kind, str(failure)[:300], policy,
        stats['failed'])
