"""One HTTP POST under one deadline: connect, TLS, send, receive and the body cap share it.

Why not urllib: its timeout is per socket operation, so an endpoint that drips one byte a second
holds the caller for as long as it likes. Here every read waits at most until the deadline, and
http.client (the standard parser, with its limits on line length and header count) reads through
that reader.
"""

import http.client
import io
import socket
import ssl
import time
import urllib.parse

from placid_nova.failures import Unanswered

#: The largest answer read (1,000 candidates answer in about 80 KB; `placid serve` caps its lists).
MAX_BODY_BYTES = 8 * 1024 * 1024

_TLS = None


class _DeadlineReader(io.RawIOBase):
    """A socket's reads, each allowed only the time left until the exchange's deadline."""

    def __init__(self, sock, deadline):
        self._sock = sock
        self._deadline = deadline

    def readable(self):
        return True

    def readinto(self, buffer):
        self._sock.settimeout(_remaining(self._deadline))
        return self._sock.recv_into(buffer)


class _Socket(object):
    """What http.client.HTTPResponse needs of a socket: a file to read the response from."""

    def __init__(self, sock, deadline):
        self._reader = _DeadlineReader(sock, deadline)

    def makefile(self, mode):
        return io.BufferedReader(self._reader, 65536)


def _remaining(deadline):
    left = deadline - time.monotonic()
    if left <= 0:
        raise Unanswered('timeout', 'no answer within the timeout')
    return left


def _tls_context():
    global _TLS
    if _TLS is None:
        _TLS = ssl.create_default_context()
    return _TLS


def host_header(url):
    """The Host header as SigV4 signs it: the port only when it is not the scheme's default."""
    parts = urllib.parse.urlsplit(url)
    default = 443 if parts.scheme == 'https' else 80
    host = parts.hostname if ':' not in parts.hostname else '[%s]' % parts.hostname
    return host if parts.port in (None, default) else '%s:%d' % (host, parts.port)


def _request_bytes(parts, url, body, headers):
    target = (parts.path or '/') + ('?' + parts.query if parts.query else '')
    lines = ['POST %s HTTP/1.1' % target, 'Host: %s' % host_header(url),
             'Content-Length: %d' % len(body), 'Connection: close']
    lines += ['%s: %s' % (k, v) for k, v in headers.items()
              if k.lower() not in ('host', 'content-length', 'connection')]
    return ('\r\n'.join(lines) + '\r\n\r\n').encode('latin-1') + body


def _connect(parts, deadline):
    port = parts.port or (443 if parts.scheme == 'https' else 80)
    try:
        # The name lookup itself cannot be interrupted: an IP address (or /etc/hosts) avoids it.
        sock = socket.create_connection((parts.hostname, port), timeout=_remaining(deadline))
    except socket.timeout:
        raise Unanswered('timeout', 'connecting to %s:%s timed out' % (parts.hostname, port))
    except OSError as e:
        raise Unanswered('connect', 'cannot connect to %s:%s: %s' % (parts.hostname, port, e))
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if parts.scheme == 'https':
            sock.settimeout(_remaining(deadline))  # the handshake's reads share one deadline
            sock = _tls_context().wrap_socket(sock, server_hostname=parts.hostname)
    except BaseException as e:
        sock.close()
        if isinstance(e, socket.timeout):
            raise Unanswered('timeout', 'the TLS handshake with %s timed out' % parts.hostname)
        if isinstance(e, OSError):  # ssl.SSLError and certificate errors included
            raise Unanswered('connect', 'TLS with %s: %s' % (parts.hostname, e))
        raise
    return sock


def post(url, body, headers, deadline):
    """The body of a 200 answer to POST ``body``, or Unanswered (kind + why) by ``deadline``."""
    parts = urllib.parse.urlsplit(url)
    sock = _connect(parts, deadline)
    try:
        sock.settimeout(_remaining(deadline))
        sock.sendall(_request_bytes(parts, url, body, headers))
        response = http.client.HTTPResponse(_Socket(sock, deadline), method='POST')
        response.begin()
        if response.status != 200:
            detail = response.read(300).decode('utf-8', 'replace')
            kind = 'http_4xx' if 400 <= response.status < 500 else 'http_status'
            raise Unanswered(kind, 'HTTP %s: %s' % (response.status, detail))
        return _read_capped(response, MAX_BODY_BYTES)
    except Unanswered:
        raise
    except socket.timeout:
        raise Unanswered('timeout', 'no answer within the timeout')
    except (http.client.HTTPException, ValueError) as e:
        raise Unanswered('protocol', '%s: %s' % (type(e).__name__, e))
    except OSError as e:
        raise Unanswered('connect', '%s: %s' % (type(e).__name__, e))
    finally:
        sock.close()


def _read_capped(response, cap):
    """The body, or Unanswered when it is longer than ``cap`` (reading stops there)."""
    if response.length is not None:
        if response.length > cap:
            raise Unanswered('too_large', 'answer of %d bytes (over %d)' % (response.length, cap))
        return response.read()  # IncompleteRead when the connection ends early
    data = response.read(cap + 1)  # chunked, or until the connection closes
    if len(data) > cap:
        raise Unanswered('too_large', 'answer over %d bytes' % cap)
    return data
