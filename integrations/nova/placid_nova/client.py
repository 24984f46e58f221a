"""One advisory call to Placid per scheduling request, shared by the filter, the weigher and every
instance of a multi-create (cached per request id), with the fail-open policy applied."""

import collections
import json
import threading
import time
import urllib.error
import urllib.request
import uuid

from oslo_log import log as logging

from placid_nova import conf as placid_conf
from placid_nova import translate

LOG = logging.getLogger(__name__)
CONF = placid_conf.CONF

#: Answers kept per scheduler process: enough for every request in flight, small enough to forget.
CACHE_SIZE = 256
#: An answer older than this is asked again (a request id is not reused for long).
CACHE_TTL_SECONDS = 300.0
#: Warnings about an unreachable Placid at most this often.
WARN_EVERY_SECONDS = 60.0

#: Counters for operators (and the tests): calls made, failures, answers served from the cache,
#: unknown hosts reported.
stats = collections.Counter()


class Advice(object):
    """Placid's answer for one request: a verdict per known host, the hosts it did not know."""

    def __init__(self, verdicts, unknown, failed=False):
        #: {(host, nodename): (passes, weight)}
        self.verdicts = verdicts
        #: {(host, nodename)} Placid has no state for.
        self.unknown = unknown
        #: True when Placid did not answer (the fail policy decides every host).
        self.failed = failed
        self.hosts = set(verdicts) | set(unknown)

    def covers(self, keys):
        return self.failed or keys <= self.hosts


class _Cache(object):
    def __init__(self):
        self._entries = collections.OrderedDict()
        self._lock = threading.Lock()

    def get(self, request_id, keys):
        with self._lock:
            entry = self._entries.get(request_id)
            if entry is None:
                return None
            at, advice = entry
            # A later call with hosts the answer never saw (a retried live migration) asks again.
            if time.monotonic() - at > CACHE_TTL_SECONDS or not advice.covers(keys):
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
    """Forgets cached answers, counters and the warning clock (tests; a config reload)."""
    _cache.clear()
    stats.clear()
    _last_warning[0] = float('-inf')


def _key(host_state):
    return (host_state.host, host_state.nodename)


def advice_for(spec_obj, host_states):
    """Placid's advice on ``host_states`` for ``spec_obj``: from the cache, or one HTTP call."""
    keys = {_key(h) for h in host_states}
    request_id = translate.request_id_of(spec_obj)
    if request_id is not None:
        cached = _cache.get(request_id, keys)
        if cached is not None:
            stats['cache_hits'] += 1
            return cached
    advice = _ask(spec_obj, host_states, request_id or 'req-%s' % uuid.uuid4())
    if request_id is not None:
        _cache.put(request_id, advice)
    return advice


def _ask(spec_obj, host_states, request_id):
    body = json.dumps(translate.decision_request(spec_obj, host_states, request_id)).encode('utf-8')
    stats['calls'] += 1
    try:
        answer = _post(body)
    except _Unanswered as failure:
        stats['failures'] += 1
        _warn(failure)
        return Advice({}, set(), failed=True)
    verdicts = {}
    for c in answer.get('candidates', []):
        verdicts[(c['host'], c['nodename'])] = (bool(c['passes']), float(c.get('weight', 0.0)))
    unknown = {(u['host'], u['nodename']) for u in answer.get('unknown', [])}
    if unknown:
        stats['unknown_hosts'] += len(unknown)
        LOG.info('Placid does not know %d host(s) Nova sent for request %s; they pass unweighted: %s',
                 len(unknown), request_id, ', '.join(sorted(h for h, _ in unknown)[:20]))
    return Advice(verdicts, unknown)


class _Unanswered(Exception):
    """Placid timed out, was unreachable, or answered with an error status."""


def _post(body):
    endpoint = CONF.placid.endpoint
    headers = {'content-type': 'application/json', 'accept': 'application/json'}
    if CONF.placid.region:
        headers = _signed_headers(endpoint, body, headers, CONF.placid.region)
    request = urllib.request.Request(endpoint, data=body, headers=headers, method='POST')
    try:
        with urllib.request.urlopen(request, timeout=CONF.placid.timeout) as response:
            return json.loads(response.read().decode('utf-8'))
    except urllib.error.HTTPError as e:
        detail = e.read()[:300].decode('utf-8', 'replace')
        if e.code < 500:
            # A refused request is a bug in the translation or the config, not an outage: say so loudly.
            LOG.error('Placid refused the request (HTTP %s): %s', e.code, detail)
        raise _Unanswered('HTTP %s from %s: %s' % (e.code, endpoint, detail))
    except (urllib.error.URLError, OSError, ValueError) as e:
        raise _Unanswered('%s: %s' % (endpoint, getattr(e, 'reason', e)))


def _signed_headers(endpoint, body, headers, region):
    """SigV4 for an IAM-authenticated Lambda Function URL, with botocore's credential chain."""
    # Imported only when signing: `placid serve` needs no botocore on the scheduler host.
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    import botocore.session

    credentials = botocore.session.get_session().get_credentials()
    if credentials is None:
        raise _Unanswered('no AWS credentials found to sign requests for region %s' % region)
    request = AWSRequest(method='POST', url=endpoint, data=body, headers=dict(headers))
    SigV4Auth(credentials.get_frozen_credentials(), 'lambda', region).add_auth(request)
    return dict(request.headers.items())


def _warn(failure):
    with _warn_lock:
        now = time.monotonic()
        if now - _last_warning[0] < WARN_EVERY_SECONDS:
            return
        _last_warning[0] = now
    policy = 'every host passes with weight 0' if CONF.placid.fail_open else 'no host passes'
    LOG.warning('Placid did not answer (%s); %s (failures so far: %d)', failure, policy,
                stats['failures'])
