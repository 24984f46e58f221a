"""Why Placid gave no usable answer, as a kind an operator can count (``stats['failed_<kind>']``)."""

#: Every kind, so the counters and the docs name the same set.
KINDS = (
    'timeout',      # the exchange did not finish by the deadline
    'connect',      # no connection (refused, unreachable, reset)
    'protocol',     # not HTTP: bad status line, header flood, bad chunking, truncated body
    'http_4xx',     # Placid refused the request (a bug in the translation or the config)
    'http_status',  # any other status than 200 (5xx, 3xx, 503 while saturated)
    'too_large',    # the answer is over the body cap
    'bad_answer',   # HTTP 200 but not a well-formed answer to this request
    'credentials',  # botocore found no credentials, or its credential source failed
    'internal',     # anything else (a bug here): still no exception into Nova
)


class Unanswered(Exception):
    """Placid did not answer usably; ``kind`` is one of KINDS."""

    def __init__(self, kind, message):
        super(Unanswered, self).__init__(message)
        self.kind = kind
