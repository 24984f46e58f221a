"""SigV4 for the IAM-authenticated Function URL, with botocore's credential chain resolved once.

botocore's RefreshableCredentials (instance roles, SSO, credential processes with an expiry)
refresh themselves shortly before they expire; static ones never need to. A failing credential
source (CredentialRetrievalError, ConfigParseError, a credential process printing no JSON…) is a
``credentials`` failure, retried at the next call the breaker lets through.
"""

import threading

from placid_nova.failures import Unanswered

_lock = threading.Lock()
_credentials = [None]


def reset():
    """Forgets the resolved credentials (tests; a changed environment)."""
    with _lock:
        _credentials[0] = None


def _resolved():
    with _lock:
        if _credentials[0] is None:
            # Imported only when signing: `placid serve` as endpoint needs no botocore.
            import botocore.session
            credentials = botocore.session.get_session().get_credentials()
            if credentials is None:
                raise Unanswered('credentials', 'botocore found no AWS credentials')
            _credentials[0] = credentials
        return _credentials[0]


def signed_headers(url, host, body, headers, region):
    """``headers`` plus SigV4's for a POST of ``body`` to ``url`` (service ``lambda``)."""
    try:
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest

        frozen = _resolved().get_frozen_credentials()
        request = AWSRequest(method='POST', url=url, data=body, headers=dict(headers, host=host))
        SigV4Auth(frozen, 'lambda', region).add_auth(request)
        return dict(request.headers.items())
    except Unanswered:
        raise
    except Exception as e:  # botocore's and the credential source's errors alike
        raise Unanswered('credentials', '%s: %s' % (type(e).__name__, e))
