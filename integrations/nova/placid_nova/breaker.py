"""A circuit breaker: after ``failures`` failed calls in a row, no call for ``cooldown`` seconds,
then one probe (half open) whose outcome closes or reopens it. A dead Placid then costs a boot a
lock and a clock read, not a timeout."""

import threading
import time

CLOSED, OPEN, HALF_OPEN = 'closed', 'open', 'half_open'


class Breaker(object):

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._lock = threading.Lock()
        self.reset()

    def reset(self):
        self.state = CLOSED
        self._failures = 0
        self._opened_at = 0.0
        self._probing = False

    def allow(self, cooldown):
        """Whether to call Placid now (in half open: only the one probe)."""
        with self._lock:
            if self.state == CLOSED:
                return True
            if self.state == OPEN and self._clock() - self._opened_at >= cooldown:
                self.state = HALF_OPEN
            if self.state == HALF_OPEN and not self._probing:
                self._probing = True
                return True
            return False

    def succeeded(self):
        with self._lock:
            self.state, self._failures, self._probing = CLOSED, 0, False

    def failed(self, threshold):
        """Counts a failed call; True when this failure opened a closed breaker."""
        with self._lock:
            self._failures += 1
            self._probing = False
            if self.state == HALF_OPEN or self._failures >= threshold:
                opened = self.state == CLOSED
                self.state, self._opened_at = OPEN, self._clock()
                return opened
            return False
