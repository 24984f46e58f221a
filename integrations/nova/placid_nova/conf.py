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
        help='The decision API: the schedule stage\'s Function URL, or `placid serve` '
             '(whose default address this is).'),
    cfg.FloatOpt(
        'timeout',
        default=2.0,
        min=0.05,
        help='Seconds to wait for Placid\'s answer before failing open (or closed).'),
    cfg.BoolOpt(
        'fail_open',
        default=True,
        help='When Placid times out, answers 4xx/5xx or is unreachable: true lets every host '
             'pass with weight 0 (Nova decides alone); false lets no host pass (NoValidHost).'),
    cfg.StrOpt(
        'region',
        help='Sign requests with SigV4 for this AWS region (the IAM-authenticated Function URL), '
             'with botocore\'s standard credential chain. Unset: plain HTTP, as for `placid serve`.'),
    cfg.FloatOpt(
        'weight_multiplier',
        default=1.0,
        help='Multiplier of Placid\'s (normalised) weight among the other weighers.'),
]

CONF.register_group(placid_group)
CONF.register_opts(placid_opts, group=placid_group)


def list_opts():
    """For oslo-config-generator."""
    return {placid_group: placid_opts}
