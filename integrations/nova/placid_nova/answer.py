"""Placid's answer, checked strictly: anything but a well-formed answer to this request is none.

A verdict counts only when it names a candidate Nova asked about, says ``passes`` with a real
boolean and, when passing, a finite weight within WEIGHT_BOUND. Verdicts marked ``stale`` (Placid's
last report of the host is old), and the ``unknown`` and ``refused`` candidates, are not judged:
Nova decides those alone. Unknown fields are ignored, so older and newer servers both fit.
"""

import json

from placid_nova.failures import Unanswered

#: Weights beyond this are refused as nonsense. Placid's weight is Σ multiplier × normalised weight,
#: and Nova's largest default multiplier is build_failure_weight_multiplier (1e6).
WEIGHT_BOUND = 1e9


class Advice(object):
    """Placid's verdicts on one request's candidates."""

    def __init__(self, verdicts, asked=(), unjudged=(), failed=False, counts=None):
        #: {(host, nodename): (passes, weight)} for the candidates Placid judged.
        self.verdicts = verdicts
        #: {(host, nodename)} Placid did not judge (unknown, refused, stale): Nova's call.
        self.unjudged = set(unjudged)
        #: True when there was no usable answer: the fail policy decides every host.
        self.failed = failed
        #: {'unknown': n, 'refused': n, 'stale': n}
        self.counts = counts or {}
        #: {(host, nodename)} asked about: a candidate the answer does not mention is unjudged too.
        self.asked = asked

    def covers(self, host_states):
        asked = self.asked
        return self.failed or all((h.host, h.nodename) in asked for h in host_states)


FAILED = Advice({}, failed=True)


def _bad(message):
    return Unanswered('bad_answer', message)


def _key(item, asked, where, strict=True):
    """(host, nodename) of an answer item; the nodename defaults to the host (Nova's usual node).
    Not ``strict``: None for a candidate not asked about (a refused name may come back altered)."""
    if type(item) is not dict:
        raise _bad('%s: an item is not an object' % where)
    host = item.get('host')
    nodename = item.get('nodename', host)
    if type(host) is not str or type(nodename) is not str:
        raise _bad('%s: host and nodename must be strings' % where)
    key = (host, nodename)
    if key not in asked:
        if not strict:
            return None
        raise _bad('%s: %s was not asked about' % (where, repr(key)[:200]))
    return key


def _list(body, name, required=False):
    value = body.get(name)
    if value is None and not required:
        return []
    if not isinstance(value, list):
        raise _bad('`%s` must be a list' % name)
    return value


def _weight(w):
    # type() rather than isinstance: a boolean is an int to isinstance.
    if type(w) is not float and type(w) is not int:
        raise _bad('a passing candidate\'s weight must be a number')
    if not -WEIGHT_BOUND <= w <= WEIGHT_BOUND:  # also false for NaN
        raise _bad('a weight must be finite and within ±%g' % WEIGHT_BOUND)
    return float(w)


def _judged(c, key, verdicts):
    """Records ``c``'s verdict; False when it is marked stale (not judged)."""
    stale = c.get('stale', False)
    if stale is True:
        age = c.get('report_age_seconds')
        if age is not None and type(age) is not int and type(age) is not float:
            raise _bad('`report_age_seconds` must be a number')
        return False
    passes = c.get('passes')
    if stale is not False or type(passes) is not bool:
        raise _bad('`passes` and `stale` must be booleans')
    if key in verdicts:
        raise _bad('two verdicts for %s' % repr(key)[:200])
    verdicts[key] = (passes, _weight(c.get('weight')) if passes else 0.0)
    return True


def parse(raw, asked):
    """The Advice in ``raw`` (the body's bytes) about the ``asked`` (host, nodename) set."""
    try:
        body = json.loads(raw.decode('utf-8'))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise _bad('not JSON: %s' % type(e).__name__)
    if not isinstance(body, dict):
        raise _bad('the body is not an object')
    verdicts, unjudged = {}, set()
    counts = {'stale': 0, 'unknown': 0, 'refused': 0}
    for c in _list(body, 'candidates', required=True):
        key = _key(c, asked, 'candidates')
        if not _judged(c, key, verdicts):
            unjudged.add(key)
            counts['stale'] += 1
    for name in ('unknown', 'refused'):
        for item in _list(body, name):
            key = _key(item, asked, name, strict=name == 'unknown')
            if key is not None:
                unjudged.add(key)
                counts[name] += 1
    return Advice(verdicts, asked, unjudged - set(verdicts), counts=counts)
