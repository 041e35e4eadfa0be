"""Per-token request and stream limits (429 with Retry-After)."""
from __future__ import annotations

import math
import threading
import time
from collections import defaultdict

from api.errors import Problem


class TokenLimits:
    def __init__(self, rate: float, burst: int, streams: int) -> None:
        self.rate, self.burst, self.max_streams = rate, burst, streams
        self._buckets: dict[str, tuple[float, float]] = {}
        self._streams: dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()

    def take(self, token: str) -> None:
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(token, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens < 1:
                wait = math.ceil((1 - tokens) / self.rate)
                raise Problem(429, f"more than {self.rate:g} requests a second for this token",
                              headers={"Retry-After": str(wait)})
            self._buckets[token] = (tokens - 1, now)

    def open_stream(self, token: str) -> None:
        with self._lock:
            if self._streams[token] >= self.max_streams:
                raise Problem(429, f"at most {self.max_streams} open streams per token",
                              headers={"Retry-After": "5"})
            self._streams[token] += 1

    def close_stream(self, token: str) -> None:
        with self._lock:
            self._streams[token] = max(0, self._streams[token] - 1)
