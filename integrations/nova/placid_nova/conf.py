"""The plug-in's options, registered in nova.conf's ``[placid]`` group when placid_nova is imported."""

from oslo_config import cfg

import nova.conf

CONF = nova.conf.CONF

placid_group = cfg.OptGroup(
    'placid',
    title='Placid',
    help='Where PlacidFilter and PlacidWeigher ask Placid, and what they do when it does not answer.')

placid_opts = [
    cfg.URIOpt(
        'endpoint',
        default='http://127.0.0.1:8780',
        schemes=['http', 'https'],
        help='The decision API: a `placid serve --replica` next to nova-scheduler (recommended; '
             'this is its default address), or the schedule stage\'s Function URL.'),
    cfg.FloatOpt(
        'timeout',
        default=2.0,
        min=0.05,
        help='Seconds for the whole exchange with Placid (connect, TLS, send, receive, parse), '
             'one deadline per request; past it the fail policy decides.'),
    cfg.BoolOpt(
        'fail_open',
        default=True,
        help='When Placid gives no well-formed answer (timeout, unreachable, any status but '
             '200, a malformed or oversized body, failing credentials, the breaker open): true '
             'lets every host pass with weight 0 (Nova decides alone); false lets no host pass '
             '(NoValidHost). Hosts Placid does not judge (unknown, refused, stale) pass either way.'),
    cfg.StrOpt(
        'region',
        help='Sign requests with SigV4 for this AWS region (the IAM-authenticated Function URL), '
             'with botocore\'s standard credential chain. Unset: plain HTTP, as for `placid serve`.'),
    cfg.FloatOpt(
        'weight_multiplier',
        default=1.0,
        help='Multiplier of Placid\'s (normalised) weight among the other weighers.'),
    cfg.IntOpt(
        'breaker_failures',
        default=3,
        min=1,
        help='Failed calls in a row after which the plug-in stops calling Placid for '
             'breaker_cooldown seconds (the fail policy decides meanwhile).'),
    cfg.FloatOpt(
        'breaker_cooldown',
        default=30.0,
        min=0.0,
        help='Seconds without calls once the breaker opened; then one request probes Placid, '
             'and its outcome closes the breaker or opens it again.'),
    cfg.StrOpt(
        'nova_release',
        help='The Nova release Placid decides as (its weighers and defaults), sent with every '
             'request. Unset: this nova-scheduler\'s own version.'),
]

CONF.register_group(placid_group)
CONF.register_opts(placid_opts, group=placid_group)


def list_opts():
    """For ``oslo-config-generator --namespace placid_nova`` (the oslo.config.opts entry point)."""
    return [(placid_group, placid_opts)]
